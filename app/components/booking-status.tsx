import { Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Avatar } from "~/components/avatar";
import { textLinkClass } from "~/components/styles";
import {
  cardClass,
  dangerButtonClass,
  IntentButton,
  RideRoute,
  SaveButton,
  ShareButton,
  shareText,
  smallButtonClass,
  StatusBadge,
} from "~/components/ride-ui";
import { formatRupees } from "~/domain/money";
import {
  capitalise,
  co2SavedKg,
  formatElapsed,
  POINTS_PER_SEAT,
  progressOf,
  REQUEST_STATUS_LABEL,
  requestedAgo,
  type RequestStatus,
} from "~/domain/rides";
import { formatDate, formatTime } from "~/domain/time";
import type { getRequestForViewer } from "~/models/ride-requests.server";
import { mayShareEqually, mostOwedPaise, shownPriceText } from "~/domain/cost-split";

// The booking page's status tracker (progress bar, numbered steps, the live wait) and its
// eco-impact card (/booking-confirmation/:requestId).

/** The tracker card: status, progress bar, the four steps and, while pending, the wait and Cancel request. */
export function BookingTracker({
  booking,
  status,
  serverNow,
  isRider,
  here,
}: {
  booking: { id: string; rideStatus: string; createdAt: number };
  status: RequestStatus;
  serverNow: number;
  isRider: boolean;
  here: string;
}) {
  return (
    <section className={`${cardClass} space-y-4`} aria-labelledby="tracker">
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="tracker" className="text-lg font-semibold">
          {REQUEST_STATUS_LABEL[status]}
        </h2>
        <StatusBadge status={status} />
        {booking.rideStatus !== "active" ? (
          <StatusBadge status={booking.rideStatus}>Ride {booking.rideStatus}</StatusBadge>
        ) : null}
      </div>
      <div>
        <div
          className="h-3 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
          role="progressbar"
          aria-label="Booking progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={progressOf(status)}
        >
          <div className="h-full rounded-full bg-emerald-600" style={{ width: `${progressOf(status)}%` }} />
        </div>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{progressOf(status)}% complete</p>
      </div>
      <Steps status={status} />
      {status === "pending" ? (
        <div
          className="flex flex-wrap items-center gap-3 rounded-md bg-amber-50 p-3 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-50"
          aria-live="polite"
        >
          <span className="font-semibold">Waiting for driver response...</span>
          <Elapsed createdAt={booking.createdAt} serverNow={serverNow} />
          <noscript>
            <a href={here} className="font-semibold underline">
              Refresh
            </a>
          </noscript>
          {isRider ? (
            <IntentButton
              intent="cancel-request"
              fields={{ requestId: booking.id, redirectTo: here }}
              className={dangerButtonClass}
            >
              Cancel request
            </IntentButton>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function Steps({ status }: { status: RequestStatus }) {
  const decided = status === "accepted" || status === "rejected";
  const steps = [
    { label: "Request Sent", done: true },
    { label: "Driver Reviewing", done: decided },
    {
      label: status === "pending" ? "Request Accepted" : REQUEST_STATUS_LABEL[status],
      done: status !== "pending",
      failed: status === "rejected" || status === "cancelled" || status === "expired",
    },
    { label: "Ready to Ride", done: status === "accepted" },
  ];
  return (
    <ol className="grid gap-2 sm:grid-cols-4" aria-label="Booking progress">
      {steps.map((s, i) => (
        <li
          key={s.label}
          className={`rounded-md border px-3 py-2 text-sm ${
            s.failed
              ? "border-red-300 bg-red-50 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
              : s.done
                ? "border-emerald-300 bg-emerald-50 text-emerald-900 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
                : "border-slate-300 text-slate-800 dark:border-slate-700 dark:text-slate-200"
          }`}
        >
          <span className="font-semibold">{i + 1}.</span> {s.label}
          <span className="sr-only">{s.done ? " (done)" : " (not yet)"}</span>
        </li>
      ))}
    </ol>
  );
}

function Elapsed({ createdAt, serverNow }: { createdAt: number; serverNow: number }) {
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    setNow(Date.now());
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  return (
    <span data-testid="elapsed">
      {now === null ? requestedAgo(createdAt, serverNow) : `${formatElapsed(now - createdAt)} since your request`}
    </span>
  );
}

type Booking = Awaited<ReturnType<typeof getRequestForViewer>>;

/**
 * What the rider's seats cost, null on a free ride: the one figure the Price line and the
 * eco card both show (the card rounded it to whole rupees, and priced free rides).
 */
export const bookingAmountPaise = (booking: {
  pricingMode: string | null;
  seats: number;
  quotedPaise: number | null;
  tripCostPaise: number;
  rideSeats: number;
}) =>
  booking.pricingMode === "free"
    ? null
    : mostOwedPaise(
        booking.quotedPaise,
        { tripCostPaise: booking.tripCostPaise, seats: booking.rideSeats, pricingMode: booking.pricingMode },
        booking.seats,
      );

export function TripDetails({ booking, perSeat }: { booking: Booking; perSeat: number }) {
  const mostOwed = bookingAmountPaise(booking) ?? 0;
  return (
    <section className={`${cardClass} space-y-3`} aria-labelledby="trip">
      <h2 id="trip" className="text-lg font-semibold">
        Trip details
      </h2>
      <RideRoute from={booking.fromLocation} to={booking.toLocation} />
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <dt className="text-slate-700 dark:text-slate-300">Date</dt>
        <dd className="font-medium">{formatDate(booking.date)}</dd>
        <dt className="text-slate-700 dark:text-slate-300">Time</dt>
        <dd className="font-medium">{formatTime(booking.time)}</dd>
        <dt className="text-slate-700 dark:text-slate-300">Price</dt>
        <dd className="font-medium" data-testid="booking-price">
          {/* What the rider was shown when booking, or less (ADR 0046); free rides cost nothing. */}
          {booking.pricingMode === "free" || mayShareEqually(booking)
            ? shownPriceText(mostOwed, booking)
            : `${formatRupees(perSeat)} × ${booking.seats} = ${formatRupees(mostOwed)}`}
        </dd>
        {booking.communityName ? (
          <>
            <dt className="text-slate-700 dark:text-slate-300">Community</dt>
            <dd className="font-medium">{booking.communityName}</dd>
          </>
        ) : null}
      </dl>
      {booking.notes ? (
        <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
          <span className="font-semibold">Your note: </span>
          {booking.notes}
        </p>
      ) : null}
      <Link to={`/rides/${booking.rideId}`} className={textLinkClass}>
        View ride
      </Link>
    </section>
  );
}

/** Share, save and Manage Bookings. */
export function QuickActions({ booking, here }: { booking: Booking; here: string }) {
  return (
    <section className={`${cardClass} space-y-3`} aria-labelledby="quick-actions">
      <h2 id="quick-actions" className="text-lg font-semibold">
        Quick actions
      </h2>
      <div className="flex flex-wrap gap-2">
        <ShareButton text={shareText(booking)} path={`/rides/${booking.rideId}`} label="Share Trip" />
        <SaveButton
          rideId={booking.rideId}
          saved={booking.saved}
          redirectTo={here}
          saveLabel="Save Trip"
          savedLabel="Trip Saved"
        />
        <Link to="/dashboard/my-rides" className={smallButtonClass}>
          Manage Bookings
        </Link>
      </div>
    </section>
  );
}

type DriverOfBooking = {
  driverId: string;
  driverName: string | null;
  driverAvatarUrl: string | null;
  vehicleType: string | null;
  rideSeats: number;
};

export function DriverInfo({ booking, driverRating }: { booking: DriverOfBooking; driverRating: string }) {
  return (
    <section className={`${cardClass} space-y-3`} aria-labelledby="driver">
      <h2 id="driver" className="text-lg font-semibold">
        Driver information
      </h2>
      <div className="flex items-center gap-3">
        <Avatar name={booking.driverName} url={booking.driverAvatarUrl} size="lg" />
        <div>
          <p className="font-semibold">{booking.driverName ?? "Unknown Driver"}</p>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Rating: <span data-testid="driver-rating">{driverRating}</span>
          </p>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            {booking.vehicleType ? `${capitalise(booking.vehicleType)} car · ` : ""}
            {booking.rideSeats} seats
          </p>
        </div>
      </div>
      <Link to={`/dashboard/messages?to=${booking.driverId}`} className={smallButtonClass}>
        Contact Driver
      </Link>
    </section>
  );
}

export function EcoImpact({ seats, amountPaise }: { seats: number; amountPaise: number | null }) {
  return (
    <section className={`${cardClass} space-y-2`} aria-labelledby="eco">
      <h2 id="eco" className="text-lg font-semibold">
        Eco impact
      </h2>
      <ul className="grid grid-cols-3 gap-2 text-center text-sm">
        <li className="rounded-md bg-emerald-50 p-2 dark:bg-emerald-950">
          <p className="text-lg font-bold">{co2SavedKg(seats)} kg</p>CO2 saved
        </li>
        <li className="rounded-md bg-emerald-50 p-2 dark:bg-emerald-950">
          <p className="text-lg font-bold">{seats * POINTS_PER_SEAT}</p>community points
        </li>
        <li className="rounded-md bg-emerald-50 p-2 dark:bg-emerald-950">
          <p className="text-lg font-bold" data-testid="eco-money">
            {amountPaise === null ? "Free ride" : formatRupees(amountPaise)}
          </p>
          money saved
        </li>
      </ul>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        <span className="font-semibold">Did you know?</span> Sharing one car on a daily commute keeps about 2.5 kg of
        CO2 per rider out of Bengaluru's air.
      </p>
    </section>
  );
}
