import type { SubmissionResult } from "@conform-to/react";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import {
  CompletionNotice,
  CostBreakdownCard,
  RatePeople,
  RideSummary,
  type RatingRefused,
} from "~/components/completion";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { NoShowPanel } from "~/components/no-show";
import { handleCompletionIntent } from "~/intents/completion.server";
import { getCompletionView } from "~/models/completion.server";
import { requireUser } from "~/utils/auth.server";
import { riderUpi } from "~/utils/completion.server";
import { NOT_FOUND, orRespond } from "~/utils/errors.server";

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
  return handleCompletionIntent(request, context, user.id, params.id ?? "", await request.formData());
}

/** A refused rating (the action's 400 reply), for the form it came from. */
function refusedRating(reply: unknown): RatingRefused | null {
  const r = reply as SubmissionResult<string[]> | undefined;
  const sent = r?.initialValue;
  if (!sent || sent.intent !== "rate" || typeof sent.rateeId !== "string" || !r?.error) return null;
  const messages = Object.values(r.error).flatMap((m) => m ?? []);
  return {
    rateeId: sent.rateeId,
    stars: String(sent.stars ?? "5"),
    comment: typeof sent.comment === "string" ? sent.comment : "",
    messages,
  };
}

export default function RideCompletion() {
  const { ride, viewer, breakdown, canRate, rated, upi, userId, now, noShows } = useLoaderData<typeof loader>();
  // Every other form here is buttons and choices; a rating's comment is typed, so its refusal
  // is shown beside it, with what was typed.
  const refused = refusedRating(useActionData<typeof action>());
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <Link to="/dashboard/rides" className="text-sm font-medium text-emerald-800 underline dark:text-emerald-300">
        Back to Rides
      </Link>
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
        <NoShowPanel
          isDriver={viewer.isDriver}
          viewerId={userId}
          marks={noShows}
          names={Object.fromEntries(breakdown.riders.map((r) => [r.userId, r.name]))}
        />
      ) : null}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
