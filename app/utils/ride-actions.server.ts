import { publishChange } from "./fanout.server";
import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { z } from "zod";
import { cancelRequest, decideRequest } from "../models/ride-requests.server";
import { cancelRide } from "../models/ride-publishing.server";
import { lockRemainingSeatsToWomen } from "../models/rides.server";
import { setRideSaved } from "../models/saved-rides.server";
import { idSchema } from "../schemas/rides";
import { safeRedirect } from "./auth.server";
import { orToast, parseIntent } from "./errors.server";
import { redirectWithToast, type Toast } from "./toast.server";

// The ride actions several screens offer (ride detail, My Rides, discover, booking
// confirmation) as plain form posts with a named intent. Each screen says which intents
// it accepts; the models decide who may do what.
export const rideIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("accept"), requestId: idSchema, redirectTo: z.string().optional() }),
  z.object({ intent: z.literal("reject"), requestId: idSchema, redirectTo: z.string().optional() }),
  z.object({ intent: z.literal("cancel-request"), requestId: idSchema, redirectTo: z.string().optional() }),
  // The reason's rules (required within 2 hours, length, clean text) are the model's, so
  // a refusal is a clear toast rather than a bare 400.
  z.object({ intent: z.literal("cancel-ride"), rideId: idSchema, reason: z.string().optional(), redirectTo: z.string().optional() }),
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
  "women-lock": { title: "Remaining seats locked to women", description: "Only women can request the seats left on this ride." },
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
export async function handleRideIntent(
  request: Request,
  context: Pick<AppLoadContext, "db" | "env" | "ctx">,
  userId: string,
  formData: FormData,
  { allowed, fallback }: { allowed: RideIntent[]; fallback: string },
) {
  const { intent, submission } = parseIntent(formData, rideIntentSchema, allowed);
  // The fields are hidden inputs: a malformed one is a forged form, not something to show.
  if (submission.status !== "success") throw data("Unknown action", { status: 400 });
  const input = submission.value;
  const to = safeRedirect(input.redirectTo, fallback);
  return orToast(request, context.env, { to, title: FAILED[intent] }, async () => {
    switch (input.intent) {
      case "accept":
      case "reject": {
        const r = await decideRequest(context, userId, input.requestId, input.intent === "accept" ? "accepted" : "rejected");
        publishChange(context, r.audience);
        break;
      }
      case "cancel-request": {
        const r = await cancelRequest(context, userId, input.requestId);
        publishChange(context, r.audience);
        break;
      }
      case "cancel-ride": {
        const r = await cancelRide(context, userId, input.rideId, { reason: input.reason });
        publishChange(context, r.audience);
        break;
      }
      case "women-lock": {
        const r = await lockRemainingSeatsToWomen(context, userId, input.rideId);
        publishChange(context, r.audience);
        break;
      }
      case "save":
      case "unsave":
        await setRideSaved(context, userId, input.rideId, input.intent === "save");
        break;
    }
    return redirectWithToast(request, context.env, to, DONE[intent]);
  });
}
