import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { Avatar } from "~/components/avatar";
import { cardClass, dangerButtonClass, IntentButton, RequestDecision, RideRoute, smallButtonClass, smallPrimaryClass, StatusBadge } from "~/components/ride-ui";
import { formatRupees } from "~/domain/money";
import { capitalise, costPerSeatPaise } from "~/domain/rides";
import { formatDate, formatDateTimeShort, formatTime } from "~/domain/time";
import type { getMyRides, IncomingRequest } from "~/models/rides.server";

type MyRides = Awaited<ReturnType<typeof getMyRides>>;
type MyCreatedRide = MyRides["created"][number];
type MyBookedRide = MyRides["booked"][number];

// The card lists of My Rides (/dashboard/rides): created rides, booked rides and the
// incoming requests of Manage Bookings.

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={`${cardClass} text-center`}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </div>
  );
}

export function CreatedRideList({ rides, manageHref }: { rides: MyCreatedRide[]; manageHref: string }) {
  return (
    <ul className="grid gap-4 md:grid-cols-2">
      {rides.map((r) => (
        <li key={r.id} className={`${cardClass} space-y-2`} data-testid="created-ride">
          <div className="flex items-center gap-3">
            <Avatar name={r.driverName} url={r.driverAvatarUrl} size="sm" />
            <p className="font-medium">{r.driverName ?? "Unknown Driver"}</p>
            <span className="ml-auto">
              <StatusBadge status={r.status} />
            </span>
          </div>
          <RideRoute from={r.fromLocation} to={r.toLocation} />
          <p className="text-sm text-slate-800 dark:text-slate-200">
            {formatDate(r.date)} · {formatTime(r.time)}
          </p>
          <p className="text-sm text-slate-800 dark:text-slate-200">{`${r.bookedSeats}/${r.seats} seats booked`}</p>
          <div className="flex flex-wrap gap-2 pt-1">
            <Link to={manageHref} className={smallPrimaryClass}>
              Manage Bookings
            </Link>
            <Link to={`/rides/${r.id}`} className={smallButtonClass}>
              View ride
            </Link>
          </div>
        </li>
      ))}
    </ul>
  );
}

export function BookedRideList({ bookings, redirectTo }: { bookings: MyBookedRide[]; redirectTo: string }) {
  return (
    <ul className="grid gap-4 md:grid-cols-2">
      {bookings.map((b) => (
        <li key={b.requestId} className={`${cardClass} space-y-2`} data-testid="booked-ride">
          <div className="flex items-center gap-3">
            <Avatar name={b.driverName} url={b.driverAvatarUrl} size="sm" />
            <p className="font-medium">{b.driverName ?? "Unknown Driver"}</p>
            <span className="ml-auto flex gap-1">
              <StatusBadge status={b.status} />
              {b.rideStatus !== "active" ? <StatusBadge status={b.rideStatus}>Ride {capitalise(b.rideStatus)}</StatusBadge> : null}
            </span>
          </div>
          <RideRoute from={b.fromLocation} to={b.toLocation} />
          <p className="text-sm text-slate-800 dark:text-slate-200">
            {formatDate(b.date)} · {formatTime(b.time)}
          </p>
          <p className="text-sm text-slate-800 dark:text-slate-200">
            {b.seats} seat{b.seats === 1 ? "" : "s"} requested
          </p>
          <div className="flex flex-wrap gap-2 pt-1">
            <Link to={`/booking-confirmation/${b.requestId}`} className={smallButtonClass}>
              View booking
            </Link>
            {b.status === "pending" ? (
              <IntentButton intent="cancel-request" fields={{ requestId: b.requestId, redirectTo }} className={dangerButtonClass}>
                Cancel
              </IntentButton>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** One incoming booking request in Manage Bookings, with Accept/Reject while pending. */
export function RequestCard({ r, redirectTo }: { r: IncomingRequest; redirectTo: string }) {
  const perSeat = costPerSeatPaise(r.tripCostPaise, r.rideSeats);
  return (
    <li className={`${cardClass} space-y-2`} data-testid="request-card" data-ride-id={r.rideId}>
      <div className="flex flex-wrap items-center gap-3">
        {r.hasProfile ? (
          <>
            <Avatar name={r.riderName} url={r.riderAvatarUrl} size="sm" />
            <p className="font-medium">{r.riderName ?? "Unknown User"}</p>
          </>
        ) : (
          <p className="text-sm italic text-slate-700 dark:text-slate-300">User data not available for this request</p>
        )}
        <span className="ml-auto">
          <StatusBadge status={r.status} />
        </span>
      </div>
      <RideRoute from={r.fromLocation} to={r.toLocation} />
      <p className="text-sm text-slate-800 dark:text-slate-200">
        {formatDate(r.date)} at {formatTime(r.time)}
      </p>
      <p className="text-sm text-slate-800 dark:text-slate-200">
        {`${r.seats} seat${r.seats === 1 ? "" : "s"} requested · ${formatRupees(perSeat)} × ${r.seats} = ${formatRupees(perSeat * r.seats)}`}
      </p>
      <p className="text-xs text-slate-700 dark:text-slate-300">Requested {formatDateTimeShort(r.createdAt)}</p>
      {r.notes ? (
        <p className="text-sm">
          <span className="font-semibold">Message: </span>
          {r.notes}
        </p>
      ) : null}
      {r.status === "pending" ? <RequestDecision requestId={r.id} redirectTo={redirectTo} className="flex gap-2 pt-1" /> : null}
    </li>
  );
}
