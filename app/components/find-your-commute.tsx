import { Form, Link } from "@remix-run/react";
import { MAIN_TECH_PARKS } from "~/domain/curated-places";
import { dayOfWeek } from "~/domain/commutes";
import { addDays } from "~/domain/time";
import { PlaceInput } from "./place-input";
import { SaveSearchForm } from "./saved-searches";
import { buttonClass, cardClass, mutedTextClass, textLinkClass } from "./styles";

type Nearby = { id: string; name: string; type: string; location: string; memberCount: number };

/** The next Monday-Friday after `today`: the commute a new rider is most likely to look for. */
export function nextWorkday(today: string): string {
  let date = addDays(today, 1);
  while (dayOfWeek(date) === 0 || dayOfWeek(date) === 6) date = addDays(date, 1);
  return date;
}

/**
 * A rider without a car (issue 38, item 4): their commute search, from their home locality to
 * their workplace when the profile has them, within 3 km at 9:00 on the next workday (a GET to
 * Discover, so it works without JavaScript); communities near home; and, when both ends are
 * known, "Save this search" right here.
 */
export function FindYourCommute({
  home,
  work,
  saveable,
  today,
  nearby,
}: {
  home: string;
  work: string;
  /** Both ends are places the app knows (a saved search needs them). */
  saveable: boolean;
  today: string;
  nearby: Nearby[] | null;
}) {
  const search = { from: home, to: work, time: "09:00", radius: "3", window: "15" };
  return (
    <section
      id="find-your-commute"
      aria-labelledby="find-your-commute-title"
      className={`${cardClass} space-y-4`}
      data-testid="find-your-commute"
    >
      <div>
        <h2 id="find-your-commute-title" className="text-lg font-semibold">
          Find your commute
        </h2>
        <p className={`text-sm ${mutedTextClass}`}>
          Drivers from your area go to the same tech parks every day. Search from where you live, then save the search
          to hear when a new ride matches.
        </p>
      </div>
      <Form method="get" action="/rides" className="space-y-3" aria-label="Find your commute">
        <div className="grid gap-3 sm:grid-cols-2">
          <PlaceInput
            id="commute-from"
            name="from"
            label="From (your locality)"
            placeholder="e.g. Koramangala"
            defaultValue={home}
            errorId="commute-from-error"
          />
          <PlaceInput
            id="commute-to"
            name="to"
            label="To (where you work)"
            placeholder="e.g. Manyata Tech Park"
            defaultValue={work}
            errorId="commute-to-error"
            options={[...MAIN_TECH_PARKS]}
          />
        </div>
        <input type="hidden" name="date" value={nextWorkday(today)} />
        {(["time", "radius", "window"] as const).map((k) => (
          <input key={k} type="hidden" name={k} value={search[k]} />
        ))}
        <p className={`text-xs ${mutedTextClass}`}>Around 9:00 AM on the next workday, pickup within 3 km.</p>
        <button type="submit" className={buttonClass}>
          Find rides
        </button>
      </Form>
      {saveable ? (
        <SaveSearchForm values={{ ...search, mode: "weekdays", weekdays: "" }} redirectTo="/dashboard" />
      ) : null}
      <div>
        <h3 className="font-semibold">Communities near you</h3>
        {nearby?.length ? (
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800" data-testid="nearby-communities">
            {nearby.map((c) => (
              <li key={c.id} className="flex items-center justify-between gap-3 py-2">
                <div className="min-w-0">
                  <Link to={`/communities/${c.id}`} className="font-medium hover:underline">
                    {c.name}
                  </Link>
                  <p className={`text-xs ${mutedTextClass}`}>
                    {`${c.location} · ${c.memberCount} ${c.memberCount === 1 ? "member" : "members"}`}
                  </p>
                </div>
                <Link to={`/communities/${c.id}`} className={textLinkClass} aria-label={`Join ${c.name}`}>
                  Join
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <p className={`mt-1 text-sm ${mutedTextClass}`}>
            {home ? "No communities near your locality yet. " : "Add your locality to your profile to see them. "}
            <Link to="/communities" className={textLinkClass}>
              Browse communities
            </Link>
          </p>
        )}
      </div>
    </section>
  );
}
