import { z } from "zod";
import { RADIUS_KM, WINDOW_MINUTES } from "~/domain/ride-match";
import { istDate, isValidDate, isValidTime } from "~/domain/time";
import { WEEKDAY_KEYS, weekdayMask } from "~/domain/commutes";
import { MAX_COST_CHOICES } from "~/domain/rides";
import { ANY_METRO, isAnyMetro } from "~/domain/metro-stations";
import { NO_WEEKDAYS } from "./commutes";
import { placeField, type PlaceResolver } from "./rides";

export { NO_WEEKDAYS };

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const RADIUS_MESSAGE = `The distance must be between ${RADIUS_KM.min} and ${RADIUS_KM.max} km`;
const WINDOW_MESSAGE = `The time window must be between ${WINDOW_MINUTES.min} and ${WINDOW_MINUTES.max} minutes`;

export const BOTH_ANY_METRO = `Only one end can be "${ANY_METRO}": please choose a place for the other`;

/** A search's From or To: a place of the list, or "Any metro station" (issue 36, item 4). */
const searchEnd = (message: string, resolve?: PlaceResolver) => {
  const place = placeField(message, resolve);
  return z.string({ required_error: message }).transform((v, ctx) => {
    if (isAnyMetro(v)) return ANY_METRO;
    const r = place.safeParse(v);
    if (r.success) return r.data;
    for (const issue of r.error.issues) ctx.addIssue({ code: z.ZodIssueCode.custom, message: issue.message });
    return z.NEVER;
  });
};

/**
 * The distance-and-time search of Discover Rides (GET parameters from, to, date, time,
 * radius in km, window in minutes). Unlike the lenient filters, a wrong value is reported,
 * not silently replaced: the rider should know why nothing was found.
 */
export function nearSearchSchema(resolve?: PlaceResolver, now = Date.now()) {
  return z.object({
    from: searchEnd("Please enter where you start", resolve),
    to: searchEnd("Please enter where you are going", resolve),
    date: z.preprocess(
      blankToUndefined,
      z
        .string()
        .trim()
        .refine(isValidDate, "Please pick a date")
        .refine((d) => d >= istDate(now), "Date cannot be in the past")
        .default(istDate(now)),
    ),
    time: z.string({ required_error: "Please pick a time" }).trim().refine(isValidTime, "Please pick a time"),
    radius: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ invalid_type_error: RADIUS_MESSAGE })
        .min(RADIUS_KM.min, RADIUS_MESSAGE)
        .max(RADIUS_KM.max, RADIUS_MESSAGE)
        .default(RADIUS_KM.default),
    ),
    window: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ invalid_type_error: WINDOW_MESSAGE })
        .int(WINDOW_MESSAGE)
        .min(WINDOW_MINUTES.min, WINDOW_MESSAGE)
        .max(WINDOW_MINUTES.max, WINDOW_MESSAGE)
        .default(WINDOW_MINUTES.default),
    ),
    // "On weekdays" instead of one day (issue 14 item 2): the next 14 days on the ticked days.
    mode: z.enum(["date", "weekdays"]).catch("date").default("date"),
    weekdays: z
      .preprocess(
        (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
        z.array(z.enum(WEEKDAY_KEYS, { message: NO_WEEKDAYS })),
      )
      .transform((v) => weekdayMask(v)),
    // "And back" on weekdays (ADR 0048): commutes that also return around `backTime`.
    back: z
      .enum(["1", "on", "true"])
      .optional()
      .catch(undefined)
      .transform((v) => Boolean(v)),
    backTime: z.preprocess(blankToUndefined, z.string().trim().refine(isValidTime, RETURN_TIME_MESSAGE).optional()),
  });
}

/** A list's cursor in the URL (ADR 0025, 0038): anything malformed or too long is the first page. */
const cursorParam = () =>
  z
    .string()
    .max(100)
    .optional()
    .catch(undefined)
    .transform((v) => v || "");

export const RETURN_TIME_MESSAGE = "Please pick the time back";

export type NearSearchInput = z.output<ReturnType<typeof nearSearchSchema>>;

/** Whether the Discover query asks for the distance search (either place given). */
export const isNearSearch = (params: URLSearchParams) => params.has("from") || params.has("to");

/** A cap in whole rupees from `min` to `max`, else undefined (no cap). */
const rupeeCap = (min: number, max: number) =>
  z.preprocess(blankToUndefined, z.coerce.number().int().min(min).max(max).optional().catch(undefined));

/** Discover filters: every one a GET parameter. */
export const discoverFiltersSchema = z
  .object({
    q: z
      .string()
      .trim()
      .max(100)
      .optional()
      .catch(undefined)
      .transform((v) => v || ""),
    // "Max cost per seat" in rupees, ₹0-₹500 or Any (blank; ADR 0054). The old slider's
    // `maxCost` ran ₹5-50 with 50 meaning any price: links made with it still read so.
    upto: rupeeCap(MAX_COST_CHOICES.min, MAX_COST_CHOICES.max),
    maxCost: rupeeCap(5, 49),
    community: z
      .enum(["1", "on", "true"])
      .optional()
      .catch(undefined)
      .transform((v) => Boolean(v)),
    date: z
      .string()
      .optional()
      .catch(undefined)
      .transform((v) => (v && isValidDate(v) ? v : "")),
    page: z.coerce.number().int().min(1).max(1000).catch(1).default(1),
    // "Next page": the last ride shown ("<departs_at>.<id>", ADR 0038); "Previous page": the first
    // ride shown. Anything else counts by page.
    after: cursorParam(),
    before: cursorParam(),
    // Issue 16: only rides whose seats are for women (women-only or comfort-locked).
    women: z
      .enum(["1", "on", "true"])
      .optional()
      .catch(undefined)
      .transform((v) => Boolean(v)),
  })
  .transform(({ upto, maxCost, ...f }) => ({ ...f, maxCost: upto ?? maxCost ?? null }));

// `women` optional so callers built before issue 16 still type-check (absent: no filter).
export type DiscoverFilters = Omit<z.output<typeof discoverFiltersSchema>, "women" | "after" | "before"> & {
  women?: boolean;
  after?: string;
  before?: string;
};

export const myRidesQuerySchema = z.object({
  tab: z.enum(["created", "booked", "manage"]).catch("created").default("created"),
  status: z.enum(["all", "pending", "accepted", "rejected"]).catch("all").default("all"),
  q: z
    .string()
    .trim()
    .max(100)
    .optional()
    .catch(undefined)
    .transform((v) => v || ""),
  // Manage Bookings' "More requests" cursor (ADR 0025); anything else is the first page.
  after: cursorParam(),
});
