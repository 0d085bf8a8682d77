import { placeByName, resolvePlace } from "~/models/places.server";
import type { NearSearch } from "~/models/ride-discovery.server";
import { ANY_METRO } from "~/domain/metro-stations";
import {
  BOTH_ANY_METRO,
  isNearSearch,
  nearSearchSchema,
  NO_WEEKDAYS,
  RETURN_TIME_MESSAGE,
} from "~/schemas/ride-search";
import type { NearForm } from "~/components/near-search";

const FIELDS = ["from", "to", "date", "time", "radius", "window", "mode", "back", "backTime"] as const;

/**
 * The distance search of Discover Rides from its GET parameters: nothing when neither place
 * is given; otherwise the form to show again (values, messages, "did you mean" places) and,
 * when every value is right, the resolved search.
 */
export function parseNearSearch(params: URLSearchParams, now = Date.now()): { form?: NearForm; search?: NearSearch } {
  if (!isNearSearch(params)) return {};
  const values: Record<string, string> = Object.fromEntries(
    FIELDS.map((k) => [k, (params.get(k) ?? "").slice(0, 100)]),
  );
  const weekdays = params.getAll("weekdays").slice(0, 7);
  values.weekdays = weekdays.join(",");
  const parsed = nearSearchSchema(resolvePlace, now).safeParse({
    ...values,
    weekdays,
    ...(values.mode === "weekdays" ? { date: "" } : {}),
  });
  const options = Object.fromEntries(
    ["from", "to"].map((k) => [k, resolvePlace(values[k]).suggestions?.map((p) => p.name) ?? []]),
  );
  const errors: Record<string, string[]> = {};
  if (!parsed.success)
    for (const issue of parsed.error.issues) (errors[String(issue.path[0])] ??= []).push(issue.message);
  // On weekdays, at least one must be ticked (the date is then not used).
  if (values.mode === "weekdays" && !weekdays.length) (errors.weekdays ??= []).push(NO_WEEKDAYS);
  // "And back" needs the time back (only weekday searches look for returns).
  if (values.mode === "weekdays" && values.back && !values.backTime && !errors.backTime)
    (errors.backTime ??= []).push(RETURN_TIME_MESSAGE);
  // The index is ranged on a place's cells: "any station" at both ends has none (ADR 0062).
  if (parsed.success && parsed.data.from === ANY_METRO && parsed.data.to === ANY_METRO)
    (errors.to ??= []).push(BOTH_ANY_METRO);
  if (!parsed.success || Object.keys(errors).length) return { form: { values, errors, options } };
  const v = parsed.data;
  const end = (name: string) => (name === ANY_METRO ? ANY_METRO : placeByName(name)!);
  const from = end(v.from);
  const to = end(v.to);
  // Show the places under their own names (what was typed may differ in case).
  return {
    form: { values: { ...values, from: v.from, to: v.to, date: v.date }, errors: {}, options },
    search: {
      from,
      to,
      date: v.date,
      time: v.time,
      radiusKm: v.radius,
      windowMinutes: v.window,
      ...(v.mode === "weekdays" ? { weekdays: v.weekdays } : {}),
      ...(v.mode === "weekdays" && v.back && v.backTime ? { returnTime: v.backTime } : {}),
    },
  };
}
