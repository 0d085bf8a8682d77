import { and, asc, desc, eq, gte, inArray, lt, type SQL, sql } from "drizzle-orm";
import { coPassengerCounts, rideRequests, rides, userProfiles } from "../../db/schema";
import {
  NEXT_RIDES,
  RECENT_RIDES,
  dashboardWindow,
  savingsWeeks,
  trafficHoursSaved,
  weeklySavings,
  type SeatEvent,
} from "../domain/dashboard";
import { istDate } from "../domain/time";
import { seatPricePaise } from "../domain/money";
import { NOTIFICATIONS_SHOWN, ownNotificationsQuery } from "./notifications.server";
import { cursorParam, type Cursor } from "../domain/cursor";
import type { Db } from "./db.server";
import { type AlsoReads, type ModelCtx } from "./context.server";
import { maySeeRide } from "./permissions.server";
import { aliased } from "./ride-columns.server";
import { type Viewer, viewerKind, viewerSql, viewerValues } from "./sessions.server";
import { builtOnce, type Preparable, type ReadResults, readOf, runReads } from "./statements.server";

// D1 batch results come back as objects keyed by column name, so a joined query must never
// select two columns with the same name: the request's seats are aliased.
const mySeats = sql<number>`${rideRequests.seats}`.as("my_seats");

const rideCols = {
  id: rides.id,
  fromLocation: rides.fromLocation,
  toLocation: rides.toLocation,
  date: rides.date,
  departsAt: rides.departsAt,
  status: rides.status,
  seats: rides.seats,
  bookedSeats: rides.bookedSeats,
  tripCostPaise: rides.tripCostPaise,
};

// What a next-ride card shows besides rideCols: the pickup time, the commute it belongs to
// (Cancel this day skips a commute's day) and the pricing mode (a free ride has no price).
const nextCols = { ...rideCols, time: rides.time, commuteId: rides.commuteId, pricingMode: rides.pricingMode };

/**
 * The driver's next active rides, soonest first: a range on rides_driver_status_idx
 * (driver, status, departs_at) that stops after NEXT_RIDES rows (no tie-break on id, which
 * would sort the whole range; one driver's two rides at one instant may come either way).
 */
const nextDrivenWhere = (userId: string | SQL, now: number) =>
  and(eq(rides.driverId, userId), eq(rides.status, "active"), gte(rides.departsAt, now));
const nextDrivenIds = (db: Db, userId: string | SQL, now: number) =>
  db
    .select({ id: rides.id })
    .from(rides)
    .where(nextDrivenWhere(userId, now))
    .orderBy(asc(rides.departsAt))
    .limit(NEXT_RIDES);

/**
 * The next rides, first on the dashboard (issue 35): the ones I drive, their riders, and my
 * live requests on others' rides. A rider's next ride is one they may still see (maySeeRide:
 * a block hides a pending request's ride, an accepted seat stays); cancelled and departed
 * rides are not next. Statements for the dashboard's one batch.
 */
export function nextRideQueries(db: Db, userId: string | SQL, now: number, today = istDate(now)) {
  return [
    db.select(nextCols).from(rides).where(nextDrivenWhere(userId, now)).orderBy(asc(rides.departsAt)).limit(NEXT_RIDES),
    db
      .select({
        rideId: rideRequests.rideId,
        riderId: rideRequests.riderId,
        riderName: userProfiles.fullName,
        seats: rideRequests.seats,
        status: rideRequests.status,
      })
      .from(rideRequests)
      .leftJoin(userProfiles, eq(userProfiles.userId, rideRequests.riderId))
      .where(
        and(
          inArray(rideRequests.rideId, nextDrivenIds(db, userId, now)),
          inArray(rideRequests.status, ["pending", "accepted"]),
        ),
      )
      .orderBy(asc(rideRequests.createdAt)),
    db
      .select({
        ...nextCols,
        requestId: aliased<string>(rideRequests.id, "request_id_"),
        mySeats,
        myStatus: aliased<string>(rideRequests.status, "my_status_"),
        // Issue 37: an accepted seat on a ride today shows its pickup code (its rider's own row).
        pickupCode: sql<string | null>`CASE WHEN ${rideRequests.status} = 'accepted'
          AND ${rides.date} = ${today} THEN ${rideRequests.pickupCode} END`.as("pickup_code_"),
        driverId: rides.driverId,
        driverName: userProfiles.fullName,
      })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
      .where(
        and(
          eq(rideRequests.riderId, userId),
          inArray(rideRequests.status, ["pending", "accepted"]),
          // Unary +: the read starts from my requests, not from every active ride ahead.
          sql`+${rides.status} = 'active'`,
          sql`+${rides.departsAt} >= ${now}`,
          maySeeRide(userId, { withRequests: true }),
        ),
      )
      .orderBy(asc(rides.departsAt), asc(rides.id))
      .limit(NEXT_RIDES),
  ] as const;
}

/**
 * Everything the dashboard overview shows for the acting user, in ONE db.batch (each read
 * on an index: rides_driver_idx, rides_driver_status_idx, ride_requests_rider_status_idx,
 * ride_requests_ride_idx, notifications_user_idx). Only the user's own rides and requests are read. The notifications
 * are one page, older than `before` when given, with the cursor of the next page.
 * Nothing here reads a person's whole history (issue 40, ADR 0064): Co-Passengers is the
 * count the database keeps (co_passenger_counts), and a driver's savings come from their
 * rides' booked seats, which are the sum of the accepted requests' seats.
 */
export async function getDashboard(
  { db }: ModelCtx,
  userId: string,
  now = Date.now(),
  before: Cursor | null = null,
  also: AlsoReads = [],
) {
  const reads = dashboardReads(db, { userId }, now, before);
  const rows = await runReads(db, [...reads, ...also.map((q) => readOf(db, q as unknown as Preparable))]);
  return {
    ...dashboardFrom(rows.slice(0, reads.length) as unknown as DashboardRows, now),
    also: rows.slice(reads.length),
  };
}

/**
 * The dashboard's reads as one statement set, built once per isolate (ADR 0063): for a user,
 * or for a session's owner, so they can ride in the session's own round trip (auth.server.ts).
 * The rows come back in one batch; dashboardFrom reads them.
 */
export function dashboardReads(db: Db, viewer: Viewer, now: number, before: Cursor | null) {
  const window = dashboardWindow(now);
  const values = {
    ...viewerValues(viewer),
    now,
    since: Math.min(window.start, savingsWeeks(now)[0].start),
    today: istDate(now),
    ...(before ? { beforeAt: before.at, beforeId: before.id } : {}),
  };
  const key = `dashboard:${viewerKind(viewer)}:${before ? "older" : "first"}`;
  const read = <I extends 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8>(part: I) =>
    builtOnce(db, `${key}:${part}`, values, (v): ReturnType<typeof dashboardQueries>[I] => {
      const userId = viewerSql(v);
      const cursor = v.beforeAt === undefined || v.beforeId === undefined ? null : { at: v.beforeAt, id: v.beforeId };
      return dashboardQueries(db, userId, v.now, v.since, v.today, cursor)[part];
    });
  return [read(0), read(1), read(2), read(3), read(4), read(5), read(6), read(7), read(8)] as const;
}

function dashboardQueries(
  db: Db,
  userId: string | SQL,
  now: number,
  since: number,
  today: string,
  before: Cursor | null,
) {
  return [
    // Rides I drive, from the start of the chart/window on (past and upcoming).
    db
      .select(rideCols)
      .from(rides)
      .where(and(eq(rides.driverId, userId), gte(rides.departsAt, since))),
    // My accepted seats on others' rides, same period.
    db
      .select({ ...rideCols, mySeats })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .where(and(eq(rideRequests.riderId, userId), eq(rideRequests.status, "accepted"), gte(rides.departsAt, since))),
    // Co-Passengers (all time), kept by triggers (migrations/0048_co_passenger_totals.sql).
    db.select({ people: coPassengerCounts.people }).from(coPassengerCounts).where(eq(coPassengerCounts.userId, userId)),
    // Recent rides are the ones that have left, latest first (upcoming ones are the next
    // rides above them): rides_driver_idx read backwards from now.
    db
      .select(rideCols)
      .from(rides)
      .where(and(eq(rides.driverId, userId), lt(rides.departsAt, now)))
      .orderBy(desc(rides.departsAt))
      .limit(RECENT_RIDES),
    // Seats I held on rides that have left (ride_requests_rider_status_idx, then each ride by id).
    db
      .select({ ...rideCols, mySeats, driverId: rides.driverId, driverName: userProfiles.fullName })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
      .where(and(eq(rideRequests.riderId, userId), eq(rideRequests.status, "accepted"), lt(rides.departsAt, now)))
      .orderBy(desc(rides.departsAt))
      .limit(RECENT_RIDES),
    ...nextRideQueries(db, userId, now, today),
    ownNotificationsQuery(db, userId, NOTIFICATIONS_SHOWN + 1, before),
  ] as const;
}

type DashboardRows = ReadResults<ReturnType<typeof dashboardReads>>;

/** What the dashboard shows, from the rows of dashboardReads. */
export function dashboardFrom(
  [
    driven,
    ridden,
    coPassengers,
    recentDriven,
    recentRidden,
    nextDriven,
    nextDrivenRiders,
    nextRidden,
    notes,
  ]: DashboardRows,
  now: number,
) {
  const window = dashboardWindow(now);
  const inWindow = (r: { departsAt: number; status: string }) =>
    r.status !== "cancelled" && r.departsAt >= window.start && r.departsAt < window.end;
  const windowRides = new Set([...driven.filter(inWindow), ...ridden.filter(inWindow)].map((r) => r.id));
  const upcoming = (r: { departsAt: number; status: string }) => r.status === "active" && r.departsAt >= now;
  const upcomingRides = new Set([...driven.filter(upcoming), ...ridden.filter(upcoming)].map((r) => r.id));
  const seatEvents: SeatEvent[] = [
    ...ridden
      .filter((r) => r.status !== "cancelled")
      .map((r) => ({ departsAt: r.departsAt, tripCostPaise: r.tripCostPaise, rideSeats: r.seats, seats: r.mySeats })),
    // The seats riders took on my rides: the price is per seat, so one event per ride with its
    // booked seats is worth what one per accepted request was.
    ...driven
      .filter((r) => r.status !== "cancelled" && r.bookedSeats > 0)
      .map((r) => ({
        departsAt: r.departsAt,
        tripCostPaise: r.tripCostPaise,
        rideSeats: r.seats,
        seats: r.bookedSeats,
      })),
  ];

  type Recent = {
    id: string;
    fromLocation: string;
    toLocation: string;
    date: string;
    departsAt: number;
    status: string;
    seats: number;
    bookedSeats: number;
    role: "driver" | "rider";
    driver: { id: string; fullName: string | null } | null;
  };
  const recent = new Map<string, Recent>();
  for (const r of recentDriven) recent.set(r.id, { ...r, role: "driver", driver: null });
  for (const r of recentRidden) {
    if (!recent.has(r.id))
      recent.set(r.id, {
        ...r,
        bookedSeats: r.mySeats,
        role: "rider",
        driver: { id: r.driverId, fullName: r.driverName },
      });
  }
  const recentRides = [...recent.values()].sort((a, b) => b.departsAt - a.departsAt).slice(0, RECENT_RIDES);

  // Next rides: what I drive and what I ride, merged, soonest first (never both on one ride:
  // nobody requests a seat on their own ride).
  const next = [
    ...nextDriven.map((r) => ({
      ...r,
      role: "driver" as const,
      request: null,
      driver: null,
      riders: nextDrivenRiders
        .filter((q) => q.rideId === r.id)
        .map((q) => ({ id: q.riderId, fullName: q.riderName, seats: q.seats, status: q.status })),
    })),
    ...nextRidden.map(({ requestId, mySeats: seats, myStatus, pickupCode, driverId, driverName, ...r }) => ({
      ...r,
      role: "rider" as const,
      request: {
        id: requestId,
        seats,
        status: myStatus,
        pickupCode,
      },
      driver: { id: driverId, fullName: driverName },
      riders: [],
    })),
  ]
    .sort((a, b) => a.departsAt - b.departsAt || (a.id < b.id ? -1 : 1))
    .slice(0, NEXT_RIDES)
    .map(({ tripCostPaise, pricingMode, ...r }) => ({
      ...r,
      // What one seat costs a rider (ADR 0010's rounding); null on a ride its community made free.
      seatPricePaise: pricingMode === "free" ? null : seatPricePaise(tripCostPaise, r.seats),
    }));

  return {
    nextRides: next,
    stats: {
      totalRides: windowRides.size,
      coPassengers: coPassengers[0]?.people ?? 0,
      upcomingRides: upcomingRides.size,
      trafficHoursSaved: trafficHoursSaved(windowRides.size),
    },
    recentRides: recentRides.map((r) => ({
      id: r.id,
      fromLocation: r.fromLocation,
      toLocation: r.toLocation,
      date: r.date,
      status: r.status,
      seats: r.seats,
      bookedSeats: r.bookedSeats,
      role: r.role,
      driver: r.driver,
    })),
    savings: weeklySavings(seatEvents, now),
    notifications: notes.slice(0, NOTIFICATIONS_SHOWN),
    olderNotifications:
      notes.length > NOTIFICATIONS_SHOWN
        ? cursorParam(notes[NOTIFICATIONS_SHOWN - 1].createdAt, notes[NOTIFICATIONS_SHOWN - 1].id)
        : null,
  };
}

export type Dashboard = Awaited<ReturnType<typeof getDashboard>>;
