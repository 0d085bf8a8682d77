import { z } from "zod";
import { isCleanText, TEXT_INVALID } from "./text";

export const markPaidSchema = z.object({
  paymentId: z.string().min(1).max(64),
  method: z.enum(["upi", "cash"]).default("upi"),
});

export const confirmReceivedSchema = z.object({ paymentId: z.string().min(1).max(64) });

export const rateSchema = z.object({
  rateeId: z.string().min(1).max(64),
  stars: z.coerce
    .number({ invalid_type_error: "Please choose from 1 to 5 stars" })
    .int("Please choose from 1 to 5 stars")
    .min(1, "Please choose from 1 to 5 stars")
    .max(5, "Please choose from 1 to 5 stars"),
  comment: z
    .string()
    .trim()
    .max(500, "Comments can be at most 500 characters")
    .refine(isCleanText, TEXT_INVALID)
    .optional()
    .transform((v) => v || null),
});

/** Issue 16: the driver marks a rider of the completed ride as a no-show. */
export const noShowSchema = z.object({ riderId: z.string().min(1).max(64) });

/** The completion page's forms, one branch per button. */
export const completionActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("complete"), js: z.string().optional() }),
  z.object({ intent: z.literal("process-payments") }),
  markPaidSchema.extend({ intent: z.literal("mark-paid") }),
  confirmReceivedSchema.extend({ intent: z.literal("confirm-received") }),
  rateSchema.extend({ intent: z.literal("rate") }),
  noShowSchema.extend({ intent: z.literal("no-show") }),
  z.object({ intent: z.literal("dispute-no-show") }),
]);
