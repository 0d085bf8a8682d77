import { and, desc, eq, isNull, lt, or, type SQL, sql } from "drizzle-orm";
import { rideRequests, rides, userProfiles } from "../../db/schema";
import { cursorParam, parseCursor, type Cursor } from "../domain/cursor";
import { afterCursor } from "./keyset.server";
import type { Db } from "./db.server";
import { type AlsoReads, type ModelCtx } from "./context.server";
import { seatFactColumns, seatRefusal, splitSeatFacts } from "./permissions.server";
import { aliased, requestWithRider } from "./ride-columns.server";
import { type Viewer, viewerKind, viewerSql, viewerValues } from "./sessions.server";
import { builtOnce, runReads } from "./statements.server";

// My Rides: the rides I offer, the seats I booked and the requests to manage.

/** Created rides on one page of My Rides; "More rides" shows the next this many (ADR 0025). */
export const CREATED_PAGE = 20;
/** Request cards on one page of Manage Bookings; "More requests" shows the next this many (ADR 0025). */
export const MANAGE_PAGE = 15;

type MyRidesQuery = {
  tab: "created" | "booked" | "manage";
  status: "all" | "pending" | "accepted" | "rejected";
  q: string;
  after?: string;
};

// The spec orders My Rides by date ascending: the next departure first, then the later ones;
// past rides follow, the most recent first (so a long history never pushes upcoming rides
// off the first page). A page's cursor is its last ride (departs_at, id), marked "p" when
// that ride was past: a past cursor continues the past segment (older, id descending); an
// upcoming one continues the upcoming segment and then every past ride. A ride that departs
// between two page loads moves to the past segment and may be shown twice, never skipped.
const createdRidesQuery = (db: Db, userId: string, now: number, after: { past: boolean; cursor: Cursor } | null) =>
  db
    // Only what a card shows: every field is serialised again into the page's loader data.
    .select({
      id: rides.id,
      fromLocation: rides.fromLocation,
      toLocation: rides.toLocation,
      date: rides.date,
      time: rides.time,
      departsAt: rides.departsAt,
      seats: rides.seats,
      bookedSeats: rides.bookedSeats,
      status: rides.status,
      driverName: userProfiles.fullName,
      driverAvatarUrl: userProfiles.avatarUrl,
    })
    .from(rides)
    .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
    // A commute's occurrences are shown on its own card (listDriverCommutes), not one by one.
    .where(
      and(
        eq(rides.driverId, userId),
        isNull(rides.commuteId),
        !after
          ? undefined
          : after.past
            ? afterCursor(rides.departsAt, rides.id, after.cursor, "older")
            : or(afterCursor(rides.departsAt, rides.id, after.cursor, "newer"), lt(rides.departsAt, now)),
      ),
    )
    .orderBy(
      sql`${rides.departsAt} < ${now}`,
      sql`CASE WHEN ${rides.departsAt} >= ${now} THEN ${rides.departsAt} ELSE -${rides.departsAt} END`,
      sql`CASE WHEN ${rides.departsAt} >= ${now} THEN ${rides.id} END`,
      desc(rides.id),
    )
    .limit(CREATED_PAGE + 1);

/** "p<departs_at>.<id>" after a past ride, "<departs_at>.<id>" after an upcoming one (both tabs). */
function parseCreatedCursor(value: string | undefined) {
  const past = value?.startsWith("p") ?? false;
  const cursor = parseCursor(past ? value!.slice(1) : value);
  return cursor ? { past, cursor } : null;
}

/** Bookings on one page of Booked Rides; "More bookings" shows the next this many (ADR 0025). */
export const BOOKED_PAGE = 20;

// Booked Rides in the same order as Created Rides (issue 35: it was by request time, so a
// commute booked at once listed Dec 4, Dec 9, Dec 2...): the rides ahead soonest first, then
// those that have left, latest first, keyed on (departs_at, request id). A rider's requests are
// read on ride_requests_rider_idx and sorted: no index orders them by their rides' departure.
const bookedRidesQuery = (db: Db, userId: string, now: number, after: { past: boolean; cursor: Cursor } | null) =>
  db
    .select({
      requestId: rideRequests.id,
      seats: rideRequests.seats,
      status: rideRequests.status,
      createdAt: rideRequests.createdAt,
      rideId: aliased<string>(rides.id, "ride_id_"),
      rideStatus: aliased<string>(rides.status, "ride_status_"),
      fromLocation: rides.fromLocation,
      toLocation: rides.toLocation,
      date: rides.date,
      time: rides.time,
      departsAt: rides.departsAt,
      commuteId: rides.commuteId,
      tripCostPaise: rides.tripCostPaise,
      rideSeats: aliased<number>(rides.seats, "ride_seats_"),
      driverName: userProfiles.fullName,
      driverAvatarUrl: userProfiles.avatarUrl,
    })
    .from(rideRequests)
    .innerJoin(rides, eq(rides.id, rideRequests.rideId))
    .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
    .where(
      and(
        eq(rideRequests.riderId, userId),
        !after
          ? undefined
          : after.past
            ? afterCursor(rides.departsAt, rideRequests.id, after.cursor, "older")
            : or(afterCursor(rides.departsAt, rideRequests.id, after.cursor, "newer"), lt(rides.departsAt, now)),
      ),
    )
    .orderBy(
      sql`${rides.departsAt} < ${now}`,
      sql`CASE WHEN ${rides.departsAt} >= ${now} THEN ${rides.departsAt} ELSE -${rides.departsAt} END`,
      sql`CASE WHEN ${rides.departsAt} >= ${now} THEN ${rideRequests.id} END`,
      desc(rideRequests.id),
    )
    .limit(BOOKED_PAGE + 1);

/**
 * Every request on the driver's active rides, each with its card, and (LEFT JOIN) each active
 * ride without any: Manage Bookings counts, filters and pages these (ADR 0029).
 */
// Read for the pending requests that no longer fit or ask for a women-only seat: the reasons a
// driver meets on this list. Other refusals (a block, a member's standing) are rarer and each
// costs reads on every row of the list (city budget: 1,000 rows a page); Accept still decides
// them all, with its toast.
const PLAUSIBLY_REFUSED =
  sql.raw(`ride_requests.status = 'pending' AND (ride_requests.seats > rides.seats - rides.booked_seats
  OR rides.women_only = 1 OR rides.women_lock_booked IS NOT NULL)`);

const incomingQuery = (db: Db, userId: string | SQL, now: number) =>
  db
    .select({
      ...requestWithRider,
      hasProfile: sql<number>`${userProfiles.userId} IS NOT NULL`.mapWith(Boolean),
      rideId: aliased<string>(rides.id, "ride_id_"),
      fromLocation: rides.fromLocation,
      toLocation: rides.toLocation,
      date: rides.date,
      time: rides.time,
      tripCostPaise: rides.tripCostPaise,
      rideSeats: aliased<number>(rides.seats, "ride_seats_"),
      bookedSeats: rides.bookedSeats,
      // The seat rule's facts for the requester now: a card says why Accept would be refused.
      ...seatFactColumns(sql.raw("ride_requests.rider_id"), now, PLAUSIBLY_REFUSED),
    })
    .from(rides)
    .leftJoin(rideRequests, eq(rideRequests.rideId, rides.id))
    .leftJoin(userProfiles, eq(userProfiles.userId, rideRequests.riderId))
    .where(and(eq(rides.driverId, userId), eq(rides.status, "active")));

type IncomingRow = Awaited<ReturnType<typeof incomingQuery>>[number];
type IncomingRequestRow = IncomingRow & {
  id: string;
  riderId: string;
  seats: number;
  status: NonNullable<IncomingRow["status"]>;
  createdAt: number;
};
/** A request card of Manage Bookings, with why the seat rule would refuse accepting it now. */
export type IncomingRequest = ReturnType<typeof splitSeatFacts<IncomingRequestRow>>["rest"] & {
  acceptRefusal: string | null;
};
const isRequest = (r: IncomingRow): r is IncomingRequestRow => r.id !== null;

/** The card without the facts; a pending request gets the driver's refusal message, if any. */
function requestCard(row: IncomingRequestRow, now: number): IncomingRequest {
  const { rest, facts } = splitSeatFacts(row);
  // Facts not read (PLAUSIBLY_REFUSED) are NULL: nothing to show; the accept still decides.
  const read = row.status === "pending" && row.factOpen !== null;
  const refused = read ? seatRefusal(facts, row.seats, now, "driver") : null;
  return { ...rest, acceptRefusal: refused?.message ?? null };
}

/**
 * My Rides, one tab at a time. Manage Bookings reads every request on my active rides with
 * its card in one statement (one round trip after the session's, ADR 0029), counts and filters
 * them, and keeps one page of MANAGE_PAGE, newest first, after the `after` cursor (request
 * time, id) when given, with the cursor of the next page. Paging in SQL would cost a sort of
 * every request (D1 counts the sorter's rows) on top of the same read for the counts.
 */
export async function getMyRides(
  { db }: ModelCtx,
  userId: string,
  query: MyRidesQuery,
  now = Date.now(),
  also: AlsoReads = [],
) {
  const empty = {
    created: [],
    booked: [],
    requests: [],
    moreCursor: null as string | null,
    counts: { activeRides: 0, pending: 0, accepted: 0, rejected: 0 },
    also: [] as unknown[],
  };
  if (query.tab === "created") {
    // `also`: the page's other reads (the driver's commutes), in the same round trip.
    const [rows, ...alsoRead] = await db.batch([
      createdRidesQuery(db, userId, now, parseCreatedCursor(query.after)),
      ...also,
    ]);
    const last = rows.length > CREATED_PAGE ? rows[CREATED_PAGE - 1] : null;
    return {
      ...empty,
      // Created Rides lists no commute day (its commute card does): each ride is its own run.
      created: rows
        .slice(0, CREATED_PAGE)
        .map(({ departsAt, ...card }) => ({ ...card, past: departsAt < now, commuteId: null })),
      moreCursor: last ? `${last.departsAt < now ? "p" : ""}${cursorParam(last.departsAt, last.id)}` : null,
      also: alsoRead as unknown[],
    };
  }
  if (query.tab === "booked") {
    const rows = await bookedRidesQuery(db, userId, now, parseCreatedCursor(query.after));
    const last = rows.length > BOOKED_PAGE ? rows[BOOKED_PAGE - 1] : null;
    return {
      ...empty,
      booked: rows.slice(0, BOOKED_PAGE).map(({ departsAt, ...card }) => ({ ...card, past: departsAt < now })),
      moreCursor: last ? `${last.departsAt < now ? "p" : ""}${cursorParam(last.departsAt, last.requestId)}` : null,
    };
  }
  const [rows] = await runReads(db, [manageBookingsRead(db, { userId }, now)]);
  return { ...empty, ...manageBookingsFrom(rows, query, now) };
}

/**
 * Manage Bookings' one statement, built once per isolate (ADR 0069) and keyed on the viewer,
 * so the page reads it in the session's own round trip (requireUserWith, ADR 0063).
 */
export const manageBookingsRead = (db: Db, viewer: Viewer, now: number) =>
  builtOnce(db, `manage-bookings:${viewerKind(viewer)}`, { ...viewerValues(viewer), now }, (v) =>
    incomingQuery(db, viewerSql(v), v.now),
  );

/** Manage Bookings from its rows: the counts, the filtered page of cards and the next cursor. */
export function manageBookingsFrom(rows: IncomingRow[], query: MyRidesQuery, now: number) {
  const q = query.q.toLowerCase();
  const all = rows.filter(isRequest);
  const counts = {
    activeRides: new Set(rows.map((r) => r.rideId)).size,
    pending: all.filter((r) => r.status === "pending").length,
    accepted: all.filter((r) => r.status === "accepted").length,
    rejected: all.filter((r) => r.status === "rejected").length,
  };
  const after = parseCursor(query.after);
  const matching = all
    .filter(
      (r) =>
        (query.status === "all" || r.status === query.status) &&
        (!q || [r.riderName ?? "", r.fromLocation, r.toLocation].some((s) => s.toLowerCase().includes(q))) &&
        (!after || r.createdAt < after.at || (r.createdAt === after.at && r.id < after.id)),
    )
    .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));
  const page = matching.slice(0, MANAGE_PAGE);
  const requests = page.map((r) => requestCard(r, now));
  const last = page.at(-1);
  return {
    requests,
    counts,
    moreCursor: matching.length > MANAGE_PAGE && last ? cursorParam(last.createdAt, last.id) : null,
  };
}
