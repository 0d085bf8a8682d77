import { kickOutbox } from "~/models/outbox/deliver.server";
import { alertEmergencyContact, markDropped, markPickedUp, setTripMark } from "~/models/trip.server";
import { createTripShare, revokeTripShare } from "~/models/trip-shares.server";
import { tripIntentSchema, type TripIntent } from "~/schemas/trip";
import { tripShareCookie } from "~/utils/trip-share.server";
import type { Toast } from "~/utils/toast.server";
import { runIntent, type Ctx } from "./run.server";

const DONE: Record<Exclude<TripIntent, "share-trip">, Toast> = {
  "start-trip": { title: "Trip started", description: "Your riders have been told you are on the way." },
  "picked-up": { title: "Rider picked up", description: "Their pickup code was right." },
  dropped: { title: "Rider dropped" },
  "end-trip": {
    title: "Trip ended",
    description: "Complete the ride to share the cost. A rider who never boarded can be marked as a no-show.",
  },
  "revoke-share": { title: "Link revoked", description: "It no longer shows your trip." },
  "alert-contact": {
    title: "Emergency contact alerted",
    description: "We are e-mailing them a link to follow your trip. In an emergency, call 112.",
  },
};

/**
 * The trip-day posts of a ride's page (issue 37): the driver's status buttons, the share
 * link and the alert to the emergency contact. A redirect and a toast each; a refused rule
 * (not the day, a wrong code) is an error toast and changes nothing; a stranger gets a 403.
 */
export function handleTripIntent(request: Request, context: Ctx, userId: string, rideId: string, form: FormData) {
  const here = `/rides/${encodeURIComponent(rideId)}`;
  const trip = `${here}#trip`;
  return runIntent(request, context, form, {
    schema: tripIntentSchema,
    // A bad pickup code is typed by a person: say what is wrong; other fields are hidden.
    invalid: (intent, messages) =>
      intent === "picked-up"
        ? { to: trip, toast: { title: "Pickup code refused", description: messages.join(" ") } }
        : { to: trip, toast: { title: "Unknown action" } },
    page: (input) => ({
      kind: "toast",
      to: trip,
      title: input.intent === "picked-up" ? "Pickup code refused" : "Could not update the trip",
    }),
    handle: async (input) => {
      switch (input.intent) {
        case "start-trip":
          return { to: trip, toast: DONE[input.intent], ...(await setTripMark(context, userId, rideId, "start")) };
        case "end-trip": {
          const { audience } = await setTripMark(context, userId, rideId, "end");
          return { to: `${here}/completion`, toast: DONE[input.intent], audience };
        }
        case "picked-up":
          return {
            to: trip,
            toast: DONE[input.intent],
            audience: (await markPickedUp(context, userId, { rideId, requestId: input.requestId, code: input.code }))
              .audience,
          };
        case "dropped":
          return {
            to: trip,
            toast: DONE[input.intent],
            audience: (await markDropped(context, userId, { rideId, requestId: input.requestId })).audience,
          };
        case "share-trip": {
          const { id, token } = await createTripShare(context, userId, rideId);
          const headers = {
            "Set-Cookie": await tripShareCookie(request, context.env).serialize({ shareId: id, token }),
          };
          const toast = { title: "Trip link ready", description: "Send it now: it is shown here for 30 minutes." };
          return { to: `${here}#share-trip`, toast, headers };
        }
        case "revoke-share":
          await revokeTripShare(context, userId, input.shareId);
          return { to: `${here}#share-trip`, toast: DONE[input.intent] };
        case "alert-contact":
          await alertEmergencyContact(context, userId, rideId);
          kickOutbox(context);
          return { to: trip, toast: DONE[input.intent] };
      }
    },
  });
}
