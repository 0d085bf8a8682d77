import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { PrintButton } from "~/components/print-button";
import { seatsLabel } from "~/domain/cost-split";
import { formatRupees } from "~/domain/money";
import { formatDate, formatDateTimeShort, formatTime } from "~/domain/time";
import { getCompletionView } from "~/models/completion.server";
import { requireUser } from "~/utils/auth.server";
import { orRespond } from "~/utils/errors.server";

export const meta: MetaFunction = () => [{ title: "Ride receipt | LoopRide" }];

const STATUS: Record<string, string> = {
  pending: "Not paid yet",
  requested: "Payment requested",
  paid: "Marked paid by rider",
  received: "Received by driver",
};

/** A printable receipt for a completed ride, or (?rider=) for one rider's share. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const view = await orRespond(getCompletionView(context, user.id, params.id ?? ""));
  if (!view.breakdown) throw data("A receipt is available once the ride is completed.", { status: 409 });
  const only = new URL(request.url).searchParams.get("rider");
  // One rider's share: that rider, or the driver.
  if (only && only !== user.id && !view.viewer.isDriver)
    throw data("You can only see your own share.", { status: 403 });
  const riders = only ? view.breakdown.riders.filter((r) => r.userId === only) : view.breakdown.riders;
  // Only what the receipt shows is sent to the page (another rider's share stays private).
  const { riders: _all, ...totals } = view.breakdown;
  const { driverUpiId: _upi, ...ride } = view.ride;
  return { ride, breakdown: totals, riders, single: Boolean(only), issuedAt: Date.now() };
}

export default function Receipt() {
  const { ride, breakdown, riders, single, issuedAt } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-2xl bg-white p-8 text-slate-900 print:p-0">
      <div className="flex items-start justify-between">
        <div>
          <p className="text-2xl font-extrabold text-emerald-800">LoopRide</p>
          <p className="text-sm text-slate-700">Community carpooling, Bengaluru</p>
        </div>
        <div className="text-right text-sm">
          <h1 className="text-lg font-bold">{single ? "Rider receipt" : "Ride receipt"}</h1>
          <p>{`Issued ${formatDateTimeShort(issuedAt)}`}</p>
          <p className="font-mono text-xs">{`Ride ${ride.id}`}</p>
        </div>
      </div>
      <section className="mt-6 border-t border-slate-300 pt-4">
        <p className="text-lg font-semibold">{`${ride.fromLocation} → ${ride.toLocation}`}</p>
        <p>{`${formatDate(ride.date)} at ${formatTime(ride.time)}`}</p>
        <p>{`Driver: ${ride.driverName ?? "Unknown Driver"}`}</p>
        <p>{`Trip cost ${formatRupees(breakdown.totalCostPaise)} · ${ride.seats} seats offered · cost per seat ${formatRupees(breakdown.costPerSeatPaise)}`}</p>
        <p>
          {breakdown.mode === "split"
            ? `Fuel cost split equally within ${breakdown.community?.name ?? "the community"}`
            : "Priced per seat booked"}
        </p>
      </section>
      <table className="mt-6 w-full border-collapse text-sm">
        <caption className="sr-only">Participants and amounts</caption>
        <thead>
          <tr className="border-b border-slate-300 text-left">
            <th className="py-2">Participant</th>
            <th className="py-2">Seats</th>
            <th className="py-2 text-right">Amount</th>
            <th className="py-2 text-right">Settlement</th>
          </tr>
        </thead>
        <tbody>
          {!single ? (
            <tr className="border-b border-slate-200">
              <td className="py-2">{`${ride.driverName ?? "Unknown Driver"} (driver)`}</td>
              <td className="py-2">—</td>
              <td className="py-2 text-right">
                {breakdown.driver.amountPaise === null ? "Free" : formatRupees(breakdown.driver.amountPaise)}
              </td>
              <td className="py-2 text-right">{breakdown.driver.label}</td>
            </tr>
          ) : null}
          {riders.map((r) => (
            <tr key={r.userId} className="border-b border-slate-200">
              <td className="py-2">{r.name ?? "Unknown User"}</td>
              <td className="py-2">{seatsLabel(r.seats)}</td>
              <td className="py-2 text-right">{formatRupees(r.amountPaise)}</td>
              <td className="py-2 text-right">{`${STATUS[r.status]}${r.method ? ` (${r.method === "upi" ? "UPI" : "cash"})` : ""}`}</td>
            </tr>
          ))}
        </tbody>
        {!single ? (
          // The lines add up to the trip cost: what the riders pay plus what the driver covers
          // (their own share, the unbooked seats and the paise of rounding).
          <tfoot>
            <tr className="border-b border-slate-200">
              <td className="py-2" colSpan={2}>
                Paid by riders
              </td>
              <td className="py-2 text-right" data-testid="receipt-collected">
                {formatRupees(breakdown.collectedPaise)}
              </td>
              <td />
            </tr>
            <tr className="border-b border-slate-200">
              <td className="py-2" colSpan={2}>
                Covered by the driver
              </td>
              <td className="py-2 text-right" data-testid="receipt-driver-covers">
                {formatRupees(breakdown.driverCoversPaise)}
              </td>
              <td />
            </tr>
            <tr className="font-semibold">
              <td className="py-2" colSpan={2}>
                Trip cost
              </td>
              <td className="py-2 text-right">{formatRupees(breakdown.totalCostPaise)}</td>
              <td />
            </tr>
          </tfoot>
        ) : null}
      </table>
      <p className="mt-6 text-xs text-slate-700">
        LoopRide only connects community members and does not provide transport or hold money. Payments are settled
        between members.
      </p>
      <div className="no-print mt-8 flex gap-3">
        <PrintButton />
        <Link to={`/rides/${ride.id}/completion`} className="rounded-md border border-slate-400 px-4 py-2 font-medium">
          Back to ride
        </Link>
      </div>
    </main>
  );
}
