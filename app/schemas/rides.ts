import { z } from "zod";
import { parseRupeesToPaise } from "~/domain/money";
import { unknownPlaceMessage, type PlaceResolution } from "~/domain/places";
import { istDate, istToInstant, isValidDate, isValidTime } from "~/domain/time";
import { notesField, seatsField } from "./booking";

// The booking form's schema lives in booking.ts (no place list in that page's initial JS).
export { bookRideSchema } from "./booking";

/** Resolves a typed place (app/models/places.server.ts resolvePlace); only the server has the list. */
export type PlaceResolver = (typed: string) => PlaceResolution;

/**
 * A place field: required; on the server (with `resolve`) the typed text becomes the place's
 * own name, or a "did you mean" message. In the browser only "required" is checked.
 */
export const placeField = (message: string, resolve?: PlaceResolver) =>
  z
    .string({ required_error: message })
    .trim()
    .min(1, message)
    .max(100, message)
    .transform((v, ctx) => {
      if (!resolve) return v;
      const r = resolve(v);
      if (r.place) return r.place.name;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: unknownPlaceMessage(v, r.suggestions) });
      return z.NEVER;
    });

/**
 * An optional "via" place of a route (issue 36): empty is none; otherwise resolved as a place
 * field is, so a typo gets the same "did you mean".
 */
export const viaField = (resolve?: PlaceResolver) => optionalPlaceField("Please choose a place from the list", resolve);

/** An optional place field: empty is null; otherwise one place of the list, with "did you mean". */
export const optionalPlaceField = (tooLong: string, resolve?: PlaceResolver) =>
  z
    .string()
    .trim()
    .max(100, tooLong)
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      if (!resolve) return v;
      const r = resolve(v);
      if (r.place) return r.place.name;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: unknownPlaceMessage(v, r.suggestions) });
      return z.NEVER;
    });

/** The route's vias in order, without gaps; a via that repeats the start, the end or another via is an error. */
export const VIA_SAME = "A via place must differ from the start, the end and the other vias";
export function checkVias(
  v: { fromLocation: string; toLocation: string; via1: string | null; via2: string | null; via3: string | null },
  ctx: z.RefinementCtx,
) {
  const seen = new Set([v.fromLocation, v.toLocation]);
  for (const key of ["via1", "via2", "via3"] as const) {
    const via = v[key];
    if (!via) continue;
    if (seen.has(via)) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [key], message: VIA_SAME });
    seen.add(via);
  }
}

/** The vias a form gave, in order. */
export const viasOf = (v: { via1?: string | null; via2?: string | null; via3?: string | null }) =>
  [v.via1, v.via2, v.via3].filter((x): x is string => Boolean(x));

/**
 * The Create a New Ride form. "Today" is Bengaluru's today (Asia/Kolkata), so the schema
 * takes the current instant: the server passes its clock, tests pass a fixed one.
 */
export function createRideSchema(now = Date.now(), resolve?: PlaceResolver) {
  return z
    .object({
      fromLocation: placeField("Please select pickup location", resolve),
      toLocation: placeField("Please select drop location", resolve),
      via1: viaField(resolve),
      via2: viaField(resolve),
      via3: viaField(resolve),
      date: z.string({ required_error: "Please select a date" }).trim().refine(isValidDate, "Please select a date"),
      time: z.string({ required_error: "Please select time" }).trim().refine(isValidTime, "Please select time"),
      seats: seatsField,
      tripCost: z.string({ required_error: "Please enter the trip cost" }).transform((v, ctx) => {
        const paise = parseRupeesToPaise(v);
        if (paise === null) {
          ctx.addIssue({ code: z.ZodIssueCode.custom, message: "Please enter the trip cost in rupees, like 250" });
          return z.NEVER;
        }
        return paise;
      }),
      notes: notesField,
      communityId: z
        .string()
        .trim()
        .optional()
        .transform((v) => v || null),
      // Issue 16: only women may book (the server accepts it from a woman driver only).
      womenOnly: z.literal("on").optional().transform(Boolean),
    })
    .superRefine((v, ctx) => {
      if (v.fromLocation && v.fromLocation === v.toLocation) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["toLocation"],
          message: "Pickup and drop locations cannot be the same",
        });
      }
      checkVias(v, ctx);
      if (isValidDate(v.date) && v.date < istDate(now)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["date"], message: "Date cannot be in the past" });
      } else if (isValidDate(v.date) && isValidTime(v.time) && istToInstant(v.date, v.time) <= now) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          path: ["time"],
          message: "This time has already passed. Please pick a later time.",
        });
      }
    });
}

/** The create-ride form's buttons: Suggest cost (the no-JavaScript way) and Create. */
export const createRideIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("suggest") }),
  z.object({ intent: z.literal("create") }),
]);

/** A model's input: the vias may be left out (callers that publish without a route). */
export type OptionalVias<T extends { via1: unknown; via2: unknown; via3: unknown }> = Omit<
  T,
  "via1" | "via2" | "via3"
> &
  Partial<Pick<T, "via1" | "via2" | "via3">>;
export type CreateRideInput = OptionalVias<z.output<ReturnType<typeof createRideSchema>>>;

/** The request-to-join / booking form. */

export const idSchema = z.string().trim().min(1).max(64);

// The Discover filters and the My Rides query live in ./ride-search.ts: the pages that create
// rides then do not carry them in their initial JS (zod schemas are not tree-shaken).
