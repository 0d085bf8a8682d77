import { aliasedTable, and, desc, eq, gte, inArray, ne, sql } from "drizzle-orm";
import { rideRequests, rides, userProfiles } from "../../db/schema";
import {
  RECENT_RIDES,
  dashboardWindow,
  savingsWeeks,
  trafficHoursSaved,
  weeklySavings,
  type SeatEvent,
} from "../domain/dashboard";
import { NOTIFICATIONS_SHOWN, ownNotificationsQuery } from "./notifications.server";
import { cursorParam, type Cursor } from "../domain/cursor";
import { type AlsoReads, type ModelCtx } from "./context.server";

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

/**
 * Everything the dashboard overview shows for the acting user, in ONE db.batch (each read
 * on an index: rides_driver_idx, ride_requests_rider_idx, ride_requests_ride_idx,
 * notifications_user_idx). Only the user's own rides and requests are read. The notifications
 * are one page, older than `before` when given, with the cursor of the next page.
 */
export async function getDashboard(
  { db }: ModelCtx,
  userId: string,
  now = Date.now(),
  before: Cursor | null = null,
  also: AlsoReads = [],
) {
  const window = dashboardWindow(now);
  const since = Math.min(window.start, savingsWeeks(now)[0].start);
  const other = aliasedTable(rideRequests, "other_requests");

  const [driven, ridden, myRiders, fellows, recentDriven, recentRidden, notes, ...alsoRead] = await db.batch([
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
    // Accepted riders of my (not cancelled) rides, all time: co-passengers and what they shared.
    db
      .select({
        riderId: rideRequests.riderId,
        seats: mySeats,
        departsAt: rides.departsAt,
        tripCostPaise: rides.tripCostPaise,
        rideSeats: rides.seats,
      })
      .from(rides)
      .innerJoin(rideRequests, and(eq(rideRequests.rideId, rides.id), eq(rideRequests.status, "accepted")))
      .where(and(eq(rides.driverId, userId), ne(rides.status, "cancelled"))),
    // Drivers and fellow accepted riders of rides I rode, all time.
    db
      .select({ driverId: rides.driverId, riderId: other.riderId })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .leftJoin(other, and(eq(other.rideId, rides.id), eq(other.status, "accepted"), ne(other.riderId, userId)))
      .where(and(eq(rideRequests.riderId, userId), eq(rideRequests.status, "accepted"), ne(rides.status, "cancelled"))),
    db
      .select(rideCols)
      .from(rides)
      .where(eq(rides.driverId, userId))
      .orderBy(desc(rides.departsAt))
      .limit(RECENT_RIDES),
    db
      .select({ ...rideCols, mySeats, driverId: rides.driverId, driverName: userProfiles.fullName })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
      .where(and(eq(rideRequests.riderId, userId), inArray(rideRequests.status, ["pending", "accepted"])))
      .orderBy(desc(rideRequests.createdAt))
      .limit(RECENT_RIDES),
    ownNotificationsQuery(db, userId, NOTIFICATIONS_SHOWN + 1, before),
    ...also,
  ]);

  const inWindow = (r: { departsAt: number; status: string }) =>
    r.status !== "cancelled" && r.departsAt >= window.start && r.departsAt < window.end;
  const windowRides = new Set([...driven.filter(inWindow), ...ridden.filter(inWindow)].map((r) => r.id));
  const upcoming = (r: { departsAt: number; status: string }) => r.status === "active" && r.departsAt >= now;
  const upcomingRides = new Set([...driven.filter(upcoming), ...ridden.filter(upcoming)].map((r) => r.id));
  const coPassengers = new Set<string>();
  for (const r of myRiders) coPassengers.add(r.riderId);
  for (const f of fellows as { driverId: string; riderId: string | null }[]) {
    coPassengers.add(f.driverId);
    if (f.riderId) coPassengers.add(f.riderId);
  }
  coPassengers.delete(userId);

  const seatEvents: SeatEvent[] = [
    ...ridden
      .filter((r) => r.status !== "cancelled")
      .map((r) => ({ departsAt: r.departsAt, tripCostPaise: r.tripCostPaise, rideSeats: r.seats, seats: r.mySeats })),
    ...myRiders.map((r) => ({
      departsAt: r.departsAt,
      tripCostPaise: r.tripCostPaise,
      rideSeats: r.rideSeats,
      seats: r.seats,
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

  return {
    stats: {
      totalRides: windowRides.size,
      coPassengers: coPassengers.size,
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
    also: alsoRead as unknown[],
  };
}

export type Dashboard = Awaited<ReturnType<typeof getDashboard>>;
