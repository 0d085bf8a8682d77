import { and, count, desc, eq, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { communities, rideRequests, rides, savedRides, userProfiles } from "../../db/schema";
import { pickupOnRoute } from "../domain/ride-match";
import { pickupOrder, placeById, rideRoute, viaPlaces } from "./places.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { notificationInsert, PER_ROW_ID } from "./notifications.server";
import { type ModelCtx, audience } from "./context.server";
import type { Db } from "./db.server";
import { builtListOnce, type Preparable, type RowsOf, runReads } from "./statements.server";
import { istDate } from "../domain/time";
import { workplaceBadge } from "./work-email.server";
import {
  isWoman,
  maySeeRide,
  SEATS_LOCKED_TO_WOMEN,
  seatFactColumns,
  seatRefusal,
  splitSeatFacts,
} from "./permissions.server";
import { requestWithRider, rideColumns, ridePoints, withFairSeat } from "./ride-columns.server";
import { communityPickupIds, pickupChoices } from "./ride-requests.server";

// One ride: its page, its booking form, and the driver's lock of the remaining seats to women.

export const LOCK_NEEDS_WOMAN =
  "You can lock the remaining seats to women once a woman has booked a seat on this ride.";

/** The values a ride page's statements bind (builtListOnce): `today` is `now`'s IST date. */
export type RidePageValues = { viewerId: string; rideId: string; now: number; today: string };

/** The page's other reads about the ride (the driver's reliability, the trip), made from its values. */
export type RidePageReads = { key: string; make: (values: RidePageValues) => readonly Preparable[] };

const rideDetailQueries = (db: Db, viewerId: string, rideId: string, now: number) =>
  [
    db
      .select({
        ...rideColumns,
        ...ridePoints,
        driverName: userProfiles.fullName,
        driverAvatarUrl: userProfiles.avatarUrl,
        driverRatingCount: userProfiles.ratingCount,
        driverRatingStars: userProfiles.ratingStars,
        communityName: communities.name,
        driverVerified: workplaceBadge(rides.driverId, rides.communityId),
        ...routeColumns,
        ...seatFactColumns(viewerId, now),
      })
      .from(rides)
      .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
      .leftJoin(communities, eq(communities.id, rides.communityId))
      .where(and(eq(rides.id, rideId), maySeeRide(viewerId, { withRequests: true })))
      .limit(1),
    db
      .select({
        ...requestWithRider,
      })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .leftJoin(userProfiles, eq(userProfiles.userId, rideRequests.riderId))
      .where(and(eq(rideRequests.rideId, rideId), or(eq(rides.driverId, viewerId), eq(rideRequests.riderId, viewerId))))
      .orderBy(desc(rideRequests.createdAt))
      .limit(200),
    db
      .select({ n: count() })
      .from(savedRides)
      .where(and(eq(savedRides.rideId, rideId), eq(savedRides.userId, viewerId))),
    db.select({ open: comfortLockOpen(viewerId, rideId, now) }).from(sql`(SELECT 1)`),
  ] as const;

type DetailQueries = ReturnType<typeof rideDetailQueries>;

/**
 * A ride with its driver, and the requests the viewer may see: all of them for the
 * driver, only their own for anyone else. One round trip. Null (a 404) also when the
 * viewer may not see the ride, so a community ride's existence is not revealed.
 */
export async function getRideDetail(
  { db }: ModelCtx,
  viewerId: string,
  rideId: string,
  now = Date.now(),
  also: RidePageReads = { key: "none", make: () => [] },
) {
  // `also`: the page's other reads about this ride (its driver's reliability), in the same batch.
  // Every statement is built once per isolate (ADR 0069): `also.key` names its list.
  const values: RidePageValues = { viewerId, rideId, now, today: istDate(now) };
  const reads = builtListOnce(db, `ride-detail:${also.key}`, values, (v) => [
    ...rideDetailQueries(db, v.viewerId, v.rideId, v.now),
    ...also.make(v),
  ]);
  const results = await runReads(db, reads);
  const [ride, requests, saved, lockable] = results as unknown as [
    RowsOf<DetailQueries[0]>,
    RowsOf<DetailQueries[1]>,
    RowsOf<DetailQueries[2]>,
    RowsOf<DetailQueries[3]>,
  ];
  const alsoRead = results.slice(4);
  if (!ride[0]) throw new NotFoundError("Ride Not Found");
  const { rest, facts } = splitSeatFacts(ride[0]);
  // The points stay on the ride: its route map draws them (issue 36) and its price label is
  // measured from them (ADR 0054).
  const { viaPlaceIds, maxDetourMinutes, communityPickups: _c, ...shown } = rest;
  const { fromLat, fromLng, toLat, toLng } = shown;
  const isDriver = shown.driverId === viewerId;
  const route = rideRoute({
    fromLat,
    fromLng,
    toLat,
    toLng,
    viaPlaceIds,
    maxDetourMinutes,
    departsAt: shown.departsAt,
  });
  const vias = viaPlaces(viaPlaceIds);
  const myRequest = isDriver ? null : (requests.find((r) => r.status === "pending" || r.status === "accepted") ?? null);
  return {
    ride: { ...withFairSeat(shown), vias: vias.map((p) => p.name) },
    // The driver's pickups in the order of the route (issue 36, item 2): each live request's
    // point and the estimated time there.
    pickups: isDriver ? pickupOrder(shown, route, requests) : [],
    // What the route map draws: the vias, and a rider's own pickup point with its time.
    map: { vias: vias.map(mapPoint), pickup: myRequest ? chosenPickup(route, myRequest.pickupPlaceId) : null },
    // Why the viewer may not ask for a seat (the seat rule), shown instead of the join form.
    joinRefusal: isDriver ? null : (seatRefusal(facts, 1, now)?.message ?? null),
    isDriver,
    requests: isDriver ? requests : [],
    myRequest,
    saved: (saved[0]?.n ?? 0) > 0,
    canLockToWomen: isDriver && Boolean(lockable[0]?.open),
    also: alsoRead as unknown[],
  };
}

/** A ride for the booking form; NotFoundError when it does not exist or the viewer may not see it. */
export async function getRideForBooking(
  { db }: ModelCtx,
  viewerId: string,
  rideId: string,
  now = Date.now(),
  searchedFrom: string | null = null,
) {
  const mine = alias(rideRequests, "mine");
  const row = await db
    .select({
      ...rideColumns,
      ...ridePoints,
      driverName: userProfiles.fullName,
      driverAvatarUrl: userProfiles.avatarUrl,
      // The viewer's live request, if any (one at most: ride_requests_live_unique): the page
      // shows it instead of a form that could only be refused. Aliased: the visibility rule
      // reads ride_requests too, in a subquery.
      myRequestId: mine.id,
      myRequestStatus: sql<"pending" | "accepted" | null>`${mine.status}`,
      ...routeColumns,
      ...seatFactColumns(viewerId, now),
    })
    .from(rides)
    .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
    .leftJoin(
      mine,
      and(eq(mine.rideId, rides.id), eq(mine.riderId, viewerId), sql`${mine.status} IN ('pending','accepted')`),
    )
    .where(and(eq(rides.id, rideId), maySeeRide(viewerId, { withRequests: true })))
    .get();
  if (!row) throw new NotFoundError("Ride not found");
  const { rest, facts } = splitSeatFacts(row);
  const { viaPlaceIds, maxDetourMinutes, communityPickups, ...ride } = rest;
  const { fromLat, fromLng, toLat, toLng } = ride;
  const route = rideRoute({ fromLat, fromLng, toLat, toLng, viaPlaceIds, maxDetourMinutes, departsAt: ride.departsAt });
  // The pickup points a rider may choose (issue 36): the route's places, the community's
  // approved points and the place they searched from, each where the driver can reach it.
  const vias = viaPlaces(viaPlaceIds);
  const names = [
    ride.fromLocation,
    ...vias.map((p) => p.name),
    ...(communityPickups ?? "").split(" ").flatMap((id) => placeById(id)?.name ?? []),
    ...(searchedFrom ? [searchedFrom] : []),
  ];
  const pickups = pickupChoices(route, names);
  // Why the seat rule refuses the viewer one seat (null: it allows it): the page says so instead of a form.
  const refusal = seatRefusal(facts, 1, now)?.message ?? null;
  return { ...withFairSeat(ride), vias: vias.map(mapPoint), pickups, refusal };
}

const mapPoint = ({ name, lat, lng }: { name: string; lat: number; lng: number }) => ({ name, lat, lng });

/** A rider's chosen pickup point (not the start) and the estimated time there, for the map. */
function chosenPickup(route: ReturnType<typeof rideRoute>, pickupPlaceId: string | null) {
  const place = pickupPlaceId ? placeById(pickupPlaceId) : undefined;
  const at = place && route ? pickupOnRoute(route, place) : null;
  return place && at ? { ...mapPoint(place), at: at.pickupAt } : null;
}

/** A ride's route columns and its driver's detour limit (join user_profiles on the driver). */
const routeColumns = {
  fromLat: rides.fromLat,
  fromLng: rides.fromLng,
  toLat: rides.toLat,
  toLng: rides.toLng,
  viaPlaceIds: rides.viaPlaceIds,
  maxDetourMinutes: userProfiles.maxDetourMinutes,
  communityPickups: communityPickupIds(rides.communityId),
};

/** Accepted seats of a woman rider on the ride (the comfort lock needs one). */
const womanBooked = (rideId: string) =>
  sql`EXISTS (SELECT 1 FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rideId} AND ${rideRequests.status} = 'accepted' AND ${isWoman(sql`${rideRequests.riderId}`)})`;

/** Whether the driver may lock this ride's remaining seats to women now (shown on the ride page). */
export const comfortLockOpen = (driverId: string, rideId: string, now: number) =>
  sql<number>`(${isWoman(driverId)} AND ${womanBooked(rideId)} AND EXISTS (SELECT 1 FROM ${rides} WHERE ${rides.id} = ${rideId} AND ${rides.driverId} = ${driverId} AND ${rides.status} = 'active' AND ${rides.departsAt} > ${now} AND ${rides.womenOnly} = 0 AND ${rides.womenLockBooked} IS NULL))`;

/**
 * The comfort lock (issue 16): a woman driver, once a woman has booked, locks the ride's
 * remaining seats to women. One batch: the guarded UPDATE records the seats booked at that
 * moment (women_lock_booked; men booked before keep their seats), then every PENDING request
 * of a rider who is not a woman is rejected with a notification saying so. Accepts and
 * requests check the rule in their own guarded statements, so one racing the lock either
 * lands before it (and counts in women_lock_booked) or is refused.
 */
export async function lockRemainingSeatsToWomen({ db }: ModelCtx, driverId: string, rideId: string, now = Date.now()) {
  const ride = await db
    .select({
      driverId: rides.driverId,
      fromLocation: rides.fromLocation,
      toLocation: rides.toLocation,
      status: rides.status,
    })
    .from(rides)
    .where(and(eq(rides.id, rideId), maySeeRide(driverId, { withRequests: true })))
    .get();
  if (!ride) throw new NotFoundError("Ride not found");
  if (ride.driverId !== driverId) throw new ForbiddenError("Only the driver can lock this ride's seats.");
  const locked = sql`EXISTS (SELECT 1 FROM ${rides} WHERE ${rides.id} = ${rideId} AND ${rides.womenLockBooked} IS NOT NULL)`;
  const menPending = sql`FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rideId} AND ${rideRequests.status} = 'pending' AND NOT ${isWoman(sql`${rideRequests.riderId}`)} AND ${locked}`;
  const [updated, , rejected] = await db.batch([
    db
      .update(rides)
      .set({ womenLockBooked: sql`${rides.bookedSeats}` })
      .where(and(eq(rides.id, rideId), sql`${comfortLockOpen(driverId, rideId, now)}`))
      .returning({ id: rides.id }),
    notificationInsert(
      db,
      {
        id: PER_ROW_ID,
        userId: sql`${rideRequests.riderId}`,
        type: "ride_update",
        title: "Request declined",
        message: `${SEATS_LOCKED_TO_WOMEN} Your request for ${ride.fromLocation} → ${ride.toLocation} was declined.`,
        data: sql`json_object('ride_id', ${rideRequests.rideId}, 'request_id', ${rideRequests.id}, 'status', 'rejected')`,
      },
      now,
      menPending,
    ),
    db
      .update(rideRequests)
      .set({ status: "rejected", decidedAt: now })
      .where(
        and(
          eq(rideRequests.rideId, rideId),
          eq(rideRequests.status, "pending"),
          sql`NOT ${isWoman(sql`${rideRequests.riderId}`)}`,
          locked,
        ),
      )
      .returning({ riderId: rideRequests.riderId }),
  ]);
  if (updated.length === 0) {
    const after = await db
      .select({ status: rides.status, womenOnly: rides.womenOnly, lock: rides.womenLockBooked })
      .from(rides)
      .where(eq(rides.id, rideId))
      .get();
    if (after?.womenOnly || after?.lock !== null)
      throw new ConflictError("This ride's seats are already for women only.");
    if (after?.status !== "active") throw new ConflictError("This ride is no longer active.");
    throw new ConflictError(LOCK_NEEDS_WOMAN);
  }
  return { audience: audience(rejected.map((r) => r.riderId)) };
}
