import { Form, Link, useFetcher, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { seatsLabel } from "~/domain/cost-split";
import { formatRupees } from "~/domain/money";
import { COMPLETE_EARLY_MS, TOO_EARLY_TO_COMPLETE } from "~/domain/rides";
import { formatDate, formatTime } from "~/domain/time";
import { inputClass } from "./forms";
import { showToast } from "./toast";
import { buttonClass, panelClass, smallPrimaryClass } from "./styles";
import { UpiPay } from "./upi-pay";

const TYPE_ICON: Record<string, string> = { residential: "🏘️", workplace: "🏢", interest: "⭐" };

/** The driver's Complete Ride card. With JS: a fetcher, 'Completing...', then 1.5 s on the success message. */
export function CompleteRideCard({ blockedReason }: { blockedReason: string | null }) {
  const canComplete = blockedReason === null;
  const fetcher = useFetcher<{ completed?: boolean }>();
  const revalidator = useRevalidator();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const done = fetcher.data?.completed === true;
  useEffect(() => {
    if (!done) return;
    showToast({ title: "Ride Completed!", description: "Payments have been generated for every rider." });
    const t = setTimeout(() => revalidator.revalidate(), 1500);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [done]);
  const busy = fetcher.state !== "idle";
  return (
    <section
      aria-labelledby="complete-ride"
      className="rounded-xl border border-amber-300 bg-amber-50 p-6 dark:border-amber-800 dark:bg-amber-950"
    >
      <h2 id="complete-ride" className="text-lg font-semibold">
        Complete Ride
      </h2>
      <p className="mt-2 text-sm text-slate-800 dark:text-slate-200">
        Once the ride is over, complete it. Costs and payments are calculated automatically from community membership
        and the splitting rules, and every rider is notified. This cannot be undone.
      </p>
      {!canComplete ? (
        <p className="mt-2 text-sm font-medium text-amber-900 dark:text-amber-200" data-testid="complete-blocked">
          {blockedReason}
        </p>
      ) : null}
      <fetcher.Form method="post" className="mt-4">
        <input type="hidden" name="intent" value="complete" />
        {hydrated ? <input type="hidden" name="js" value="1" /> : null}
        <button type="submit" disabled={!canComplete || busy || done} className={buttonClass}>
          {busy ? "Completing..." : done ? "Completed" : "Complete Ride"}
        </button>
      </fetcher.Form>
    </section>
  );
}

type Line = {
  userId: string;
  name: string | null;
  seats: number;
  sameCommunity: boolean;
  amountPaise: number;
  explanation: string;
  paymentId: string;
  status: "pending" | "requested" | "paid" | "received";
  method: "upi" | "cash" | null;
};

type Breakdown = {
  mode: "split" | "standard" | "free";
  totalCostPaise: number;
  costPerSeatPaise: number;
  totalParticipants: number;
  driver: { label: string; amountPaise: number | null };
  riders: Line[];
  collectedPaise: number;
  community: { name: string; type: string } | null;
};

const STATUS_LABEL: Record<Line["status"], string> = {
  pending: "Not paid yet",
  requested: "Payment requested",
  paid: "Marked paid",
  received: "Received",
};

export function CostBreakdownCard({
  rideId,
  breakdown: b,
  driver,
  viewerId,
  isDriver,
  paymentsRequested,
  upi,
}: {
  rideId: string;
  breakdown: Breakdown;
  driver: { userId: string; name: string | null };
  viewerId: string;
  isDriver: boolean;
  paymentsRequested: boolean;
  upi: { link: string; qr: { size: number; d: string } } | null;
}) {
  const split = b.mode === "split";
  return (
    <section aria-labelledby="breakdown" className={panelClass}>
      <div className="flex flex-wrap items-center gap-2">
        <h2 id="breakdown" className="text-lg font-semibold">
          Cost breakdown
        </h2>
        {b.mode === "free" ? (
          <span
            data-testid="split-badge"
            className="rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100"
          >
            Free ride
          </span>
        ) : split ? (
          <span
            data-testid="split-badge"
            className="rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100"
          >
            Fuel Cost Split Applied
          </span>
        ) : (
          <span
            data-testid="split-badge"
            className="rounded-full bg-slate-200 px-3 py-1 text-sm font-semibold text-slate-900 dark:bg-slate-800 dark:text-slate-100"
          >
            Cost Per Seat
          </span>
        )}
        {b.community ? (
          <span className="rounded-full border border-slate-300 px-3 py-1 text-sm dark:border-slate-700">
            <span aria-hidden="true">{TYPE_ICON[b.community.type] ?? "👥"} </span>
            {b.community.name}
            <span className="sr-only"> ({b.community.type} community)</span>
          </span>
        ) : null}
      </div>

      <dl className="mt-4 grid gap-4 sm:grid-cols-3">
        <div className="rounded-lg bg-slate-50 p-4 dark:bg-slate-900">
          <dt className="text-sm text-slate-700 dark:text-slate-300">Total ride cost</dt>
          <dd className="text-xl font-bold">{formatRupees(b.totalCostPaise)}</dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-4 dark:bg-slate-900">
          <dt className="text-sm text-slate-700 dark:text-slate-300">Cost per seat</dt>
          <dd className="text-xl font-bold">{formatRupees(b.costPerSeatPaise)}</dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-4 dark:bg-slate-900">
          <dt className="text-sm text-slate-700 dark:text-slate-300">Total participants</dt>
          <dd className="text-xl font-bold">{b.totalParticipants}</dd>
        </div>
      </dl>

      <details className="mt-4 rounded-lg border border-slate-200 p-4 dark:border-slate-800">
        <summary className="cursor-pointer font-medium">How costs are calculated</summary>
        {split ? (
          <p className="mt-2 text-sm text-slate-800 dark:text-slate-200">
            Everyone on this ride is a member of the same community, so the total is split equally: each participant,
            the driver included, pays the total divided by the number of participants, but no rider pays more than the
            price they were shown when booking. Amounts are rounded down to the paisa for riders; the driver covers what
            is left over.
          </p>
        ) : (
          <p className="mt-2 text-sm text-slate-800 dark:text-slate-200">
            Pricing is per seat booked: each rider pays the seats they booked times the cost per seat (the trip cost
            divided by the seats offered), and the driver pays nothing extra. Tip: when the driver and every rider join
            the same community, the fuel cost is split equally among everyone instead.
          </p>
        )}
      </details>

      <ul className="mt-4 divide-y divide-slate-200 dark:divide-slate-800" data-testid="participants">
        <li className="flex flex-wrap items-center justify-between gap-2 py-3">
          <div>
            <p className="font-medium">
              {driver.name ?? "Unknown Driver"}{" "}
              <span className="text-sm font-normal text-slate-700 dark:text-slate-300">(driver)</span>
            </p>
            <p className="text-sm text-slate-700 dark:text-slate-300">{b.driver.label}</p>
          </div>
          <p className="font-semibold">{b.driver.amountPaise === null ? "Free" : formatRupees(b.driver.amountPaise)}</p>
        </li>
        {b.riders.map((r) => (
          <li key={r.userId} className="py-3" data-testid="participant">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <div>
                <p className="font-medium">
                  {r.name ?? "Unknown User"}{" "}
                  <span className="text-sm font-normal text-slate-700 dark:text-slate-300">{seatsLabel(r.seats)}</span>
                  {r.sameCommunity ? (
                    <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100">
                      Same community
                    </span>
                  ) : null}
                </p>
                <p className="text-sm text-slate-700 dark:text-slate-300">{r.explanation}</p>
              </div>
              <div className="text-right">
                <p className="font-semibold">{formatRupees(r.amountPaise)}</p>
                <p className="text-xs text-slate-700 dark:text-slate-300" data-testid="payment-status">
                  {STATUS_LABEL[r.status]}
                  {r.method ? ` (${r.method === "upi" ? "UPI" : "cash"})` : ""}
                </p>
              </div>
            </div>
            {r.userId === viewerId && (r.status === "pending" || r.status === "requested") ? (
              <div className="mt-3 rounded-lg bg-slate-50 p-3 dark:bg-slate-900">
                {upi ? (
                  <UpiPay upi={upi} amountPaise={r.amountPaise} />
                ) : (
                  <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">
                    Pay your driver by UPI or cash, then mark it paid.
                  </p>
                )}
                <Form method="post" className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="intent" value="mark-paid" />
                  <input type="hidden" name="paymentId" value={r.paymentId} />
                  <div>
                    <label htmlFor={`method-${r.paymentId}`} className="block text-xs font-medium">
                      Paid by
                    </label>
                    <select id={`method-${r.paymentId}`} name="method" className={inputClass} defaultValue="upi">
                      <option value="upi">UPI</option>
                      <option value="cash">Cash</option>
                    </select>
                  </div>
                  <button type="submit" className={smallPrimaryClass}>
                    Paid
                  </button>
                </Form>
              </div>
            ) : null}
            {isDriver && r.status !== "received" ? (
              <Form method="post" className="mt-2">
                <input type="hidden" name="intent" value="confirm-received" />
                <input type="hidden" name="paymentId" value={r.paymentId} />
                <button
                  type="submit"
                  className="rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-900"
                >
                  Received
                  <span className="sr-only"> from {r.name ?? "this rider"}</span>
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>

      <div className="mt-4 rounded-lg border border-emerald-300 bg-emerald-50 p-4 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-50">
        {b.mode === "free" ? (
          <p className="font-semibold">Free ride: the community's rule, nobody owes anything.</p>
        ) : (
          <>
            <p className="font-semibold">Payment Ready</p>
            <p className="text-sm">
              {formatRupees(b.collectedPaise)} to collect from {b.riders.length}{" "}
              {b.riders.length === 1 ? "rider" : "riders"}. LoopRide never holds money: riders pay the driver directly
              by UPI or cash.
            </p>
          </>
        )}
      </div>
      <div className="mt-4 flex flex-wrap gap-3">
        {isDriver && b.mode !== "free" ? (
          <Form method="post">
            <input type="hidden" name="intent" value="process-payments" />
            <button type="submit" className={buttonClass}>
              {paymentsRequested ? "Remind riders again" : "Process Payments"}
            </button>
          </Form>
        ) : null}
        <Link
          to={`/rides/${rideId}/receipt`}
          reloadDocument
          className="rounded-md border border-slate-400 px-4 py-2 font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-900"
        >
          Download Receipt
        </Link>
      </div>
    </section>
  );
}

/** A rating the server refused (400): what was sent, so it is not lost, and why. */
export type RatingRefused = { rateeId: string; stars: string; comment: string; messages: string[] };

export function RatePeople({
  people,
  rated,
  refused,
}: {
  people: { userId: string; name: string | null }[];
  rated: { userId: string; stars: number }[];
  refused?: RatingRefused | null;
}) {
  if (people.length === 0 && rated.length === 0) return null;
  return (
    <section aria-labelledby="ratings" className={panelClass}>
      <h2 id="ratings" className="text-lg font-semibold">
        Rate your co-passengers
      </h2>
      {rated.length ? (
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{`You have rated ${rated.length} ${rated.length === 1 ? "person" : "people"} on this ride.`}</p>
      ) : null}
      <ul className="mt-3 space-y-4">
        {people.map((p) => {
          const mine = refused?.rateeId === p.userId ? refused : null;
          return (
            <li key={p.userId}>
              <Form method="post" className="flex flex-wrap items-end gap-3">
                <input type="hidden" name="intent" value="rate" />
                <input type="hidden" name="rateeId" value={p.userId} />
                <p className="min-w-40 font-medium">{p.name ?? "Unknown User"}</p>
                <div>
                  <label htmlFor={`stars-${p.userId}`} className="block text-xs font-medium">
                    Stars
                  </label>
                  <select
                    id={`stars-${p.userId}`}
                    name="stars"
                    defaultValue={mine?.stars ?? "5"}
                    className={inputClass}
                  >
                    {[5, 4, 3, 2, 1].map((n) => (
                      <option key={n} value={n}>{`${n} ${n === 1 ? "star" : "stars"}`}</option>
                    ))}
                  </select>
                </div>
                <div className="flex-1">
                  <label htmlFor={`comment-${p.userId}`} className="block text-xs font-medium">
                    Comment (optional)
                  </label>
                  <input
                    id={`comment-${p.userId}`}
                    name="comment"
                    maxLength={500}
                    defaultValue={mine?.comment}
                    aria-invalid={mine ? true : undefined}
                    aria-describedby={mine ? `rating-error-${p.userId}` : undefined}
                    className={inputClass}
                  />
                </div>
                <button type="submit" className={smallPrimaryClass}>
                  Rate<span className="sr-only"> {p.name ?? "this person"}</span>
                </button>
              </Form>
              {mine ? (
                <p id={`rating-error-${p.userId}`} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-300">
                  {`Your rating was not saved: ${mine.messages.join(" ")}`}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

// The badge names the ride's real status: a cancelled ride is not "Active".
const STATUS_BADGE: Record<string, { label: string; className: string }> = {
  completed: {
    label: "Completed",
    className: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100",
  },
  cancelled: { label: "Cancelled", className: "bg-red-100 text-red-900 dark:bg-red-900 dark:text-red-100" },
  active: { label: "Active", className: "bg-blue-100 text-blue-900 dark:bg-blue-900 dark:text-blue-100" },
};

type SummaryRide = {
  fromLocation: string;
  toLocation: string;
  status: string;
  date: string;
  time: string;
  bookedSeats: number;
  seats: number;
  tripCostPaise: number;
};

/** The completion page's summary: route, status badge, date and time, seats, total cost. */
export function RideSummary({ ride }: { ride: SummaryRide }) {
  return (
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
  );
}

/** Before completion: the driver's Complete Ride card, a rider's notice, or that the ride was cancelled. */
export function CompletionNotice({
  ride,
  isDriver,
  now,
}: {
  ride: { status: string; bookedSeats: number; departsAt: number };
  isDriver: boolean;
  now: number;
}) {
  if (ride.status === "cancelled") {
    return (
      <p className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-950 dark:border-red-900 dark:bg-red-950 dark:text-red-100">
        This ride was cancelled.
      </p>
    );
  }
  if (ride.status !== "active") return null;
  if (!isDriver) {
    return (
      <p className="rounded-xl border border-blue-200 bg-blue-50 p-4 text-blue-950 dark:border-blue-900 dark:bg-blue-950 dark:text-blue-100">
        Only the driver can complete this ride. You will be notified when it is completed and your share is ready.
      </p>
    );
  }
  const blockedReason =
    ride.bookedSeats < 1
      ? "A ride needs at least one booked seat to be completed."
      : now < ride.departsAt - COMPLETE_EARLY_MS
        ? TOO_EARLY_TO_COMPLETE
        : null;
  return <CompleteRideCard blockedReason={blockedReason} />;
}
