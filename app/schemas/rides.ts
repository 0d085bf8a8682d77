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
 * The Create a New Ride form. "Today" is Bengaluru's today (Asia/Kolkata), so the schema
 * takes the current instant: the server passes its clock, tests pass a fixed one.
 */
export function createRideSchema(now = Date.now(), resolve?: PlaceResolver) {
  return z
    .object({
      fromLocation: placeField("Please select pickup location", resolve),
      toLocation: placeField("Please select drop location", resolve),
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

export type CreateRideInput = z.output<ReturnType<typeof createRideSchema>>;

/** The request-to-join / booking form. */

export const idSchema = z.string().trim().min(1).max(64);

// The Discover filters and the My Rides query live in ./ride-search.ts: the pages that create
// rides then do not carry them in their initial JS (zod schemas are not tree-shaken).
