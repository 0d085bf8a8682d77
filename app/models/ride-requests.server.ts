import { isUniqueViolation } from "./db-errors.server";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { communities, rideRequests, rides, savedRides, userProfiles } from "../../db/schema";
import { newId } from "../domain/ids";
import { pickupOnRoute } from "../domain/ride-match";
import { placeByName, rideRoute } from "./places.server";
import { CANCEL_WINDOW_MS, requestsClosedReason } from "../domain/rides";
import type { Db } from "./db.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import {
  notificationInsert,
  notificationInsertIfChanged,
  PER_ROW_ID,
  type NewNotification,
} from "./notifications.server";
import {
  maySeeRide,
  NOT_IN_COMMUNITY,
  RIDE_FULL,
  seatFactColumns,
  seatFactsOf,
  seatRefusal,
  seatRule,
  type SeatRefusal,
} from "./permissions.server";
import { type ModelCtx, audience } from "./context.server";

/**
 * What the booking page showed for `seats` seats of the ride row `rides` (ADR 0046), in SQL
 * so it is read in the same statement that records it: the seats' price (trip cost /
 * seats offered, rounded down, as `shownMaxPaise`), nothing on a free ride.
 */
export const shownMaxSql = (seats: number | SQL) =>
  sql`CASE WHEN rides.pricing_mode = 'free' THEN 0 ELSE ${seats} * (rides.trip_cost_paise / rides.seats) END`;

export const DUPLICATE_REQUEST = "You already have a pending or accepted request for this ride.";
export const LATE_CANCELLATION = "Seats can only be cancelled up to 2 hours before departure.";
export const NOT_PENDING = "This request is no longer pending.";
export { NOT_IN_COMMUNITY, RIDE_FULL };

/**
 * More seats than the ride has left: 'Not enough seats available' / 'Only N seats are
 * available for this ride.', or 'This ride is full.' when none are left.
 */
export class SeatsUnavailableError extends ConflictError {
  constructor(readonly available: number) {
    super(
      available <= 0
        ? RIDE_FULL
        : `Only ${available} seat${available === 1 ? " is" : "s are"} available for this ride.`,
      {
        title: "Not enough seats available",
        field: "seats",
      },
    );
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * "This ride still takes request changes": active and not yet departed. Every guarded write
 * below carries it in its WHERE, so a change racing a completion, a cancellation or the
 * departure either happens before it (and the completion then sees it) or not at all.
 */
function rideOpen(rideId: string, now: number) {
  return sql`EXISTS (SELECT 1 FROM ${rides} WHERE ${rides.id} = ${rideId} AND ${rides.status} = 'active' AND ${rides.departsAt} > ${now})`;
}

/** After a guarded write changed nothing: the ride's reason if it closed meanwhile, else `fallback`. */
async function refusal(
  db: Db,
  requestId: string,
  now: number,
  fallback: (after: NonNullable<Awaited<ReturnType<typeof loadRequestWithRide>>>) => string,
) {
  const after = await loadRequestWithRide(db, requestId);
  if (!after) return new NotFoundError("Request not found");
  const closed = requestsClosedReason({ status: after.rideStatus, departsAt: after.departsAt }, now);
  return new ConflictError(closed ?? fallback(after));
}

/** booked_seats recomputed from the accepted requests (never incremented blindly). */
function recomputeBookedSeats(db: Db, rideId: string) {
  return db
    .update(rides)
    .set({
      bookedSeats: sql`(SELECT coalesce(sum(${rideRequests.seats}), 0) FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rideId} AND ${rideRequests.status} = 'accepted')`,
    })
    .where(eq(rides.id, rideId));
}

export const PICKUP_OFF_ROUTE = "Please choose a pickup point along the ride's route (within the driver's detour).";

/**
 * The place id of a requested pickup point (issue 36, item 2), or null for the ride's start:
 * a place of the list the driver passes, or reaches within their detour limit (pickupOnRoute).
 */
function pickupPlaceOf(ride: Parameters<typeof rideRoute>[0] & { fromLocation: string }, pickup: string | null) {
  if (!pickup) return null;
  const place = placeByName(pickup);
  const route = rideRoute(ride);
  if (!place || !route || !pickupOnRoute(route, place)) throw new ConflictError(PICKUP_OFF_ROUTE, { field: "pickup" });
  return place.name === ride.fromLocation ? null : place.id;
}

/**
 * A rider asks for seats on someone else's active, upcoming ride. The driver is notified
 * in the same batch. One live request per rider and ride is the partial unique index's job.
 */
export async function requestSeats(
  { db }: ModelCtx,
  riderId: string,
  rideId: string,
  input: { seats: number; notes: string | null; pickup?: string | null },
  now = Date.now(),
) {
  const [ride, rider] = await db.batch([
    db
      .select({
        driverId: rides.driverId,
        fromLocation: rides.fromLocation,
        toLocation: rides.toLocation,
        date: rides.date,
        time: rides.time,
        fromLat: rides.fromLat,
        fromLng: rides.fromLng,
        toLat: rides.toLat,
        toLng: rides.toLng,
        viaPlaceIds: rides.viaPlaceIds,
        departsAt: rides.departsAt,
        maxDetourMinutes: sql<
          number | null
        >`(SELECT ${userProfiles.maxDetourMinutes} FROM ${userProfiles} WHERE ${userProfiles.userId} = ${rides.driverId})`,
        ...seatFactColumns(riderId, now),
      })
      .from(rides)
      // A community ride an outsider may not see is "not found": refused before anything is written.
      .where(and(eq(rides.id, rideId), maySeeRide(riderId, { withRequests: true })))
      .limit(1),
    db.select({ fullName: userProfiles.fullName }).from(userProfiles).where(eq(userProfiles.userId, riderId)).limit(1),
  ]);
  const r = ride[0];
  if (!r) throw new NotFoundError("Ride not found");
  const refused = seatRefusal(seatFactsOf(r), input.seats, now);
  if (refused) throw seatError(refused);
  const pickupPlaceId = pickupPlaceOf(r, input.pickup ?? null);
  const id = newId();
  const name = rider[0]?.fullName ?? "A rider";
  let inserted: { id: string }[];
  try {
    [inserted] = await db.batch([
      // Inserted only while the seat rule still holds (a completion, a lock, a block or the
      // departure may have happened since the read above); the notification only if it was.
      db
        .insert(rideRequests)
        .select(
          // In the table's column order: the pickup point (migration 0034), the trip marks (0036),
          // the pickup code (0041: NULL here, the insert trigger makes it).
          sql`SELECT ${id}, ${rideId}, ${riderId}, ${input.seats}, 'pending', ${input.notes}, ${now}, NULL, NULL, NULL, NULL,
            (SELECT ${shownMaxSql(input.seats)} FROM rides WHERE rides.id = ${rideId}), ${pickupPlaceId}, NULL, NULL, NULL
          WHERE EXISTS (SELECT 1 FROM rides WHERE rides.id = ${rideId} AND ${seatRule(riderId, input.seats, now)})`,
        )
        .returning({ id: rideRequests.id }),
      notificationInsertIfChanged(
        db,
        {
          userId: r.driverId,
          type: "ride_request",
          title: "New ride request",
          message: `${name} requested ${plural(input.seats, "seat")} on your ride from ${r.fromLocation} to ${r.toLocation}.`,
          data: {
            ride_id: rideId,
            request_id: id,
            seats: input.seats,
            from: r.fromLocation,
            to: r.toLocation,
            date: r.date,
            time: r.time,
          },
        },
        now,
      ),
    ]);
  } catch (e) {
    if (isUniqueViolation(e)) throw new ConflictError(DUPLICATE_REQUEST);
    throw e;
  }
  if (inserted.length === 0) {
    const why = await refusalNow(db, rideId, riderId, input.seats, now, "rider");
    throw seatError(why ?? { kind: "closed", message: "This ride is no longer available." });
  }
  return { id, audience: audience([r.driverId]) };
}

/** The error a seat refusal is shown as (a capacity refusal names the seats left). */
export function seatError(refused: SeatRefusal) {
  if (refused.kind === "full") return new SeatsUnavailableError(refused.available ?? 0);
  if (refused.kind === "own") return new ForbiddenError(refused.message);
  return new ConflictError(refused.message);
}

/** After a guarded write changed nothing: the seat rule's reason as the ride is now. */
async function refusalNow(
  db: Db,
  rideId: string,
  riderId: string,
  seats: number,
  now: number,
  actor: "rider" | "driver",
) {
  const row = await db.select(seatFactColumns(riderId, now)).from(rides).where(eq(rides.id, rideId)).get();
  return row ? seatRefusal(seatFactsOf(row), seats, now, actor) : null;
}

async function loadRequestWithRide(db: Db, requestId: string, now = Date.now()) {
  const driver = alias(userProfiles, "driver_profile");
  return db
    .select({
      id: rideRequests.id,
      riderId: rideRequests.riderId,
      seats: rideRequests.seats,
      status: rideRequests.status,
      rideId: rides.id,
      driverId: rides.driverId,
      rideStatus: rides.status,
      rideSeats: rides.seats,
      bookedSeats: rides.bookedSeats,
      departsAt: rides.departsAt,
      fromLocation: rides.fromLocation,
      toLocation: rides.toLocation,
      date: rides.date,
      time: rides.time,
      driverName: driver.fullName,
      riderName: userProfiles.fullName,
      // The seat rule's facts for this rider on this ride, as they are now (decideRequest).
      ...seatFactColumns(sql.raw("ride_requests.rider_id"), now),
    })
    .from(rideRequests)
    .innerJoin(rides, eq(rides.id, rideRequests.rideId))
    .leftJoin(driver, eq(driver.userId, rides.driverId))
    .leftJoin(userProfiles, eq(userProfiles.userId, rideRequests.riderId))
    .where(eq(rideRequests.id, requestId))
    .get();
}

/**
 * The driver accepts or rejects a pending request. Accepting takes the seats only if they
 * fit, and the database decides that (see docs/decisions/0007-seat-capacity.md):
 *   1. the request becomes accepted only WHERE it is still pending AND the ride is active
 *      AND booked_seats + seats <= rides.seats (one guarded UPDATE);
 *   2. the rider's notification is inserted only if (1) changed a row (changes() = 1);
 *   3. booked_seats is recomputed from the accepted requests.
 * D1 runs a batch as one transaction, batches one after another, so two accepts can never
 * both see room for the last seat; the CHECK (booked_seats <= seats) would abort the batch
 * if anything else ever tried.
 */
export async function decideRequest(
  { db }: ModelCtx,
  driverId: string,
  requestId: string,
  decision: "accepted" | "rejected",
  now = Date.now(),
) {
  const req = await loadRequestWithRide(db, requestId, now);
  if (!req) throw new NotFoundError("Request not found");
  if (req.driverId !== driverId)
    throw new ForbiddenError("Only the driver can accept or reject requests for this ride.");
  const closed = requestsClosedReason({ status: req.rideStatus, departsAt: req.departsAt }, now);
  if (closed) throw new ConflictError(closed);
  if (req.status !== "pending") throw new ConflictError(NOT_PENDING);
  const refused = decision === "accepted" ? seatRefusal(seatFactsOf(req), req.seats, now, "driver") : null;
  if (refused) throw seatError(refused);
  const route = `${req.fromLocation} → ${req.toLocation}`;
  const notification: NewNotification = {
    userId: req.riderId,
    type: "ride_update",
    title: decision === "accepted" ? "Request accepted" : "Request rejected",
    message: `${req.driverName ?? "The driver"} ${decision} your request for ${route}.`,
    data: { ride_id: req.rideId, request_id: req.id, status: decision },
  };
  if (decision === "rejected") {
    const [updated] = await db.batch([
      db
        .update(rideRequests)
        .set({ status: "rejected", decidedAt: now })
        .where(and(eq(rideRequests.id, requestId), eq(rideRequests.status, "pending"), rideOpen(req.rideId, now)))
        .returning({ id: rideRequests.id }),
      notificationInsertIfChanged(db, notification, now),
    ]);
    if (updated.length === 0) throw await refusal(db, requestId, now, () => NOT_PENDING);
    return { status: "rejected" as const, audience: audience([req.riderId]) };
  }
  const [updated] = await db.batch([
    db
      .update(rideRequests)
      .set({ status: "accepted", decidedAt: now })
      .where(
        and(
          eq(rideRequests.id, requestId),
          eq(rideRequests.status, "pending"),
          // The seat rule, again at accept time (a lock, a block, a suspension or a removal
          // since the request was made refuses it), in the same statement as the capacity.
          sql`EXISTS (SELECT 1 FROM rides WHERE rides.id = ${req.rideId} AND ${seatRule(req.riderId, req.seats, now)})`,
        ),
      )
      .returning({ id: rideRequests.id }),
    notificationInsertIfChanged(db, notification, now),
    recomputeBookedSeats(db, req.rideId),
  ]);
  if (updated.length === 0) {
    const after = await loadRequestWithRide(db, requestId, now);
    if (!after) throw new NotFoundError("Request not found");
    const closedNow = requestsClosedReason({ status: after.rideStatus, departsAt: after.departsAt }, now);
    if (closedNow) throw new ConflictError(closedNow);
    if (after.status !== "pending") throw new ConflictError(NOT_PENDING);
    throw seatError(
      seatRefusal(seatFactsOf(after), after.seats, now, "driver") ?? {
        kind: "full",
        message: RIDE_FULL,
        available: Math.max(0, after.rideSeats - after.bookedSeats),
      },
    );
  }
  return { status: "accepted" as const, audience: audience([req.riderId]) };
}

/**
 * The passenger cancels their own request: a pending one at any time; an accepted seat up
 * to 2 hours before departure (the seats are released and the driver notified, in one batch).
 */
export async function cancelRequest({ db }: ModelCtx, riderId: string, requestId: string, now = Date.now()) {
  const req = await loadRequestWithRide(db, requestId);
  if (!req) throw new NotFoundError("Request not found");
  if (req.riderId !== riderId) throw new ForbiddenError("Only the passenger can cancel this request.");
  const closed = requestsClosedReason({ status: req.rideStatus, departsAt: req.departsAt }, now);
  if (closed) throw new ConflictError(closed);
  if (req.status === "pending") {
    const [updated] = await db.batch([
      db
        .update(rideRequests)
        .set({ status: "cancelled", cancelledAt: now })
        .where(and(eq(rideRequests.id, requestId), eq(rideRequests.status, "pending"), rideOpen(req.rideId, now)))
        .returning({ id: rideRequests.id }),
    ]);
    if (updated.length === 0) throw await refusal(db, requestId, now, () => NOT_PENDING);
    return { was: "pending" as const, audience: audience([], [req.driverId]) };
  }
  if (req.status !== "accepted") throw new ConflictError("This request can no longer be cancelled.");
  if (req.departsAt - now < CANCEL_WINDOW_MS) throw new ConflictError(LATE_CANCELLATION);
  const [updated] = await db.batch([
    db
      .update(rideRequests)
      .set({ status: "cancelled", cancelledAt: now })
      .where(
        and(
          eq(rideRequests.id, requestId),
          eq(rideRequests.status, "accepted"),
          sql`EXISTS (SELECT 1 FROM ${rides} WHERE ${rides.id} = ${req.rideId} AND ${rides.status} = 'active' AND ${rides.departsAt} - ${now} >= ${CANCEL_WINDOW_MS})`,
        ),
      )
      .returning({ id: rideRequests.id }),
    notificationInsertIfChanged(
      db,
      {
        userId: req.driverId,
        type: "ride_update",
        title: "Seat cancelled",
        message: `${req.riderName ?? "A passenger"} cancelled ${plural(req.seats, "seat")} on your ride from ${req.fromLocation} to ${req.toLocation}.`,
        data: { ride_id: req.rideId, request_id: req.id, status: "cancelled", seats: req.seats },
      },
      now,
    ),
    recomputeBookedSeats(db, req.rideId),
  ]);
  if (updated.length === 0)
    throw await refusal(db, requestId, now, (after) =>
      after.status === "accepted" ? LATE_CANCELLATION : "This request can no longer be cancelled.",
    );
  return { was: "accepted" as const, audience: audience([req.driverId]) };
}

/** A request for the booking confirmation page: only its rider and the ride's driver may read it. */
export async function getRequestForViewer({ db }: ModelCtx, viewerId: string, requestId: string) {
  const driver = alias(userProfiles, "driver_profile");
  const row = await db
    .select({
      id: rideRequests.id,
      riderId: rideRequests.riderId,
      seats: rideRequests.seats,
      quotedPaise: rideRequests.quotedPaise,
      status: rideRequests.status,
      notes: rideRequests.notes,
      createdAt: rideRequests.createdAt,
      decidedAt: rideRequests.decidedAt,
      rideId: rides.id,
      driverId: rides.driverId,
      rideStatus: rides.status,
      fromLocation: rides.fromLocation,
      toLocation: rides.toLocation,
      date: rides.date,
      time: rides.time,
      departsAt: rides.departsAt,
      rideSeats: rides.seats,
      bookedSeats: rides.bookedSeats,
      tripCostPaise: rides.tripCostPaise,
      pricingMode: rides.pricingMode,
      communityId: rides.communityId,
      vehicleType: rides.vehicleType,
      communityName: communities.name,
      driverName: driver.fullName,
      driverAvatarUrl: driver.avatarUrl,
      driverRatingCount: driver.ratingCount,
      driverRatingStars: driver.ratingStars,
      riderName: userProfiles.fullName,
      saved: sql<number>`${savedRides.rideId} IS NOT NULL`.mapWith(Boolean),
    })
    .from(rideRequests)
    .innerJoin(rides, eq(rides.id, rideRequests.rideId))
    .leftJoin(driver, eq(driver.userId, rides.driverId))
    .leftJoin(userProfiles, eq(userProfiles.userId, rideRequests.riderId))
    .leftJoin(communities, eq(communities.id, rides.communityId))
    .leftJoin(savedRides, and(eq(savedRides.rideId, rides.id), eq(savedRides.userId, viewerId)))
    .where(eq(rideRequests.id, requestId))
    .get();
  if (!row || (row.riderId !== viewerId && row.driverId !== viewerId)) throw new NotFoundError("Booking not found");
  return row;
}

/** How far back the departure sweep looks (it runs every few minutes; this covers missed runs). */
export const EXPIRY_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * One "Request expired" notification to the rider of each request row `from` matches
 * (`FROM ride_requests … WHERE …`), for the batch that expires them.
 */
export function requestExpiredNotifications(db: Db, message: string | SQL, from: SQL, now: number) {
  return notificationInsert(
    db,
    {
      id: PER_ROW_ID,
      userId: sql`${rideRequests.riderId}`,
      type: "ride_update",
      title: "Request expired",
      message,
      data: sql`json_object('ride_id', ${rideRequests.rideId}, 'request_id', ${rideRequests.id}, 'status', 'expired')`,
    },
    now,
    from,
  );
}

/**
 * Closes the pending requests of active rides that have departed (the Cron Trigger calls it
 * every 5 minutes; requests, accepts and cancels refuse departed rides by themselves, so this
 * only makes the status and the badges say so). Each rider is told, in the same batch.
 * Uses rides_discover_idx (status, departs_at) and ride_requests_ride_idx.
 */
export async function expireDepartedRequests({ db }: ModelCtx, now = Date.now()) {
  const departed = sql`${rideRequests.rideId} IN (SELECT ${rides.id} FROM ${rides} WHERE ${rides.status} = 'active' AND ${rides.departsAt} > ${now - EXPIRY_LOOKBACK_MS} AND ${rides.departsAt} <= ${now})`;
  const [, expired] = await db.batch([
    requestExpiredNotifications(
      db,
      sql`'Your request for ' || ${rides.fromLocation} || ' → ' || ${rides.toLocation} || ' expired: the ride departed before the driver answered it.'`,
      sql`FROM ${rideRequests} JOIN ${rides} ON ${rides.id} = ${rideRequests.rideId}
      WHERE ${rideRequests.status} = 'pending' AND ${departed}`,
      now,
    ),
    db
      .update(rideRequests)
      .set({ status: "expired", decidedAt: now })
      .where(and(eq(rideRequests.status, "pending"), departed))
      .returning({ riderId: rideRequests.riderId, rideId: rideRequests.rideId }),
  ]);
  return expired;
}
