import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, type ShouldRevalidateFunction } from "@remix-run/react";
import { CompleteRideCard, CostBreakdownCard, RatePeople } from "~/components/completion";
import { NoShowPanel } from "~/components/reliability";
import { formatRupees } from "~/domain/money";
import { COMPLETE_EARLY_MS, TOO_EARLY_TO_COMPLETE } from "~/domain/rides";
import { formatDate, formatTime } from "~/domain/time";
import { upiPayLink } from "~/domain/upi";
import {
  completeRide,
  confirmPaymentReceived,
  getCompletionView,
  markPaymentPaid,
  rateParticipant,
  requestPayments,
} from "~/models/completion.server";
import { isModelError, NotFoundError } from "~/models/errors.server";
import { confirmReceivedSchema, markPaidSchema, noShowSchema, rateSchema } from "~/schemas/completion";
import { disputeNoShow, markNoShow } from "~/models/reliability.server";
import { requireUser } from "~/utils/auth.server";
import { publishChange } from "~/utils/fanout.server";
import { qrPath } from "~/utils/qr.server";
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
  let view;
  try {
    view = await getCompletionView(context, user.id, params.id ?? "");
  } catch (e) {
    if (e instanceof NotFoundError) return data({ notFound: true as const }, { status: 404 });
    if (isModelError(e)) throw data(e.message, { status: e.status });
    throw e;
  }
  // A rider who still owes their share sees a UPI link and its QR code (when the driver has a UPI ID).
  const mine = view.breakdown?.riders.find((r) => r.userId === user.id);
  let upi: { link: string; qr: { size: number; d: string } } | null = null;
  if (mine && mine.amountPaise > 0 && (mine.status === "pending" || mine.status === "requested") && view.ride.driverUpiId) {
    const link = upiPayLink({
      upiId: view.ride.driverUpiId,
      payeeName: view.ride.driverName ?? "LoopRide driver",
      amountPaise: mine.amountPaise,
      note: `LoopRide ${view.ride.fromLocation} to ${view.ride.toLocation} ${view.ride.date}`,
    });
    upi = { link, qr: qrPath(link) };
  }
  return { notFound: false as const, userId: user.id, ...view, upi, now: Date.now() };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const rideId = params.id ?? "";
  const here = `/rides/${encodeURIComponent(rideId)}/completion`;
  const formData = await request.formData();
  const intent = formData.get("intent");
  const fail = (message: string) => redirectWithToast(request, context.env, here, { title: "Error", description: message, type: "error" });
  try {
    switch (intent) {
      case "complete": {
        try {
          const completed = await completeRide(context, user.id, rideId);
          publishChange(context, completed.audience);
        } catch (e) {
          if (isModelError(e)) throw e;
          console.error(e);
          return fail("Failed to complete ride. Please try again.");
        }
        // With JavaScript the page waits 1.5 s on the success message, then shows the breakdown.
        if (formData.get("js") === "1") return { completed: true };
        return redirectWithToast(request, context.env, here, { title: "Ride Completed!", description: "Payments have been generated for every rider." });
      }
      case "process-payments": {
        const requested = await requestPayments(context, user.id, rideId);
        publishChange(context, requested.audience);
        return redirectWithToast(request, context.env, "/dashboard/rides", { title: "Payments Processed", description: "Every rider has been asked to settle their share." });
      }
      case "mark-paid": {
        const submission = parseWithZod(formData, { schema: markPaidSchema });
        if (submission.status !== "success") return data(submission.reply(), { status: 400 });
        const paid = await markPaymentPaid(context, user.id, submission.value.paymentId, submission.value.method);
        publishChange(context, paid.audience);
        return redirectWithToast(request, context.env, here, { title: "Marked as paid", description: "Your driver has been asked to confirm." });
      }
      case "confirm-received": {
        const submission = parseWithZod(formData, { schema: confirmReceivedSchema });
        if (submission.status !== "success") return data(submission.reply(), { status: 400 });
        const received = await confirmPaymentReceived(context, user.id, submission.value.paymentId);
        publishChange(context, received.audience);
        return redirectWithToast(request, context.env, here, { title: "Payment received", description: "Thanks for confirming." });
      }
      case "rate": {
        const submission = parseWithZod(formData, { schema: rateSchema });
        if (submission.status !== "success") return data(submission.reply(), { status: 400 });
        await rateParticipant(context, user.id, rideId, submission.value);
        return redirectWithToast(request, context.env, here, { title: "Thanks for your rating!" });
      }
      // Issue 16: no-shows (the reliability record).
      case "no-show": {
        const submission = parseWithZod(formData, { schema: noShowSchema });
        if (submission.status !== "success") return data(submission.reply(), { status: 400 });
        publishChange(context, (await markNoShow(context, user.id, rideId, submission.value.riderId)).audience);
        return redirectWithToast(request, context.env, here, { title: "Marked as a no-show", description: "The rider has been told and may dispute it once." });
      }
      case "dispute-no-show": {
        publishChange(context, (await disputeNoShow(context, user.id, rideId)).audience);
        return redirectWithToast(request, context.env, here, { title: "No-show disputed", description: "Your driver has been told." });
      }
      default:
        return data({ error: "Unknown action" }, { status: 400 });
    }
  } catch (e) {
    if (isModelError(e)) {
      if (e.status === 403) throw data(e.message, { status: 403 });
      if (e.status === 404) throw data(e.message, { status: 404 });
      return fail(e.message);
    }
    throw e;
  }
}

// The badge names the ride's real status: a cancelled ride is not "Active".
const STATUS_BADGE: Record<string, { label: string; className: string }> = {
  completed: { label: "Completed", className: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100" },
  cancelled: { label: "Cancelled", className: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100" },
  active: { label: "Active", className: "bg-blue-100 text-blue-900 dark:bg-blue-900 dark:text-blue-100" },
};

export default function RideCompletion() {
  const view = useLoaderData<typeof loader>();
  if (view.notFound) {
    return (
      <div className="mx-auto max-w-xl py-16 text-center">
        <h1 className="text-2xl font-bold">Ride Not Found</h1>
        <p className="mt-2 text-slate-700 dark:text-slate-300">This ride does not exist or has been removed.</p>
        <Link to="/dashboard/rides" className="mt-6 inline-block rounded-md bg-emerald-700 px-4 py-2 font-semibold text-white hover:bg-emerald-800">
          Back to Rides
        </Link>
      </div>
    );
  }
  const { ride, viewer, breakdown, canRate, rated, upi, userId } = view;
  const completed = ride.status === "completed";
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <Link to="/dashboard/rides" className="text-sm font-medium text-emerald-800 underline dark:text-emerald-300">Back to Rides</Link>
      <section aria-labelledby="summary" className="rounded-xl border border-slate-200 p-6 dark:border-slate-800">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h1 id="summary" className="text-2xl font-bold">{`${ride.fromLocation} → ${ride.toLocation}`}</h1>
          <span
            data-testid="ride-status"
            className={`rounded-full px-3 py-1 text-sm font-semibold ${STATUS_BADGE[ride.status]?.className ?? STATUS_BADGE.active.className}`}
          >
            {STATUS_BADGE[ride.status]?.label ?? ride.status}
          </span>
        </div>
        <dl className="mt-4 grid gap-4 sm:grid-cols-3">
          <div>
            <dt className="text-sm text-slate-700 dark:text-slate-300">Date and time</dt>
            <dd className="font-medium">{`${formatDate(ride.date)} at ${formatTime(ride.time)}`}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-700 dark:text-slate-300">Seats booked</dt>
            <dd className="font-medium">{`${ride.bookedSeats} of ${ride.seats}`}</dd>
          </div>
          <div>
            <dt className="text-sm text-slate-700 dark:text-slate-300">Total cost</dt>
            <dd className="font-medium">{formatRupees(ride.tripCostPaise)}</dd>
          </div>
        </dl>
      </section>

      {!completed && ride.status === "active" ? (
        viewer.isDriver ? (
          <CompleteRideCard
            blockedReason={
              ride.bookedSeats < 1
                ? "A ride needs at least one booked seat to be completed."
                : view.now < ride.departsAt - COMPLETE_EARLY_MS
                  ? TOO_EARLY_TO_COMPLETE
                  : null
            }
          />
        ) : (
          <p className="rounded-xl border border-blue-200 bg-blue-50 p-4 text-blue-950 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-100">
            Only the driver can complete this ride. You will be notified when it is completed and your share is ready.
          </p>
        )
      ) : null}
      {!completed && ride.status === "cancelled" ? (
        <p className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-950 dark:border-red-900 dark:bg-red-950 dark:text-red-100">This ride was cancelled.</p>
      ) : null}

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

      {completed ? <RatePeople people={canRate} rated={rated} /> : null}
      {completed && breakdown ? (
        <NoShowPanel isDriver={viewer.isDriver} viewerId={userId} marks={view.noShows} names={Object.fromEntries(breakdown.riders.map((r) => [r.userId, r.name]))} />
      ) : null}
    </div>
  );
}
