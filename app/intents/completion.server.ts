import {
  completeRide,
  confirmPaymentReceived,
  markPaymentPaid,
  rateParticipant,
  requestPayments,
} from "~/models/completion.server";
import { disputeNoShow, markNoShow } from "~/models/reliability.server";
import { completionActionSchema } from "~/schemas/completion";
import { runIntent, type Ctx } from "./run.server";

const COMPLETE_FAILED = { title: "Error", description: "Failed to complete ride. Please try again." };

/**
 * The completion page's posts (complete, payments, ratings, no-shows): a redirect and a
 * toast each; a refused rule is an error toast on the page, a bad rating the form's reply.
 */
export function handleCompletionIntent(
  request: Request,
  context: Ctx,
  userId: string,
  rideId: string,
  formData: FormData,
) {
  const here = `/rides/${encodeURIComponent(rideId)}/completion`;
  return runIntent(request, context, formData, {
    schema: completionActionSchema,
    invalid: "reply",
    // The spec's toast when completing fails for a reason other than a refused rule.
    page: (input) => ({
      kind: "toast",
      to: here,
      unexpected: input.intent === "complete" ? COMPLETE_FAILED : undefined,
    }),
    handle: async (input) => {
      switch (input.intent) {
        case "complete": {
          const { audience } = await completeRide(context, userId, rideId);
          // With JavaScript the page waits 1.5 s on the success message, then shows the breakdown.
          if (input.js === "1") return { answer: { completed: true }, audience };
          const toast = { title: "Ride Completed!", description: "Payments have been generated for every rider." };
          return { to: here, toast, audience };
        }
        case "process-payments": {
          const { audience } = await requestPayments(context, userId, rideId);
          const toast = {
            title: "Payments Processed",
            description: "Every rider has been asked to settle their share.",
          };
          return { to: "/dashboard/rides", toast, audience };
        }
        case "mark-paid": {
          const { audience } = await markPaymentPaid(context, userId, input.paymentId, input.method);
          return {
            to: here,
            toast: { title: "Marked as paid", description: "Your driver has been asked to confirm." },
            audience,
          };
        }
        case "confirm-received": {
          const { audience } = await confirmPaymentReceived(context, userId, input.paymentId);
          return { to: here, toast: { title: "Payment received", description: "Thanks for confirming." }, audience };
        }
        case "rate": {
          const { rateeId, stars, comment } = input;
          await rateParticipant(context, userId, rideId, { rateeId, stars, comment });
          return { to: here, toast: { title: "Thanks for your rating!" } };
        }
        // Issue 16: no-shows (the reliability record).
        case "no-show": {
          const { audience } = await markNoShow(context, userId, rideId, input.riderId);
          const toast = {
            title: "Marked as a no-show",
            description: "The rider has been told and may dispute it once.",
          };
          return { to: here, toast, audience };
        }
        case "dispute-no-show": {
          const { audience } = await disputeNoShow(context, userId, rideId);
          return {
            to: here,
            toast: { title: "No-show disputed", description: "Your driver has been told." },
            audience,
          };
        }
      }
    },
  });
}
