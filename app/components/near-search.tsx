import { Form, Link } from "@remix-run/react";
import {
  formatMinutesOff,
  formatWalk,
  RADIUS_CHOICES,
  stopName,
  WINDOW_CHOICES,
  type ShownMatch,
} from "~/domain/ride-match";
import { ANY_METRO, isAnyMetro, METRO_LINE_NAMES, metroPlaceName, metroStationNamed } from "~/domain/metro-stations";
import { formatTime, istTime } from "~/domain/time";
import { WEEKDAYS } from "~/domain/commutes";
import { FieldErrors } from "./forms";
import { PlaceInput } from "./place-input";
import { buttonClass, cardClass, inputClass, secondaryButtonClass } from "./styles";

export type NearForm = {
  values: Record<string, string>;
  errors: Record<string, string[]>;
  /** "Did you mean" places for a field whose text is not a place. */
  options: Record<string, string[]>;
};

const select = (
  id: string,
  label: string,
  name: string,
  value: string,
  choices: readonly number[],
  text: (n: number) => string,
  errors?: string[],
) => (
  <div>
    <label htmlFor={id} className="mb-1 block text-sm font-medium">
      {label}
    </label>
    <select
      id={id}
      name={name}
      defaultValue={value}
      className={inputClass}
      aria-invalid={errors?.length ? true : undefined}
    >
      {/* A value typed into the URL that is not a choice stays selected (and is checked). */}
      {value && !choices.map(String).includes(value) ? <option value={value}>{value}</option> : null}
      {choices.map((n) => (
        <option key={n} value={n}>
          {text(n)}
        </option>
      ))}
    </select>
    <FieldErrors id={`${id}-error`} errors={errors} />
  </div>
);

/** Find rides from A to B around a time: a GET form, so it works without JavaScript. */
export function NearSearchForm({ form, today }: { form: NearForm; today: string }) {
  const { values: v, errors: e, options } = form;
  return (
    <Form
      method="get"
      action="/rides"
      className={`${cardClass} space-y-4`}
      role="search"
      aria-label="Find rides near you"
    >
      <h2 className="text-lg font-semibold">Find rides near you</h2>
      <div className="grid gap-4 sm:grid-cols-2">
        <PlaceInput
          id="near-from"
          name="from"
          label="From (your locality)"
          placeholder={`e.g. Koramangala, ${ANY_METRO}`}
          defaultValue={v.from ?? ""}
          errors={e.from}
          errorId="near-from-error"
          // "Any metro station" is always offered (issue 36): a real option without JavaScript.
          options={[ANY_METRO, ...(options.from ?? [])]}
        />
        <PlaceInput
          id="near-to"
          name="to"
          label="To"
          placeholder={`e.g. Manyata Tech Park, ${ANY_METRO}`}
          defaultValue={v.to ?? ""}
          errors={e.to}
          errorId="near-to-error"
          options={[ANY_METRO, ...(options.to ?? [])]}
        />
      </div>
      <fieldset className="flex flex-wrap gap-4 text-sm">
        <legend className="mb-1 block text-sm font-medium">When</legend>
        <label className="flex items-center gap-2">
          <input type="radio" name="mode" value="date" defaultChecked={v.mode !== "weekdays"} /> On one day
        </label>
        <label className="flex items-center gap-2">
          <input type="radio" name="mode" value="weekdays" defaultChecked={v.mode === "weekdays"} /> On weekdays
          (regular commutes)
        </label>
      </fieldset>
      {/* Short names only: "Monday" would also answer to the label "Day" (the date field). */}
      <fieldset aria-describedby={e.weekdays?.length ? "near-weekdays-error" : undefined}>
        <legend className="mb-1 block text-sm font-medium">Weekdays (when searching on weekdays)</legend>
        <div className="flex flex-wrap gap-2">
          {WEEKDAYS.map((d) => (
            <label
              key={d.key}
              className="flex items-center gap-1 rounded-lg border border-slate-300 px-3 py-2 text-sm dark:border-slate-700"
            >
              <input
                type="checkbox"
                name="weekdays"
                value={d.key}
                defaultChecked={(v.weekdays ?? "").split(",").includes(d.key)}
              />
              {d.label}
            </label>
          ))}
        </div>
        <FieldErrors id="near-weekdays-error" errors={e.weekdays} />
        <div className="mt-2 flex flex-wrap items-end gap-3">
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="back" value="1" defaultChecked={Boolean(v.back)} /> And back
          </label>
          <div>
            <label htmlFor="near-back-time" className="mb-1 block text-xs">
              Back around
            </label>
            <input
              id="near-back-time"
              name="backTime"
              type="time"
              defaultValue={v.backTime ?? ""}
              className={inputClass}
              aria-invalid={e.backTime?.length ? true : undefined}
            />
          </div>
        </div>
        <FieldErrors id="near-back-time-error" errors={e.backTime} />
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-4">
        <div>
          <label htmlFor="near-date" className="mb-1 block text-sm font-medium">
            Day
          </label>
          <input
            id="near-date"
            name="date"
            type="date"
            min={today}
            defaultValue={v.date ?? today}
            className={inputClass}
          />
          <FieldErrors id="near-date-error" errors={e.date} />
        </div>
        <div>
          <label htmlFor="near-time" className="mb-1 block text-sm font-medium">
            Around
          </label>
          <input id="near-time" name="time" type="time" defaultValue={v.time ?? ""} className={inputClass} />
          <FieldErrors id="near-time-error" errors={e.time} />
        </div>
        {select("near-radius", "Walk at most", "radius", v.radius || "2", RADIUS_CHOICES, (n) => `${n} km`, e.radius)}
        {select(
          "near-window",
          "Leaving within",
          "window",
          v.window || "15",
          WINDOW_CHOICES,
          (n) => `± ${n} min`,
          e.window,
        )}
      </div>
      <p className="text-xs text-slate-700 dark:text-slate-300">
        Distances are straight lines between locality centres, so they are approximate.
      </p>
      <div className="flex gap-2">
        <button type="submit" className={buttonClass}>
          Find rides
        </button>
        {v.from || v.to ? (
          <Link to="/rides" className={secondaryButtonClass}>
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

const lineNames = (lines: (keyof typeof METRO_LINE_NAMES)[]) => lines.map((l) => METRO_LINE_NAMES[l]).join(", ");

/**
 * "Any metro station" matched at a station the driver stops at: the card's facts name it with
 * its line, and there is no walk (nor a nearest-metro line to repeat it).
 */
export function pickupIsStation(match: ShownMatch, from: string): boolean {
  return isAnyMetro(from) && metroStationNamed(match.anyPoint) != null && match.pickup.routeIndex === -1;
}

/**
 * Where a card's "Nearest metro" is measured from: the rider's pickup along the route; null
 * when that pickup is the station itself; undefined (the driver's start) without a match.
 */
export function cardPickupAt(match: ShownMatch | undefined, from: string | undefined) {
  if (!match) return undefined;
  if (from !== undefined && pickupIsStation(match, from)) return null;
  return "at" in match.pickup ? match.pickup.at : undefined;
}

/**
 * What a distance-search result says: where the rider is picked up and dropped and how far
 * they walk, the estimated pickup time there and how much earlier or later it is, and the
 * driver's extra minutes (issue 36). `route`: the ride's start, vias and end.
 */
export function MatchFacts({
  match,
  from,
  to,
  route,
  rideId,
  commuteId,
}: {
  match: ShownMatch;
  from: string;
  to: string;
  route: string[];
  rideId: string;
  /** A weekday search's commute: its every day can be booked with the same pickup. */
  commuteId?: string;
}) {
  const atStart = match.pickup.routeIndex === 0;
  // "Any metro station": the end is the station this ride was matched at, with its line.
  const station = metroStationNamed(match.anyPoint);
  const metroAt = (typed: string) => (station && isAnyMetro(typed) ? station : null);
  const [startAt, endAt] = [metroAt(from), metroAt(to)];
  const lines = station ? ` (${lineNames(station.lines)})` : "";
  const pickup = stopName(match.pickup, route, startAt ? metroPlaceName(startAt) : from);
  const pickedAtStation = pickupIsStation(match, from);
  const droppedAtStation = endAt && match.drop.routeIndex === -1;
  return (
    <p className="lr-match" data-testid="match-facts">
      <span data-testid="pickup-point">
        {`Picked up at ${pickup}${pickedAtStation ? lines : ""} around ${formatTime(istTime(match.pickupAt))}`}
      </span>
      {pickedAtStation ? null : (
        <>
          {" · "}
          <span data-testid="pickup-distance">
            {`Pickup ${formatWalk(match.pickupKm)} from ${startAt ? metroPlaceName(startAt) + lines : from}`}
          </span>
        </>
      )}
      {" · "}
      {droppedAtStation ? (
        <span data-testid="drop-point">{`Dropped at ${metroPlaceName(endAt)}${lines}`}</span>
      ) : (
        <>
          <span data-testid="drop-distance">
            {`Drop ${formatWalk(match.dropKm)} from ${endAt ? metroPlaceName(endAt) + lines : to}`}
          </span>
          {match.drop.routeIndex !== route.length - 1 ? (
            <span data-testid="drop-point">{` (at ${stopName(match.drop, route, to)})`}</span>
          ) : null}
        </>
      )}
      {" · "}
      <span data-testid="minutes-off">{`${atStart ? "Leaves" : "Pickup"} ${formatMinutesOff(match.minutesOff)}`}</span>
      {match.detourMinutes > 0 ? (
        <>
          {" · "}
          <span data-testid="detour">{`Driver's detour ${match.detourMinutes} min`}</span>
        </>
      ) : null}
      {atStart ? null : (
        <>
          {" · "}
          <Link to={`/rides/${rideId}/book?pickup=${encodeURIComponent(pickup)}`} data-testid="book-pickup">
            {`Book with pickup at ${pickup}`}
          </Link>
          {commuteId ? (
            <>
              {" · "}
              <Link
                to={`/commutes/${commuteId}?pickup=${encodeURIComponent(pickup)}`}
                data-testid="book-commute-pickup"
              >
                {`Book every day with pickup at ${pickup}`}
              </Link>
            </>
          ) : null}
        </>
      )}
    </p>
  );
}
