import { and, desc, eq, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { rideRequests, rides, userProfiles } from "../../db/schema";
import { type ModelCtx, audience } from "./context.server";
import type { Db } from "./db.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { notificationInsertIfChanged } from "./notifications.server";
import { maySeeRide } from "./permissions.server";

// The reliability record (issue 16, item 5): facts about a person, not stars alone. Every
// number is counted from what happened (completed rides, late cancellations, no-shows) and
// read in one D1 batch; no-shows are marked by the driver after completion and may be
// disputed once by the rider (docs/decisions/0021-community-moderation.md).

const DAY_MS = 24 * 60 * 60 * 1000;
/** A no-show is marked within a week of the ride's completion, while it is fresh. */
export const NO_SHOW_WINDOW_MS = 7 * DAY_MS;
/** The median response time is taken over the driver's latest decisions. */
export const RESPONSE_SAMPLE = 100;

export type ReliabilityRecord = {
  completedAsDriver: number;
  completedAsRider: number;
  lateCancellations: number;
  noShows: number;
  disputedNoShows: number;
  /** Median time from a request to the driver's accept/reject, in ms; null without decisions. */
  medianResponseMs: number | null;
  decisions: number;
};

export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : Math.round((sorted[mid - 1] + sorted[mid]) / 2);
}

/**
 * One user's record, in one batch: rides completed as driver (rides_driver_idx), as a rider who
 * showed up (ride_requests_rider_status_idx), the driver's late cancellations (rides.cancelled_late;
 * riders cannot cancel an accepted seat within 2 hours, ADR 0010, so their side is the no-show
 * count), no-shows (and how many were disputed), and the median response to requests over the
 * latest RESPONSE_SAMPLE decisions.
 */
export async function getReliabilityRecord({ db }: ModelCtx, userId: string): Promise<ReliabilityRecord> {
  const [driven, ridden, late, noShows, responses] = await db.batch(reliabilityQueries(db, userId));
  return reliabilityFrom([driven, ridden, late, noShows, responses]);
}

/**
 * The record's five reads for another batch: `userId` may be SQL, e.g. the driver of a ride
 * (rideDriverReliabilityQueries), so a page reads it in the same round trip as the ride.
 */
export function reliabilityQueries(db: Db, userId: string | SQL) {
  return [
    db
      .select({ n: sql<number>`count(*)` })
      .from(rides)
      .where(and(eq(rides.driverId, userId), eq(rides.status, "completed"))),
    db
      .select({ n: sql<number>`count(*)` })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .where(
        and(
          eq(rideRequests.riderId, userId),
          eq(rideRequests.status, "accepted"),
          eq(rides.status, "completed"),
          isNull(rideRequests.noShowAt),
        ),
      ),
    db
      .select({ n: sql<number>`count(*)` })
      .from(rides)
      .where(and(eq(rides.driverId, userId), eq(rides.cancelledLate, true))),
    db
      .select({ n: sql<number>`count(*)`, disputed: sql<number>`count(${rideRequests.noShowDisputedAt})` })
      .from(rideRequests)
      .where(
        and(eq(rideRequests.riderId, userId), eq(rideRequests.status, "accepted"), isNotNull(rideRequests.noShowAt)),
      ),
    db
      .select({ ms: sql<number>`${rideRequests.decidedAt} - ${rideRequests.createdAt}` })
      .from(rides)
      .innerJoin(rideRequests, eq(rideRequests.rideId, rides.id))
      .where(
        and(
          eq(rides.driverId, userId),
          sql`${rideRequests.status} IN ('accepted','rejected')`,
          isNotNull(rideRequests.decidedAt),
        ),
      )
      .orderBy(desc(rideRequests.decidedAt))
      .limit(RESPONSE_SAMPLE),
  ] as const;
}

/** The reliability reads of the driver of a ride, by its id (see getRideDetail's `also`). */
export function rideDriverReliabilityQueries(db: Db, rideId: string) {
  // Unqualified names inside the subquery resolve to its own FROM, not the outer rides.
  return reliabilityQueries(db, sql`(SELECT driver_id FROM rides WHERE id = ${rideId})`);
}

/** The results of reliabilityQueries as a record. */
export function reliabilityFrom(results: readonly unknown[]): ReliabilityRecord {
  const [driven, ridden, late, noShows, responses] = results as [
    { n: number }[],
    { n: number }[],
    { n: number }[],
    { n: number; disputed: number }[],
    { ms: number }[],
  ];
  return {
    completedAsDriver: driven[0]?.n ?? 0,
    completedAsRider: ridden[0]?.n ?? 0,
    lateCancellations: late[0]?.n ?? 0,
    noShows: noShows[0]?.n ?? 0,
    disputedNoShows: noShows[0]?.disputed ?? 0,
    medianResponseMs: median(responses.map((r) => Math.max(0, r.ms))),
    decisions: responses.length,
  };
}

async function completedRideOf({ db }: ModelCtx, rideId: string) {
  const ride = await db
    .select({
      id: rides.id,
      driverId: rides.driverId,
      status: rides.status,
      completedAt: rides.completedAt,
      fromLocation: rides.fromLocation,
      toLocation: rides.toLocation,
      date: rides.date,
    })
    .from(rides)
    .where(eq(rides.id, rideId))
    .get();
  if (!ride) throw new NotFoundError("Ride Not Found");
  return ride;
}

/** A refusal that does not reveal a community ride to someone who may not see it (404, else 403). */
async function refuse({ db }: ModelCtx, userId: string, rideId: string, message: string) {
  const visible = await db
    .select({ id: rides.id })
    .from(rides)
    .where(and(eq(rides.id, rideId), maySeeRide(userId, { withRequests: true })))
    .get();
  return visible ? new ForbiddenError(message) : new NotFoundError("Ride Not Found");
}

export const BOARDED_NOT_NO_SHOW = "This rider's pickup code was entered: they boarded, so they are not a no-show.";

/**
 * The driver marks an accepted rider of their completed ride as a no-show, once, within
 * NO_SHOW_WINDOW_MS of completion. The rider is told in the same batch.
 */
export async function markNoShow(ctx: ModelCtx, driverId: string, rideId: string, riderId: string, now = Date.now()) {
  const { db } = ctx;
  const ride = await completedRideOf(ctx, rideId);
  if (ride.driverId !== driverId)
    throw await refuse(ctx, driverId, rideId, "Only the driver can mark a rider as a no-show.");
  if (ride.status !== "completed") throw new ConflictError("A no-show can be marked once the ride is completed.");
  if (!ride.completedAt || now - ride.completedAt > NO_SHOW_WINDOW_MS)
    throw new ConflictError("No-shows can be marked up to 7 days after the ride.");
  const request = await db
    .select({ id: rideRequests.id, noShowAt: rideRequests.noShowAt, pickedUpAt: rideRequests.pickedUpAt })
    .from(rideRequests)
    .where(and(eq(rideRequests.rideId, rideId), eq(rideRequests.riderId, riderId), eq(rideRequests.status, "accepted")))
    .get();
  if (!request) throw new NotFoundError("This person was not a rider on this ride.");
  if (request.noShowAt) throw new ConflictError("This rider is already marked as a no-show.");
  // Issue 37: the rider's pickup code was entered, so they boarded.
  if (request.pickedUpAt !== null) throw new ConflictError(BOARDED_NOT_NO_SHOW);
  const [updated] = await db.batch([
    db
      .update(rideRequests)
      .set({ noShowAt: now })
      .where(and(eq(rideRequests.id, request.id), isNull(rideRequests.noShowAt), isNull(rideRequests.pickedUpAt)))
      .returning({ id: rideRequests.id }),
    notificationInsertIfChanged(
      db,
      {
        userId: riderId,
        type: "ride_update",
        title: "Marked as a no-show",
        message: `Your driver marked you as a no-show on the ride from ${ride.fromLocation} to ${ride.toLocation} on ${ride.date}. If you were there, you can dispute it once on the ride's completion page.`,
        data: { ride_id: rideId, request_id: request.id, status: "no_show" },
      },
      now,
    ),
  ]);
  if (updated.length === 0) throw new ConflictError("This rider is already marked as a no-show.");
  return { audience: audience([riderId]) };
}

/** The rider disputes a no-show marked on them, once; the driver is told. */
export async function disputeNoShow(ctx: ModelCtx, riderId: string, rideId: string, now = Date.now()) {
  const { db } = ctx;
  const ride = await completedRideOf(ctx, rideId);
  const request = await db
    .select({ id: rideRequests.id, noShowAt: rideRequests.noShowAt, disputedAt: rideRequests.noShowDisputedAt })
    .from(rideRequests)
    .where(and(eq(rideRequests.rideId, rideId), eq(rideRequests.riderId, riderId), eq(rideRequests.status, "accepted")))
    .get();
  if (!request) throw await refuse(ctx, riderId, rideId, "Only a rider marked as a no-show can dispute it.");
  if (!request.noShowAt) throw new ConflictError("You are not marked as a no-show on this ride.");
  if (request.disputedAt) throw new ConflictError("You have already disputed this no-show.");
  const rider = await db
    .select({ fullName: userProfiles.fullName })
    .from(userProfiles)
    .where(eq(userProfiles.userId, riderId))
    .get();
  const [updated] = await db.batch([
    db
      .update(rideRequests)
      .set({ noShowDisputedAt: now })
      .where(
        and(eq(rideRequests.id, request.id), isNotNull(rideRequests.noShowAt), isNull(rideRequests.noShowDisputedAt)),
      )
      .returning({ id: rideRequests.id }),
    notificationInsertIfChanged(
      db,
      {
        userId: ride.driverId,
        type: "ride_update",
        title: "No-show disputed",
        message: `${rider?.fullName ?? "A rider"} disputes the no-show you marked on the ride from ${ride.fromLocation} to ${ride.toLocation} on ${ride.date}.`,
        data: { ride_id: rideId, request_id: request.id, status: "no_show_disputed" },
      },
      now,
    ),
  ]);
  if (updated.length === 0) throw new ConflictError("You have already disputed this no-show.");
  return { audience: audience([ride.driverId]) };
}
