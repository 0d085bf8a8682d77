import { Form } from "@remix-run/react";
import { formatTime } from "~/domain/time";
import { WeekdayPicker } from "./commute-form";
import { cardClass, dangerButtonClass, mutedTextClass, smallButtonClass, smallPrimaryClass } from "./styles";

// Saved searches (issue 14): "Save this search" under Discover's distance results and the
// list of saved ones with Pause / Resume / Delete, all plain form posts to /rides.

export type SavedSearchView = {
  id: string;
  fromLocation: string;
  toLocation: string;
  time: string;
  /** "And back" (ADR 0055): the time back from the destination, if the search covers it. */
  returnTime: string | null;
  radiusM: number;
  windowMinutes: number;
  weekdaysLabel: string;
  paused: boolean;
};

const WORKDAYS = ["mon", "tue", "wed", "thu", "fri"];

/** The distance search just run, kept as a saved search (alerts on the weekdays ticked). */
export function SaveSearchForm({ values, redirectTo }: { values: Record<string, string>; redirectTo: string }) {
  // Only the weekday search asks for the way back (ADR 0048); saving keeps it (ADR 0055).
  const backTime = values.mode === "weekdays" && values.back && values.backTime ? values.backTime : "";
  return (
    <Form method="post" action="/rides" className={`${cardClass} space-y-3`} aria-label="Save this search">
      <h2 className="text-lg font-semibold">Get an alert for new rides like these</h2>
      <p className={`text-sm ${mutedTextClass}`}>
        {`${values.from} → ${values.to}, around ${formatTime(values.time)}${backTime ? ` and back around ${formatTime(backTime)}` : ""} (± ${values.window || 15} min, within ${values.radius || 2} km). We tell you once a day at most when a matching ride is published.`}
      </p>
      {(["from", "to", "time", "radius", "window"] as const).map((k) => (
        <input key={k} type="hidden" name={k} value={values[k] ?? ""} />
      ))}
      {backTime ? (
        <>
          <input type="hidden" name="back" value="1" />
          <input type="hidden" name="backTime" value={backTime} />
        </>
      ) : null}
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <WeekdayPicker
        legend="Alert me for rides on"
        checked={values.mode === "weekdays" && values.weekdays ? values.weekdays.split(",") : WORKDAYS}
        errorId="save-search-weekdays-error"
        name="weekdays"
      />
      <button type="submit" name="intent" value="save-search" className={smallPrimaryClass}>
        Save this search
      </button>
    </Form>
  );
}

/** The viewer's saved searches, each with Pause / Resume and Delete. */
export function SavedSearchList({ items, redirectTo }: { items: SavedSearchView[]; redirectTo: string }) {
  if (!items.length) return null;
  return (
    <section id="saved-searches" aria-labelledby="saved-searches-title" className={`${cardClass} space-y-3`}>
      <h2 id="saved-searches-title" className="text-lg font-semibold">
        Your saved searches
      </h2>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {items.map((s) => (
          <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="saved-search">
            <p className="text-sm">
              <span className="font-medium">{`${s.fromLocation} → ${s.toLocation}`}</span>
              {` · ${s.weekdaysLabel} around ${formatTime(s.time)}`}
              {s.returnTime ? ` and back around ${formatTime(s.returnTime)}` : ""}
              {` (± ${s.windowMinutes} min) · within ${s.radiusM / 1000} km`}
              {s.paused ? (
                <span className="ml-2 rounded bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-800 dark:bg-slate-700 dark:text-slate-100">
                  Paused
                </span>
              ) : null}
            </p>
            <Form method="post" action="/rides" className="flex gap-2">
              <input type="hidden" name="searchId" value={s.id} />
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <button
                type="submit"
                name="intent"
                value={s.paused ? "resume-search" : "pause-search"}
                className={smallButtonClass}
                aria-label={`${s.paused ? "Resume" : "Pause"} alerts for ${s.fromLocation} to ${s.toLocation}`}
              >
                {s.paused ? "Resume" : "Pause"}
              </button>
              <button
                type="submit"
                name="intent"
                value="delete-search"
                className={dangerButtonClass}
                aria-label={`Delete saved search ${s.fromLocation} to ${s.toLocation}`}
              >
                Delete
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}
