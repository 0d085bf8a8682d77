import { and, asc, count, desc, eq, gte, isNotNull, lt, ne, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { communities, communityMembers, notifications, rideRequests, rides, savedRides, userProfiles } from "../../db/schema";
import { newId } from "../domain/ids";
import { carTypeOf, DISCOVER_PAGE_SIZE, suggestTripCost } from "../domain/rides";
import { addDays, istToInstant } from "../domain/time";
import type { CreateRideInput, DiscoverFilters } from "../schemas/rides";
import type { Db } from "../utils/db.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";

type Ctx = { db: Db };

export const PROFILE_MISSING = "User profile not found. Please complete your profile first.";
export const NOT_A_MEMBER = "You can only share a ride with a community you are an approved member of.";

const rideColumns = {
  id: rides.id,
  driverId: rides.driverId,
  communityId: rides.communityId,
  fromLocation: rides.fromLocation,
  toLocation: rides.toLocation,
  date: rides.date,
  time: rides.time,
  departsAt: rides.departsAt,
  seats: rides.seats,
  bookedSeats: rides.bookedSeats,
  tripCostPaise: rides.tripCostPaise,
  distanceKm: rides.distanceKm,
  notes: rides.notes,
  vehicleType: rides.vehicleType,
  status: rides.status,
};

/** What the create form needs: the driver's car (for the suggestion) and their communities. */
export async function getCreateRideContext({ db }: Ctx, userId: string) {
  const [profile, mine] = await db.batch([
    db.select({ vehicleInfo: userProfiles.vehicleInfo }).from(userProfiles).where(eq(userProfiles.userId, userId)).limit(1),
    db
      .select({ id: communities.id, name: communities.name, type: communities.type })
      .from(communityMembers)
      .innerJoin(communities, eq(communities.id, communityMembers.communityId))
      .where(and(eq(communityMembers.userId, userId), eq(communityMembers.status, "approved")))
      .orderBy(communities.name),
  ]);
  return { hasProfile: profile.length > 0, carType: carTypeOf(profile[0]?.vehicleInfo), communities: mine };
}

/**
 * Publishes a ride for the acting user. Needs a profile; a shared community must be one
 * the user is an approved member of. Dates were validated (IST) by the schema.
 */
export async function createRide({ db }: Ctx, driverId: string, input: CreateRideInput, now = Date.now()) {
  const [profile, membership] = await db.batch([
    db.select({ vehicleInfo: userProfiles.vehicleInfo }).from(userProfiles).where(eq(userProfiles.userId, driverId)).limit(1),
    db
      .select({ id: communityMembers.id })
      .from(communityMembers)
      .where(
        and(
          eq(communityMembers.userId, driverId),
          eq(communityMembers.communityId, input.communityId ?? ""),
          eq(communityMembers.status, "approved"),
        ),
      )
      .limit(1),
  ]);
  if (profile.length === 0) throw new NotFoundError(PROFILE_MISSING);
  if (input.communityId && membership.length === 0) throw new ForbiddenError(NOT_A_MEMBER);
  const vehicle = profile[0].vehicleInfo;
  const suggestion = suggestTripCost(input.fromLocation, input.toLocation, carTypeOf(vehicle));
  const id = newId();
  await db.insert(rides).values({
    id,
    driverId,
    communityId: input.communityId,
    fromLocation: input.fromLocation,
    toLocation: input.toLocation,
    date: input.date,
    time: input.time,
    departsAt: istToInstant(input.date, input.time),
    seats: input.seats,
    bookedSeats: 0,
    tripCostPaise: input.tripCost,
    distanceKm: suggestion ? Math.round(suggestion.roadKm) : null,
    notes: input.notes,
    vehicleType: vehicle?.has_car && vehicle.car_type ? vehicle.car_type : null,
    status: "active",
    createdAt: now,
  });
  return { id };
}

/**
 * A column under its own name. D1 returns batch rows as objects keyed by column name, so
 * two selected columns with the same name (ride_requests.seats and rides.seats) would
 * collide and shift every value after them; batched joins alias the duplicates.
 */
const aliased = <T>(col: SQLiteColumn, name: string) => sql<T>`${col}`.as(name);

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The WHERE of discover. Always `status = 'active' AND departs_at >= now` (so SQLite walks
 * rides_discover_idx by departure), never the viewer's own rides.
 */
function discoverWhere(viewerId: string, f: DiscoverFilters | null, now: number) {
  const where: SQL[] = [eq(rides.status, "active"), gte(rides.departsAt, now), ne(rides.driverId, viewerId)];
  if (!f) return and(...where)!;
  if (f.q) {
    const like = `%${likeEscape(f.q.toLowerCase())}%`;
    where.push(
      or(
        sql`lower(${rides.fromLocation}) LIKE ${like} ESCAPE '\\'`,
        sql`lower(${rides.toLocation}) LIKE ${like} ESCAPE '\\'`,
      )!,
    );
  }
  // Cost per seat (trip cost / seats) at most the slider's rupees; 50 means no limit.
  if (f.maxCost < 50) where.push(sql`${rides.tripCostPaise} <= ${f.maxCost * 100} * ${rides.seats}`);
  if (f.community) where.push(isNotNull(rides.communityId));
  if (f.date) {
    where.push(gte(rides.departsAt, istToInstant(f.date)), lt(rides.departsAt, istToInstant(addDays(f.date, 1))));
  }
  return and(...where)!;
}

/** The discover page query (exported so a test can EXPLAIN it). */
export function discoverPageQuery(db: Db, viewerId: string, f: DiscoverFilters, now = Date.now()) {
  return db
    .select({
      ...rideColumns,
      driverName: userProfiles.fullName,
      driverAvatarUrl: userProfiles.avatarUrl,
      communityName: communities.name,
      saved: sql<number>`${savedRides.rideId} IS NOT NULL`.mapWith(Boolean),
    })
    .from(rides)
    .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
    .leftJoin(communities, eq(communities.id, rides.communityId))
    .leftJoin(savedRides, and(eq(savedRides.rideId, rides.id), eq(savedRides.userId, viewerId)))
    .where(discoverWhere(viewerId, f, now))
    .orderBy(asc(rides.departsAt), asc(rides.id))
    .limit(DISCOVER_PAGE_SIZE + 1)
    .offset((f.page - 1) * DISCOVER_PAGE_SIZE);
}

/** Discover Rides: one page of upcoming rides, the filtered count and the real stats, in one round trip. */
export async function discoverRides({ db }: Ctx, viewerId: string, f: DiscoverFilters, now = Date.now()) {
  const [page, found, stats] = await db.batch([
    discoverPageQuery(db, viewerId, f, now),
    db.select({ n: count() }).from(rides).where(discoverWhere(viewerId, f, now)),
    db
      .select({
        rides: count(),
        seatsOpen: sql<number>`coalesce(sum(${rides.seats} - ${rides.bookedSeats}), 0)`.mapWith(Number),
        bookedSeats: sql<number>`coalesce(sum(${rides.bookedSeats}), 0)`.mapWith(Number),
      })
      .from(rides)
      .where(discoverWhere(viewerId, null, now)),
  ]);
  return {
    rides: page.slice(0, DISCOVER_PAGE_SIZE),
    hasMore: page.length > DISCOVER_PAGE_SIZE,
    found: found[0]?.n ?? 0,
    stats: stats[0] ?? { rides: 0, seatsOpen: 0, bookedSeats: 0 },
  };
}

export type DiscoverRide = Awaited<ReturnType<typeof discoverRides>>["rides"][number];

/**
 * A ride with its driver, and the requests the viewer may see: all of them for the
 * driver, only their own for anyone else. One round trip.
 */
export async function getRideDetail({ db }: Ctx, viewerId: string, rideId: string) {
  const [ride, requests, saved] = await db.batch([
    db
      .select({ ...rideColumns, driverName: userProfiles.fullName, driverAvatarUrl: userProfiles.avatarUrl, communityName: communities.name })
      .from(rides)
      .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
      .leftJoin(communities, eq(communities.id, rides.communityId))
      .where(eq(rides.id, rideId))
      .limit(1),
    db
      .select({
        id: rideRequests.id,
        riderId: rideRequests.riderId,
        seats: rideRequests.seats,
        status: rideRequests.status,
        notes: rideRequests.notes,
        createdAt: rideRequests.createdAt,
        riderName: userProfiles.fullName,
        riderAvatarUrl: userProfiles.avatarUrl,
      })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .leftJoin(userProfiles, eq(userProfiles.userId, rideRequests.riderId))
      .where(and(eq(rideRequests.rideId, rideId), or(eq(rides.driverId, viewerId), eq(rideRequests.riderId, viewerId))))
      .orderBy(desc(rideRequests.createdAt))
      .limit(200),
    db.select({ n: count() }).from(savedRides).where(and(eq(savedRides.rideId, rideId), eq(savedRides.userId, viewerId))),
  ]);
  if (!ride[0]) return null;
  const isDriver = ride[0].driverId === viewerId;
  return {
    ride: ride[0],
    isDriver,
    requests: isDriver ? requests : [],
    myRequest: isDriver ? null : requests.find((r) => r.status === "pending" || r.status === "accepted") ?? null,
    saved: (saved[0]?.n ?? 0) > 0,
  };
}

/** A ride for the booking form; null when it does not exist. */
export async function getRideForBooking({ db }: Ctx, rideId: string) {
  const row = await db
    .select({ ...rideColumns, driverName: userProfiles.fullName, driverAvatarUrl: userProfiles.avatarUrl })
    .from(rides)
    .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
    .where(eq(rides.id, rideId))
    .get();
  return row ?? null;
}

/**
 * The driver cancels the whole ride: it becomes cancelled, every pending or accepted
 * request is cancelled with it and each of those riders is notified, in one batch.
 */
export async function cancelRide({ db }: Ctx, driverId: string, rideId: string, now = Date.now()) {
  const ride = await db
    .select({ driverId: rides.driverId, status: rides.status, fromLocation: rides.fromLocation, toLocation: rides.toLocation, date: rides.date, time: rides.time })
    .from(rides)
    .where(eq(rides.id, rideId))
    .get();
  if (!ride) throw new NotFoundError("Ride not found");
  if (ride.driverId !== driverId) throw new ForbiddenError("Only the driver can cancel this ride.");
  if (ride.status !== "active") throw new ConflictError("Only an active ride can be cancelled.");
  const stillActive = sql`EXISTS (SELECT 1 FROM rides WHERE rides.id = ${rideId} AND rides.status = 'active')`;
  const message = `The ride from ${ride.fromLocation} to ${ride.toLocation} was cancelled by the driver.`;
  const [, cancelledRequests] = await db.batch([
    db.insert(notifications).select(
      sql`SELECT lower(hex(randomblob(8))), ${rideRequests.riderId}, 'ride_update', 'Ride cancelled', ${message},
        json_object('ride_id', ${rideRequests.rideId}, 'request_id', ${rideRequests.id}, 'status', 'cancelled', 'from', ${ride.fromLocation}, 'to', ${ride.toLocation}, 'date', ${ride.date}, 'time', ${ride.time}),
        0, ${now}
      FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rideId} AND ${rideRequests.status} IN ('pending', 'accepted') AND ${stillActive}`,
    ),
    db
      .update(rideRequests)
      .set({ status: "cancelled", cancelledAt: now })
      .where(and(eq(rideRequests.rideId, rideId), sql`${rideRequests.status} IN ('pending', 'accepted')`, stillActive))
      .returning({ riderId: rideRequests.riderId }),
    db
      .update(rides)
      .set({ status: "cancelled", cancelledAt: now, bookedSeats: 0 })
      .where(and(eq(rides.id, rideId), eq(rides.status, "active"), eq(rides.driverId, driverId))),
  ]);
  return { notified: cancelledRequests.map((r) => r.riderId), others: [driverId] };
}

/** My Rides: created rides, booked rides and the requests on my active rides, in one round trip. */
export async function getMyRides({ db }: Ctx, userId: string) {
  const [created, booked, incoming] = await db.batch([
    db
      .select({ ...rideColumns, driverName: userProfiles.fullName, driverAvatarUrl: userProfiles.avatarUrl })
      .from(rides)
      .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
      .where(eq(rides.driverId, userId))
      .orderBy(desc(rides.departsAt))
      .limit(100),
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
        tripCostPaise: rides.tripCostPaise,
        rideSeats: aliased<number>(rides.seats, "ride_seats_"),
        driverName: userProfiles.fullName,
        driverAvatarUrl: userProfiles.avatarUrl,
      })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
      .where(eq(rideRequests.riderId, userId))
      .orderBy(desc(rideRequests.createdAt))
      .limit(100),
    db
      .select({
        id: rideRequests.id,
        riderId: rideRequests.riderId,
        seats: rideRequests.seats,
        status: rideRequests.status,
        notes: rideRequests.notes,
        createdAt: rideRequests.createdAt,
        riderName: userProfiles.fullName,
        riderAvatarUrl: userProfiles.avatarUrl,
        hasProfile: sql<number>`${userProfiles.userId} IS NOT NULL`.mapWith(Boolean),
        rideId: aliased<string>(rides.id, "ride_id_"),
        fromLocation: rides.fromLocation,
        toLocation: rides.toLocation,
        date: rides.date,
        time: rides.time,
        tripCostPaise: rides.tripCostPaise,
        rideSeats: aliased<number>(rides.seats, "ride_seats_"),
        bookedSeats: rides.bookedSeats,
      })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .leftJoin(userProfiles, eq(userProfiles.userId, rideRequests.riderId))
      .where(and(eq(rides.driverId, userId), eq(rides.status, "active")))
      .orderBy(desc(rideRequests.createdAt))
      .limit(200),
  ]);
  return { created, booked, incoming };
}

export type IncomingRequest = Awaited<ReturnType<typeof getMyRides>>["incoming"][number];
