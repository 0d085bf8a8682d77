import { z } from "zod";
import { parseRupeesToPaise } from "~/domain/money";
import { findPlace } from "~/domain/places";
import { istDate, istToInstant, isValidDate, isValidTime } from "~/domain/time";
import { notesField, seatsField } from "./booking";

// The booking form's schema lives in booking.ts (no place list in that page's initial JS).
export { bookRideSchema } from "./booking";

const place = (message: string) =>
  z.string({ required_error: message }).trim().refine((v) => Boolean(findPlace(v)), message);

/**
 * The Create a New Ride form. "Today" is Bengaluru's today (Asia/Kolkata), so the schema
 * takes the current instant: the server passes its clock, tests pass a fixed one.
 */
export function createRideSchema(now = Date.now()) {
  return z
    .object({
      fromLocation: place("Please select pickup location"),
      toLocation: place("Please select drop location"),
      date: z.string({ required_error: "Please select a date" }).trim().refine(isValidDate, "Please select a date"),
      time: z.string({ required_error: "Please select time" }).trim().refine(isValidTime, "Please select time"),
      seats: seatsField,
      tripCost: z
        .string({ required_error: "Please enter the trip cost" })
        .transform((v, ctx) => {
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
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["toLocation"], message: "Pickup and drop locations cannot be the same" });
      }
      if (isValidDate(v.date) && v.date < istDate(now)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["date"], message: "Date cannot be in the past" });
      } else if (isValidDate(v.date) && isValidTime(v.time) && istToInstant(v.date, v.time) <= now) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["time"], message: "This time has already passed. Please pick a later time." });
      }
    });
}

export type CreateRideInput = z.output<ReturnType<typeof createRideSchema>>;

/** The request-to-join / booking form. */

export const idSchema = z.string().trim().min(1).max(64);

/** Discover filters: every one a GET parameter. */
export const discoverFiltersSchema = z.object({
  q: z.string().trim().max(100).optional().catch(undefined).transform((v) => v || ""),
  maxCost: z.coerce.number().int().min(5).max(50).catch(50).default(50),
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
  // Issue 16: only rides whose seats are for women (women-only or comfort-locked).
  women: z
    .enum(["1", "on", "true"])
    .optional()
    .catch(undefined)
    .transform((v) => Boolean(v)),
});

// `women` optional so callers built before issue 16 still type-check (absent: no filter).
export type DiscoverFilters = Omit<z.output<typeof discoverFiltersSchema>, "women"> & { women?: boolean };

export const myRidesQuerySchema = z.object({
  tab: z.enum(["created", "booked", "manage"]).catch("created").default("created"),
  status: z.enum(["all", "pending", "accepted", "rejected"]).catch("all").default("all"),
  q: z.string().trim().max(100).optional().catch(undefined).transform((v) => v || ""),
});
