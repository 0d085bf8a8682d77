import { Form, Link } from "@remix-run/react";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/forms";
import type { ReactNode } from "react";
import { Avatar } from "~/components/avatar";
import { MoreLink } from "~/components/more-link";
import { RequestCard } from "~/components/request-card";
import {
  cardClass,
  dangerButtonClass,
  IntentButton,
  RideRoute,
  smallButtonClass,
  smallPrimaryClass,
  StatusBadge,
} from "~/components/ride-ui";
import { detailTextClass, mutedTextClass } from "~/components/styles";
import { capitalise, costPerSeatPaise } from "~/domain/rides";
import { groupByWeek, weekdayName, type WeekGroup } from "~/domain/ride-weeks";
import { formatDate, formatTime } from "~/domain/time";
import type { getMyRides, IncomingRequest } from "~/models/my-rides.server";
import type { myRidesQuerySchema } from "~/schemas/ride-search";
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

/** One card of My Rides: who drives, where and when, one line of detail, badges and actions. */
type RideCardItem = {
  key: string;
  past: boolean;
  commuteId: string | null;
  driverName: string | null;
  driverAvatarUrl: string | null;
  from: string;
  to: string;
  date: string;
  time: string;
  badges: ReactNode;
  detail: ReactNode;
  actions: ReactNode;
};

/**
 * The created and booked tabs share one card; only badges, the detail line and actions differ.
 * Cards come in weeks (groupByWeek), each under its heading.
 */
function RideCardList({ groups, testId }: { groups: WeekGroup<RideCardItem>[]; testId: string }) {
  return (
    <div className="space-y-6">
      {groups.map((g, i) => (
        <section key={`${g.label}-${i}`} aria-label={g.label} className="space-y-3" data-testid="ride-week">
          <h2 className="text-lg font-semibold">{g.label}</h2>
          <RideCards items={g.items} testId={testId} />
        </section>
      ))}
    </div>
  );
}

function RideCards({ items, testId }: { items: RideCardItem[]; testId: string }) {
  return (
    <ul className="grid gap-4 md:grid-cols-2">
      {items.map((c) => (
        <li key={c.key} className={`${cardClass} space-y-2`} data-testid={testId}>
          <div className="lr-row">
            <Avatar name={c.driverName} url={c.driverAvatarUrl} size="sm" />
            <p className="font-medium">{c.driverName ?? "Unknown Driver"}</p>
            <span className="ml-auto flex gap-1">{c.badges}</span>
          </div>
          <RideRoute from={c.from} to={c.to} />
          <p className={detailTextClass}>{`${weekdayName(c.date)}, ${formatDate(c.date)} · ${formatTime(c.time)}`}</p>
          <p className={detailTextClass}>{c.detail}</p>
          <div className="flex flex-wrap gap-2 pt-1">{c.actions}</div>
        </li>
      ))}
    </ul>
  );
}

export function CreatedRideList({
  rides,
  today,
  manageHref,
  moreHref,
}: {
  rides: MyCreatedRide[];
  today: string;
  manageHref: string;
  moreHref: string | null;
}) {
  const items = rides.map((r) => ({
    key: r.id,
    past: r.past,
    commuteId: r.commuteId,
    driverName: r.driverName,
    driverAvatarUrl: r.driverAvatarUrl,
    from: r.fromLocation,
    to: r.toLocation,
    date: r.date,
    time: r.time,
    badges: <StatusBadge status={r.status} />,
    detail: `${r.bookedSeats}/${r.seats} seats booked`,
    actions: (
      <>
        <Link to={manageHref} className={smallPrimaryClass}>
          Manage Bookings
        </Link>
        <Link to={`/rides/${r.id}`} className={smallButtonClass}>
          View ride
        </Link>
      </>
    ),
  }));
  return (
    <>
      <RideCardList groups={groupByWeek(items, today)} testId="created-ride" />
      <MoreLink href={moreHref} testId="more-rides" label="More rides" />
    </>
  );
}

export function BookedRideList({
  bookings,
  today,
  redirectTo,
  moreHref,
}: {
  bookings: MyBookedRide[];
  today: string;
  redirectTo: string;
  moreHref: string | null;
}) {
  const items = bookings.map((b) => ({
    key: b.requestId,
    past: b.past,
    commuteId: b.commuteId,
    driverName: b.driverName,
    driverAvatarUrl: b.driverAvatarUrl,
    from: b.fromLocation,
    to: b.toLocation,
    date: b.date,
    time: b.time,
    badges: (
      <>
        <StatusBadge status={b.status} />
        {b.rideStatus !== "active" ? (
          <StatusBadge status={b.rideStatus}>Ride {capitalise(b.rideStatus)}</StatusBadge>
        ) : null}
      </>
    ),
    detail: `${b.seats} seat${b.seats === 1 ? "" : "s"} requested`,
    actions: (
      <>
        <Link to={`/booking-confirmation/${b.requestId}`} className={smallButtonClass}>
          View booking
        </Link>
        {b.status === "pending" ? (
          <IntentButton
            intent="cancel-request"
            fields={{ requestId: b.requestId, redirectTo }}
            className={dangerButtonClass}
          >
            Cancel
          </IntentButton>
        ) : null}
      </>
    ),
  }));
  return (
    <>
      <RideCardList groups={groupByWeek(items, today)} testId="booked-ride" />
      <MoreLink href={moreHref} testId="more-bookings" label="More bookings" />
    </>
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
  moreHref,
}: {
  query: MyRidesQuery;
  requests: IncomingRequest[];
  counts: MyRides["counts"];
  here: string;
  manageHref: (status: string) => string;
  /** The next page of requests (older ones), when there is one. */
  moreHref: string | null;
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
      <Form method="get" className="space-y-1" role="search">
        <input type="hidden" name="tab" value="manage" />
        {query.status !== "all" ? <input type="hidden" name="status" value={query.status} /> : null}
        <label htmlFor="manage-q" className="block text-sm font-medium">
          Search requests
        </label>
        <div className="flex gap-2">
          <input
            id="manage-q"
            name="q"
            type="search"
            defaultValue={query.q}
            placeholder="Search by passenger name or location..."
            className={inputClass}
          />
          <button type="submit" className={secondaryButtonClass}>
            Search
          </button>
        </div>
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
          <p className={`mt-1 ${mutedTextClass}`}>Create a ride to start receiving booking requests.</p>
          <Link to="/rides/create" className={`${buttonClass} mt-4`}>
            Create a Ride
          </Link>
        </Empty>
      ) : requests.length === 0 ? (
        <Empty title="No requests found">
          <p className={`mt-1 ${mutedTextClass}`}>
            {query.q ? "No requests match your search." : EMPTY_TEXT[query.status]}
          </p>
        </Empty>
      ) : (
        <ul className="space-y-3">
          {requests.map((r) => (
            <IncomingRequestCard key={r.id} r={r} redirectTo={here} />
          ))}
        </ul>
      )}
      <MoreLink href={moreHref} testId="more-requests" label="More requests" />
      <section aria-label="Summary" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {[
          ["Active Rides", counts.activeRides],
          ["Pending Requests", counts.pending],
          ["Accepted", counts.accepted],
          ["Rejected", counts.rejected],
        ].map(([label, n]) => (
          <div key={label} className={`${cardClass} text-center`}>
            <p className="text-2xl font-bold">{n}</p>
            <p className={`text-sm ${mutedTextClass}`}>{label}</p>
          </div>
        ))}
      </section>
    </div>
  );
}

/** One incoming booking request in Manage Bookings: the shared request card with its ride and price. */
function IncomingRequestCard({ r, redirectTo }: { r: IncomingRequest; redirectTo: string }) {
  return (
    <RequestCard
      request={r}
      redirectTo={redirectTo}
      canDecide
      perSeatPaise={costPerSeatPaise(r.tripCostPaise, r.rideSeats)}
      className={`${cardClass} space-y-2`}
      testId="request-card"
      rideId={r.rideId}
    >
      <RideRoute from={r.fromLocation} to={r.toLocation} />
      <p className={detailTextClass}>
        {formatDate(r.date)} at {formatTime(r.time)}
      </p>
    </RequestCard>
  );
}
