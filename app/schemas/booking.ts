import { z } from "zod";
import { MAX_SEATS, MIN_SEATS, NOTES_MAX } from "~/domain/ride-limits";
import { isCleanText, TEXT_INVALID } from "./text";

// Seats and notes, shared by the booking form and the Create a New Ride form. Kept apart from
// rides.ts, which needs the place list, so the booking page's initial JS stays small.
export const seatsField = z
  .string({ required_error: "Please select number of seats" })
  .trim()
  .regex(/^-?\d+$/, "Please select number of seats")
  .transform(Number)
  .pipe(
    z
      .number()
      .int()
      .min(MIN_SEATS, "Number of seats must be between 1 and 6")
      .max(MAX_SEATS, "Number of seats must be between 1 and 6"),
  );

export const notesField = z
  .string()
  .trim()
  .max(NOTES_MAX, `Notes must be at most ${NOTES_MAX} characters`)
  .refine(isCleanText, TEXT_INVALID)
  .optional()
  .transform((v) => v || null);

export const bookRideSchema = z.object({
  seats: seatsField,
  notes: notesField,
  // Issue 36: a place along the route to be picked up at (a name of the place list); empty: the start.
  pickup: z
    .string()
    .trim()
    .max(100, "Please choose a pickup point along the route")
    .optional()
    .transform((v) => v || null),
});
