import type { SubmissionResult } from "@conform-to/react";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { CompletionNotice, CostBreakdownCard, RatePeople, RideSummary, type RatingRefused } from "~/components/completion";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { NoShowPanel } from "~/components/no-show";
import {
  completeRide,
  confirmPaymentReceived,
  getCompletionView,
  markPaymentPaid,
  rateParticipant,
  requestPayments,
} from "~/models/completion.server";
import { completionActionSchema } from "~/schemas/completion";
import { disputeNoShow, markNoShow } from "~/models/reliability.server";
import { requireUser } from "~/utils/auth.server";
import { riderUpi } from "~/utils/completion.server";
import { NOT_FOUND, orRespond, orToast, parseIntent } from "~/utils/errors.server";
import { publishChange } from "~/utils/fanout.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Ride completion | LoopRide" }];

// With JavaScript, completing shows 'Ride Completed!' for 1.5 s before the page reloads
// its data (CompleteRideCard revalidates itself), so that one submission does not
// trigger Remix's automatic revalidation.
export const shouldRevalidate: ShouldRevalidateFunction = ({ formData, defaultShouldRevalidate }) => {
  if (formData?.get("intent") === "complete" && formData.get("js") === "1") return false;
  return defaultShouldRevalidate;
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const view = await orRespond(getCompletionView(context, user.id, params.id ?? ""), NOT_FOUND.completion);
  return { userId: user.id, ...view, upi: riderUpi(view, user.id), now: Date.now() };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const rideId = params.id ?? "";
  const here = `/rides/${encodeURIComponent(rideId)}/completion`;
  const { intent, submission } = parseIntent(await request.formData(), completionActionSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const input = submission.value;
  // The spec's toast when completing fails for a reason other than a refused rule.
  const unexpected = intent === "complete" ? { title: "Error", description: "Failed to complete ride. Please try again." } : undefined;
  return orToast(request, context.env, { to: here, unexpected }, async () => {
    switch (input.intent) {
      case "complete": {
        const completed = await completeRide(context, user.id, rideId);
        publishChange(context, completed.audience);
        // With JavaScript the page waits 1.5 s on the success message, then shows the breakdown.
        if (input.js === "1") return { completed: true };
        return redirectWithToast(request, context.env, here, { title: "Ride Completed!", description: "Payments have been generated for every rider." });
      }
      case "process-payments": {
        const requested = await requestPayments(context, user.id, rideId);
        publishChange(context, requested.audience);
        return redirectWithToast(request, context.env, "/dashboard/rides", { title: "Payments Processed", description: "Every rider has been asked to settle their share." });
      }
      case "mark-paid": {
        const paid = await markPaymentPaid(context, user.id, input.paymentId, input.method);
        publishChange(context, paid.audience);
        return redirectWithToast(request, context.env, here, { title: "Marked as paid", description: "Your driver has been asked to confirm." });
      }
      case "confirm-received": {
        const received = await confirmPaymentReceived(context, user.id, input.paymentId);
        publishChange(context, received.audience);
        return redirectWithToast(request, context.env, here, { title: "Payment received", description: "Thanks for confirming." });
      }
      case "rate": {
        const { rateeId, stars, comment } = input;
        await rateParticipant(context, user.id, rideId, { rateeId, stars, comment });
        return redirectWithToast(request, context.env, here, { title: "Thanks for your rating!" });
      }
      // Issue 16: no-shows (the reliability record).
      case "no-show": {
        publishChange(context, (await markNoShow(context, user.id, rideId, input.riderId)).audience);
        return redirectWithToast(request, context.env, here, { title: "Marked as a no-show", description: "The rider has been told and may dispute it once." });
      }
      case "dispute-no-show": {
        publishChange(context, (await disputeNoShow(context, user.id, rideId)).audience);
        return redirectWithToast(request, context.env, here, { title: "No-show disputed", description: "Your driver has been told." });
      }
    }
  });
}

/** A refused rating (the action's 400 reply), for the form it came from. */
function refusedRating(reply: unknown): RatingRefused | null {
  const r = reply as SubmissionResult<string[]> | undefined;
  const sent = r?.initialValue;
  if (!sent || sent.intent !== "rate" || typeof sent.rateeId !== "string" || !r?.error) return null;
  const messages = Object.values(r.error).flatMap((m) => m ?? []);
  return { rateeId: sent.rateeId, stars: String(sent.stars ?? "5"), comment: typeof sent.comment === "string" ? sent.comment : "", messages };
}

export default function RideCompletion() {
  const { ride, viewer, breakdown, canRate, rated, upi, userId, now, noShows } = useLoaderData<typeof loader>();
  // Every other form here is buttons and choices; a rating's comment is typed, so its refusal
  // is shown beside it, with what was typed.
  const refused = refusedRating(useActionData<typeof action>());
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <Link to="/dashboard/rides" className="text-sm font-medium text-emerald-800 underline dark:text-emerald-300">Back to Rides</Link>
      <RideSummary ride={ride} />
      <CompletionNotice ride={ride} isDriver={viewer.isDriver} now={now} />
      {breakdown ? (
        <CostBreakdownCard
          rideId={ride.id}
          breakdown={breakdown}
          driver={{ userId: ride.driverId, name: ride.driverName }}
          viewerId={userId}
          isDriver={viewer.isDriver}
          paymentsRequested={ride.paymentsRequestedAt !== null}
          upi={upi}
        />
      ) : null}
      {ride.status === "completed" ? <RatePeople people={canRate} rated={rated} refused={refused} /> : null}
      {ride.status === "completed" && breakdown ? (
        <NoShowPanel isDriver={viewer.isDriver} viewerId={userId} marks={noShows} names={Object.fromEntries(breakdown.riders.map((r) => [r.userId, r.name]))} />
      ) : null}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
