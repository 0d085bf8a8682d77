import { z } from "zod";
import { PICKUP_CODE_FORMAT } from "~/domain/trip";
import { idSchema } from "./rides";

// Issue 37: the trip-day forms on a ride's page (app/components/trip-day.tsx).

export const tripIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("start-trip") }),
  z.object({ intent: z.literal("end-trip") }),
  z.object({
    intent: z.literal("picked-up"),
    requestId: idSchema,
    code: z
      .string({ required_error: PICKUP_CODE_FORMAT })
      .trim()
      .regex(/^\d{4}$/, PICKUP_CODE_FORMAT),
  }),
  z.object({ intent: z.literal("dropped"), requestId: idSchema }),
  z.object({ intent: z.literal("share-trip") }),
  z.object({ intent: z.literal("revoke-share"), shareId: idSchema }),
  z.object({ intent: z.literal("alert-contact") }),
]);

export type TripIntent = z.infer<typeof tripIntentSchema>["intent"];
