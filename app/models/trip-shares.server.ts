import { and, eq, isNull, sql } from "drizzle-orm";
import { rideRequests, rides, tripShares, userProfiles } from "../../db/schema";
import { newId, randomToken, sha256Hex } from "../domain/ids";
import { firstNameOf, shareEndsAt } from "../domain/trip";
import type { ModelCtx } from "./context.server";
import { viaPlaces } from "./places.server";
import { ridePoints } from "./ride-columns.server";
import { ConflictError, NotFoundError } from "./errors.server";
import { isOnTrip, maySeeRide } from "./permissions.server";

// Share my trip (issue 37, item 3): a link for someone without an account. The token is
// 256 random bits; only its SHA-256 is stored, like password resets and calendar feeds.

export const SHARE_ENDED = "This trip is over, so it can no longer be shared.";
export const NOT_ON_TRIP = "Only the driver and riders with an accepted seat can share this trip.";

/** The ride's times that decide how long its links live, for the `rides` row of `rideId`. */
async function sharedRide({ db }: ModelCtx, userId: string, rideId: string) {
  const ride = await db
    .select({
      status: rides.status,
      departsAt: rides.departsAt,
      tripEndedAt: rides.tripEndedAt,
      completedAt: rides.completedAt,
      onTrip: sql<number>`${isOnTrip(userId)}`,
    })
    .from(rides)
    .where(and(eq(rides.id, rideId), maySeeRide(userId, { withRequests: true })))
    .get();
  if (!ride) throw new NotFoundError("Ride not found");
  if (!ride.onTrip) throw new NotFoundError(NOT_ON_TRIP);
  return ride;
}

/** Refuses when the person is not on the trip or its links would already be dead. */
export async function assertShareable(ctx: ModelCtx, userId: string, rideId: string, now: number) {
  const ride = await sharedRide(ctx, userId, rideId);
  if (now >= shareEndsAt(ride)) throw new ConflictError(SHARE_ENDED);
}

/** The insert of a share row (an alert's has no token until its e-mail is sent). */
export const shareInsert = (ctx: ModelCtx, row: typeof tripShares.$inferInsert) =>
  ctx.db.insert(tripShares).values(row);

/** A new link to the trip; returns its token (shown once, never stored). */
export async function createTripShare(ctx: ModelCtx, userId: string, rideId: string, now = Date.now()) {
  await assertShareable(ctx, userId, rideId, now);
  const token = randomToken();
  const id = newId();
  await shareInsert(ctx, { id, rideId, userId, tokenHash: await sha256Hex(token), via: "link", createdAt: now });
  return { id, token };
}

/** Its creator ends a link at once. */
export async function revokeTripShare({ db }: ModelCtx, userId: string, shareId: string, now = Date.now()) {
  const done = await db
    .update(tripShares)
    .set({ revokedAt: now })
    .where(and(eq(tripShares.id, shareId), eq(tripShares.userId, userId), isNull(tripShares.revokedAt)))
    .returning({ id: tripShares.id });
  if (done.length === 0) throw new NotFoundError("This link does not exist or was already revoked.");
}

/**
 * Mints the token of an alert's link when its e-mail is sent (so the outbox never holds it).
 * A retried send mints a new one: only the last e-mail's link works. Null when revoked.
 */
export async function mintShareToken({ db }: ModelCtx, shareId: string): Promise<string | null> {
  const token = randomToken();
  const done = await db
    .update(tripShares)
    .set({ tokenHash: await sha256Hex(token) })
    .where(and(eq(tripShares.id, shareId), isNull(tripShares.revokedAt)))
    .returning({ id: tripShares.id });
  return done.length ? token : null;
}

/** The viewer's links to this ride that still work (the ride page lists them with Revoke). */
export const ownSharesQuery = ({ db }: ModelCtx, userId: string, rideId: string) =>
  db
    .select({ id: tripShares.id, via: tripShares.via, createdAt: tripShares.createdAt })
    .from(tripShares)
    .where(and(eq(tripShares.userId, userId), eq(tripShares.rideId, rideId), isNull(tripShares.revokedAt)))
    .orderBy(tripShares.createdAt)
    .limit(20);

/**
 * What a share link shows: the ride's places and times, the driver's first name and photo,
 * the car (model, colour, registration if the profile has them) and the trip's status: no
 * surnames, phones, e-mails or other riders. A wrong, revoked or expired token is a 404.
 */
export async function getSharedTrip({ db }: ModelCtx, token: string, now = Date.now()) {
  if (!/^[0-9a-f]{64}$/.test(token)) throw new NotFoundError("Link not found");
  const hash = await sha256Hex(token);
  const row = await db
    .select({
      rideId: rides.id,
      fromLocation: rides.fromLocation,
      toLocation: rides.toLocation,
      ...ridePoints,
      viaPlaceIds: rides.viaPlaceIds,
      date: rides.date,
      time: rides.time,
      status: rides.status,
      departsAt: rides.departsAt,
      completedAt: rides.completedAt,
      tripStartedAt: rides.tripStartedAt,
      tripEndedAt: rides.tripEndedAt,
      driverId: rides.driverId,
      driverFullName: userProfiles.fullName,
      driverAvatarKey: userProfiles.avatarKey,
      vehicle: userProfiles.vehicleInfo,
      sharerId: tripShares.userId,
      // The sharer's own boarding, when a rider shared it (others' stays theirs).
      sharerPickedUpAt: sql<number | null>`(SELECT rq.picked_up_at FROM ${rideRequests} rq
        WHERE rq.ride_id = ${rides.id} AND rq.rider_id = ${tripShares.userId} AND rq.status = 'accepted')`,
      sharerDroppedAt: sql<number | null>`(SELECT rq.dropped_at FROM ${rideRequests} rq
        WHERE rq.ride_id = ${rides.id} AND rq.rider_id = ${tripShares.userId} AND rq.status = 'accepted')`,
      // The sharer is still on the trip (a rider who cancelled shares nothing any more).
      onTrip: sql<number>`(${rides.driverId} = ${tripShares.userId} OR EXISTS (SELECT 1 FROM ${rideRequests} rq
        WHERE rq.ride_id = ${rides.id} AND rq.rider_id = ${tripShares.userId} AND rq.status = 'accepted'))`,
    })
    .from(tripShares)
    .innerJoin(rides, eq(rides.id, tripShares.rideId))
    .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
    .where(and(eq(tripShares.tokenHash, hash), isNull(tripShares.revokedAt)))
    .get();
  if (!row || !row.onTrip || now >= shareEndsAt(row)) throw new NotFoundError("Link not found");
  const v = row.vehicle ?? {};
  const car = [v.make, v.model].filter(Boolean).join(" ").trim();
  return {
    rideId: row.rideId,
    fromLocation: row.fromLocation,
    toLocation: row.toLocation,
    // The ride's own route for the map (issue 36): its ends and vias, never a rider's pickup.
    route: {
      from: point(row.fromLocation, row.fromLat, row.fromLng),
      to: point(row.toLocation, row.toLat, row.toLng),
      vias: viaPlaces(row.viaPlaceIds).map(({ name, lat, lng }) => ({ name, lat, lng })),
    },
    date: row.date,
    time: row.time,
    cancelled: row.status === "cancelled",
    tripStartedAt: row.tripStartedAt,
    tripEndedAt: row.tripEndedAt ?? (row.status === "completed" ? row.completedAt : null),
    driverFirstName: firstNameOf(row.driverFullName),
    // Only an uploaded photo is served (through the link itself); else initials.
    hasPhoto: Boolean(row.driverAvatarKey),
    car: { model: car || null, colour: v.color?.trim() || null, registration: v.license_plate?.trim() || null },
    sharedByRider: row.sharerId !== row.driverId,
    sharerPickedUpAt: row.sharerPickedUpAt,
    sharerDroppedAt: row.sharerDroppedAt,
    endsAt: shareEndsAt(row),
  };
}

const point = (name: string, lat: number | null, lng: number | null) =>
  lat === null || lng === null ? null : { name, lat, lng };

/** The driver's uploaded photo for a live share link (else null: the page shows initials). */
export async function getSharedTripPhoto(
  ctx: ModelCtx & { env: { AVATARS: R2Bucket } },
  token: string,
  now = Date.now(),
) {
  const trip = await getSharedTrip(ctx, token, now);
  const row = await ctx.db
    .select({ key: userProfiles.avatarKey })
    .from(rides)
    .innerJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
    .where(eq(rides.id, trip.rideId))
    .get();
  return row?.key ? ctx.env.AVATARS.get(row.key) : null;
}
