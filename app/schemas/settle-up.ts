import { z } from "zod";

// The week statement's two buttons: the rider pays the week, the driver confirms it arrived.
// Every field is hidden or a choice: a malformed one is a forged form.
const count = z
  .string()
  .regex(/^\d{1,9}$/)
  .transform(Number);

export const settleUpActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("pay-week"),
    method: z.enum(["upi", "cash"]).default("upi"),
    // The unpaid total and rides the rider saw: the week is settled only if they still hold.
    expectedPaise: count,
    expectedRides: count,
  }),
  z.object({ intent: z.literal("confirm-week"), settlementId: z.string().min(1).max(64) }),
]);
