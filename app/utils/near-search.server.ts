import { placeByName, resolvePlace } from "~/models/places.server";
import type { NearSearch } from "~/models/rides.server";
import { isNearSearch, nearSearchSchema } from "~/schemas/ride-search";
import type { NearForm } from "~/components/near-search";

const FIELDS = ["from", "to", "date", "time", "radius", "window"] as const;

/**
 * The distance search of Discover Rides from its GET parameters: nothing when neither place
 * is given; otherwise the form to show again (values, messages, "did you mean" places) and,
 * when every value is right, the resolved search.
 */
export function parseNearSearch(params: URLSearchParams, now = Date.now()): { form?: NearForm; search?: NearSearch } {
  if (!isNearSearch(params)) return {};
  const values = Object.fromEntries(FIELDS.map((k) => [k, (params.get(k) ?? "").slice(0, 100)]));
  const parsed = nearSearchSchema(resolvePlace, now).safeParse(values);
  const options = Object.fromEntries(["from", "to"].map((k) => [k, resolvePlace(values[k]).suggestions?.map((p) => p.name) ?? []]));
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (errors[String(issue.path[0])] ??= []).push(issue.message);
    return { form: { values, errors, options } };
  }
  const v = parsed.data;
  const from = placeByName(v.from)!;
  const to = placeByName(v.to)!;
  // Show the places under their own names (what was typed may differ in case).
  return {
    form: { values: { ...values, from: from.name, to: to.name, date: v.date }, errors: {}, options },
    search: { from, to, date: v.date, time: v.time, radiusKm: v.radius, windowMinutes: v.window },
  };
}
