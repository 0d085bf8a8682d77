import { Form, Link } from "@remix-run/react";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/forms";
import type { ReactNode } from "react";
import { Avatar } from "~/components/avatar";
import { cardClass, dangerButtonClass, IntentButton, RequestDecision, RideRoute, smallButtonClass, smallPrimaryClass, StatusBadge } from "~/components/ride-ui";
import { formatRupees } from "~/domain/money";
import { capitalise, costPerSeatPaise } from "~/domain/rides";
import { formatDate, formatDateTimeShort, formatTime } from "~/domain/time";
import type { getMyRides, IncomingRequest } from "~/models/rides.server";
import type { myRidesQuerySchema } from "~/schemas/rides";
import type { z } from "zod";

type MyRidesQuery = z.infer<typeof myRidesQuerySchema>;
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

const FILTERS = [
  { key: "all", label: "All" },
  { key: "pending", label: "Pending" },
  { key: "accepted", label: "Accepted" },
  { key: "rejected", label: "Rejected" },
] as const;

const EMPTY_TEXT: Record<string, string> = {
  all: "Requests from passengers for your active rides will appear here.",
  pending: "There are no pending requests right now.",
  accepted: "You haven't accepted any requests yet.",
  rejected: "You haven't rejected any requests.",
};

/** The Manage Bookings tab: counts, search, status filter, the incoming requests and a summary. */
export function ManageBookings({
  query,
  requests,
  counts,
  here,
  manageHref,
}: {
  query: MyRidesQuery;
  requests: IncomingRequest[];
  counts: MyRides["counts"];
  here: string;
  manageHref: (status: string) => string;
}) {
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <Link to={here} className={smallButtonClass} reloadDocument={false}>
          Refresh
        </Link>
        <span className="rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-50">
          Pending {counts.pending}
        </span>
        <span className="rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-50">
          Accepted {counts.accepted}
        </span>
      </div>
      <Form method="get" className="flex gap-2" role="search">
        <input type="hidden" name="tab" value="manage" />
        {query.status !== "all" ? <input type="hidden" name="status" value={query.status} /> : null}
        <label htmlFor="manage-q" className="sr-only">
          Search requests
        </label>
        <input id="manage-q" name="q" type="search" defaultValue={query.q} placeholder="Search by passenger name or location..." className={inputClass} />
        <button type="submit" className={secondaryButtonClass}>
          Search
        </button>
      </Form>
      <nav aria-label="Filter requests" className="flex flex-wrap gap-2">
        {FILTERS.map((f) => (
          <Link
            key={f.key}
            to={manageHref(f.key)}
            aria-current={query.status === f.key ? "page" : undefined}
            className={`rounded-full border px-3 py-1 text-sm font-medium ${
              query.status === f.key
                ? "border-emerald-700 bg-emerald-700 text-white"
                : "border-slate-400 text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
            }`}
          >
            {f.label}
          </Link>
        ))}
      </nav>
      {counts.activeRides === 0 ? (
        <Empty title="No active rides found">
          <p className="mt-1 text-slate-700 dark:text-slate-300">Create a ride to start receiving booking requests.</p>
          <Link to="/rides/create" className={`${buttonClass} mt-4`}>
            Create a Ride
          </Link>
        </Empty>
      ) : requests.length === 0 ? (
        <Empty title="No requests found">
          <p className="mt-1 text-slate-700 dark:text-slate-300">{query.q ? "No requests match your search." : EMPTY_TEXT[query.status]}</p>
        </Empty>
      ) : (
        <ul className="space-y-3">
          {requests.map((r) => (
            <RequestCard key={r.id} r={r} redirectTo={here} />
          ))}
        </ul>
      )}
      <section aria-label="Summary" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[
          ["Active Rides", counts.activeRides],
          ["Pending Requests", counts.pending],
          ["Accepted", counts.accepted],
          ["Rejected", counts.rejected],
        ].map(([label, n]) => (
          <div key={label} className={`${cardClass} text-center`}>
            <p className="text-2xl font-bold">{n}</p>
            <p className="text-sm text-slate-700 dark:text-slate-300">{label}</p>
          </div>
        ))}
      </section>
    </div>
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
