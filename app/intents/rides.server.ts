import { z } from "zod";
import { cancelRequest, decideRequest } from "~/models/ride-requests.server";
import { cancelRide } from "~/models/ride-publishing.server";
import { lockRemainingSeatsToWomen } from "~/models/rides.server";
import { setRideSaved } from "~/models/saved-rides.server";
import { idSchema } from "~/schemas/rides";
import { safeRedirect } from "~/utils/auth.server";
import { sameSiteReferer } from "~/utils/back-link.server";
import type { Toast } from "~/utils/toast.server";
import { runIntent, type Ctx } from "./run.server";

// The ride actions several screens offer (ride detail, My Rides, discover, booking
// confirmation) as plain form posts with a named intent. Each screen says which intents
// it accepts; the models decide who may do what.
export const rideIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("accept"), requestId: idSchema, redirectTo: z.string().optional() }),
  z.object({ intent: z.literal("reject"), requestId: idSchema, redirectTo: z.string().optional() }),
  z.object({ intent: z.literal("cancel-request"), requestId: idSchema, redirectTo: z.string().optional() }),
  // The reason's rules (required within 2 hours, length, clean text) are the model's, so
  // a refusal is a clear toast rather than a bare 400.
  z.object({
    intent: z.literal("cancel-ride"),
    rideId: idSchema,
    reason: z.string().optional(),
    redirectTo: z.string().optional(),
  }),
  z.object({ intent: z.literal("save"), rideId: idSchema, redirectTo: z.string().optional() }),
  z.object({ intent: z.literal("unsave"), rideId: idSchema, redirectTo: z.string().optional() }),
  // Issue 16: the comfort lock (remaining seats to women once a woman has booked).
  z.object({ intent: z.literal("women-lock"), rideId: idSchema, redirectTo: z.string().optional() }),
]);

export type RideIntent = z.infer<typeof rideIntentSchema>["intent"];

const DONE: Record<RideIntent, Toast> = {
  accept: { title: "Request accepted successfully!" },
  reject: { title: "Request rejected successfully!" },
  "cancel-request": { title: "Request Cancelled" },
  "cancel-ride": { title: "Ride cancelled", description: "Everyone who had requested a seat has been notified." },
  save: { title: "Trip Saved" },
  unsave: { title: "Removed from saved trips" },
  "women-lock": {
    title: "Remaining seats locked to women",
    description: "Only women can request the seats left on this ride.",
  },
};

const FAILED: Record<RideIntent, string> = {
  accept: "Failed to accept request. Please try again.",
  reject: "Failed to reject request. Please try again.",
  "cancel-request": "Failed to cancel request",
  "cancel-ride": "Failed to cancel ride",
  save: "Failed to save trip",
  unsave: "Failed to save trip",
  "women-lock": "Could not lock the seats",
};

/**
 * Runs one ride intent from a form post and answers with a redirect and a toast (so it
 * works without JavaScript). Forbidden / not found become 403 / 404; a refused domain
 * rule (a full ride, a late cancellation) becomes an error toast and nothing changes.
 */
export function handleRideIntent(
  request: Request,
  context: Ctx,
  userId: string,
  formData: FormData,
  { allowed, fallback }: { allowed: RideIntent[]; fallback: string },
) {
  // Without a redirectTo (a list's Save), back to the page it was posted from.
  const to = (input: { redirectTo?: string }) => safeRedirect(input.redirectTo ?? sameSiteReferer(request), fallback);
  return runIntent(request, context, formData, {
    schema: rideIntentSchema,
    allowed,
    // The fields are hidden inputs: a malformed one is a forged form, not something to show.
    invalid: "unknown",
    page: (input) => ({ kind: "toast", to: to(input), title: FAILED[input.intent] }),
    handle: async (input) => {
      const done = { to: to(input), toast: DONE[input.intent] };
      switch (input.intent) {
        case "accept":
        case "reject": {
          const decision = input.intent === "accept" ? "accepted" : "rejected";
          return { ...done, audience: (await decideRequest(context, userId, input.requestId, decision)).audience };
        }
        case "cancel-request":
          return { ...done, audience: (await cancelRequest(context, userId, input.requestId)).audience };
        case "cancel-ride":
          return {
            ...done,
            audience: (await cancelRide(context, userId, input.rideId, { reason: input.reason })).audience,
          };
        case "women-lock":
          return { ...done, audience: (await lockRemainingSeatsToWomen(context, userId, input.rideId)).audience };
        case "save":
        case "unsave":
          await setRideSaved(context, userId, input.rideId, input.intent === "save");
          return done;
      }
    },
  });
}
