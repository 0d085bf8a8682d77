import { z } from "zod";
import { COMMUTE_LEGS, WEEKDAY_KEYS, COMMUTE_HORIZON_DAYS, weekdayMask } from "~/domain/commutes";
import { addDays, istDate, isValidDate, isValidTime } from "~/domain/time";
import { bookRideSchema, seatsField } from "./booking";
import { checkVias, createRideSchema, idSchema, type OptionalVias, type PlaceResolver } from "./rides";

// A commute's places, seats, cost, notes and community are a ride's: the fields (and their
// messages) come from the Create a New Ride schema, so changing how places are chosen
// there changes them here too.
const rideFields = (resolve?: PlaceResolver) =>
  createRideSchema(Date.now(), resolve).innerType().pick({
    fromLocation: true,
    toLocation: true,
    via1: true,
    via2: true,
    via3: true,
    seats: true,
    tripCost: true,
    notes: true,
    communityId: true,
  });

export const NO_WEEKDAYS = "Please choose at least one weekday";
export const END_BEFORE_START = "The end date cannot be before the start date";
export const RETURN_BEFORE_DEPARTURE = "The return must leave after the departure time";

/** Checkboxes named `weekdays` (one value per ticked day); none ticked is an error. */
export const weekdaysField = z
  .preprocess(
    (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
    z.array(z.enum(WEEKDAY_KEYS, { message: NO_WEEKDAYS })),
  )
  .refine((v) => v.length > 0, NO_WEEKDAYS)
  .transform((v) => weekdayMask(v));

const date = (message: string) => z.string({ required_error: message }).trim().refine(isValidDate, message);
const time = z.string({ required_error: "Please select time" }).trim().refine(isValidTime, "Please select time");

/** Publish a commute: a ride's fields plus weekdays, a departure time and a date range. */
export function createCommuteSchema(now = Date.now(), resolve?: PlaceResolver) {
  return rideFields(resolve)
    .extend({
      weekdays: weekdaysField,
      time,
      startDate: date("Please select a start date"),
      endDate: z
        .string()
        .trim()
        .optional()
        .transform((v) => v || null)
        .refine((v) => v === null || isValidDate(v), "Please select a valid end date"),
      // The time back from the destination (issue 35, item 4): a second, linked commute.
      returnTime: z
        .string()
        .trim()
        .optional()
        .transform((v) => v || null)
        .refine((v) => v === null || isValidTime(v), "Please select a valid return time"),
      // Issue 37: every day women-only (a woman driver's choice; a women-only community's rule applies anyway).
      womenOnly: z.literal("on").optional().transform(Boolean),
    })
    .superRefine((v, ctx) => {
      // Both legs run on the same day: the way back cannot leave before the way there.
      if (v.returnTime && isValidTime(v.time) && v.returnTime <= v.time) {
        ctx.addIssue({ code: "custom", path: ["returnTime"], message: RETURN_BEFORE_DEPARTURE });
      }
      if (v.fromLocation && v.fromLocation === v.toLocation) {
        ctx.addIssue({ code: "custom", path: ["toLocation"], message: "Pickup and drop locations cannot be the same" });
      }
      checkVias(v, ctx);
      if (isValidDate(v.startDate) && v.startDate < istDate(now)) {
        ctx.addIssue({ code: "custom", path: ["startDate"], message: "The start date cannot be in the past" });
      }
      if (v.endDate && isValidDate(v.startDate) && v.endDate < v.startDate) {
        ctx.addIssue({ code: "custom", path: ["endDate"], message: END_BEFORE_START });
      }
    });
}

export type CreateCommuteInput = OptionalVias<z.output<ReturnType<typeof createCommuteSchema>>>;

const redirectTo = z.string().optional();

export const MAX_PAUSE_DAYS = 90;
export const PAUSE_STARTS_TODAY = "A pause cannot start in the past";

/** The commute page's actions (driver and rider), one named intent each. */
export function commuteIntentSchema(now = Date.now()) {
  const today = istDate(now);
  const lastHorizonDay = addDays(today, COMMUTE_HORIZON_DAYS - 1);
  return z.discriminatedUnion("intent", [
    // A rider: one request per upcoming occurrence on the chosen weekdays.
    z.object({
      intent: z.literal("book-all"),
      weekdays: weekdaysField,
      // A commute with a return: which legs (ADR 0048); absent, the page's own leg.
      legs: z.enum(COMMUTE_LEGS, { message: "Please choose Morning only, Return only or Both" }).optional(),
      seats: seatsField,
      notes: rideFields().shape.notes,
      // Issue 36: where to be picked up every day (a place along the route; none: the start).
      pickup: bookRideSchema.shape.pickup,
      redirectTo,
    }),
    // The driver: accept every pending request of one rider on this commute.
    z.object({ intent: z.literal("accept-all"), riderId: idSchema, redirectTo }),
    z.object({ intent: z.literal("skip"), rideId: idSchema, reason: z.string().optional(), redirectTo }),
    z.object({ intent: z.literal("change-occurrence"), rideId: idSchema, time, seats: seatsField, redirectTo }),
    z.object({
      intent: z.literal("change-pattern"),
      fromDate: date("Please choose the first day of the change").refine(
        (d) => d >= today && d <= lastHorizonDay,
        `Choose a first day between today and ${COMMUTE_HORIZON_DAYS - 1} days from now`,
      ),
      time,
      seats: seatsField,
      tripCost: rideFields().shape.tripCost,
      redirectTo,
    }),
    // The driver declines a rider's standing booking (issue 35).
    z.object({ intent: z.literal("decline-booking"), riderId: idSchema, redirectTo }),
    // The rider's standing booking: skip one day (a single cancel), pause, resume, end.
    z.object({ intent: z.literal("skip-day"), requestId: idSchema, redirectTo }),
    // A union member cannot carry a refine: the model refuses an end before the start.
    z.object({
      intent: z.literal("pause"),
      from: date("Please choose the first day of the pause").refine((d) => d >= today, PAUSE_STARTS_TODAY),
      until: date("Please choose the last day of the pause").refine(
        (d) => d <= addDays(today, MAX_PAUSE_DAYS),
        `A pause can last up to ${MAX_PAUSE_DAYS} days`,
      ),
      redirectTo,
    }),
    z.object({ intent: z.literal("resume"), redirectTo }),
    z.object({ intent: z.literal("end-booking"), redirectTo }),
    // Issue 37: the driver keeps every day's open seats for women (the comfort lock, commute-wide).
    z.object({ intent: z.literal("women-lock-all"), redirectTo }),
    z.object({
      intent: z.literal("end"),
      lastDate: date("Please choose the last day of the commute").refine(
        (d) => d >= addDays(today, -1),
        "The last day cannot be in the past",
      ),
      redirectTo,
    }),
  ]);
}

export type CommuteIntent = z.output<ReturnType<typeof commuteIntentSchema>>;
