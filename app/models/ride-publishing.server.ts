import { and, eq, sql } from "drizzle-orm";
import { communities, communityMembers, rideRequests, rides, userProfiles } from "../../db/schema";
import { newId } from "../domain/ids";
import { CANCEL_REASON_MAX, CANCEL_WINDOW_MS, carTypeOf } from "../domain/rides";
import { suggestTripCost } from "../domain/trip-cost";
import { formatTime, formatWeekdayDate, istToInstant } from "../domain/time";
import { viasOf, type CreateRideInput } from "../schemas/rides";
import { isCleanText, TEXT_INVALID } from "../schemas/text";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { notificationInsert, PER_ROW_ID } from "./notifications.server";
import { type AlsoReads, type ModelCtx, audience } from "./context.server";
import type { Db } from "./db.server";
import { placeByName, ridePlaceColumns, viaRecords } from "./places.server";
import { alertSavedSearches } from "./saved-searches.server";
import { WOMEN_ONLY_COMMUNITY } from "./community-policy.server";
import { suspendedMessage } from "./permissions.server";

// Offering and withdrawing a ride: the create form's context, creating a ride, cancelling it.

export const PROFILE_MISSING = "User profile not found. Please complete your profile first.";
export const NOT_A_MEMBER = "You can only share a ride with a community you are an approved member of.";
export const WOMEN_ONLY_DRIVER =
  "Only a woman driver can offer a women-only ride. You can set your gender in your profile's ride preferences; it is never shown to anyone.";

/** What the create form needs: the driver's car (for the suggestion) and their communities. */
export async function getCreateRideContext({ db }: ModelCtx, userId: string, also: AlsoReads = []) {
  // `also`: the page's other reads (each community's ride rules), in the same round trip.
  const [profile, mine, ...alsoRead] = await db.batch([
    db
      .select({ vehicleInfo: userProfiles.vehicleInfo, gender: userProfiles.gender })
      .from(userProfiles)
      .where(eq(userProfiles.userId, userId))
      .limit(1),
    db
      .select({ id: communities.id, name: communities.name, type: communities.type })
      .from(communityMembers)
      .innerJoin(communities, eq(communities.id, communityMembers.communityId))
      .where(and(eq(communityMembers.userId, userId), eq(communityMembers.status, "approved")))
      .orderBy(communities.name),
    ...also,
  ]);
  return {
    hasProfile: profile.length > 0,
    carType: carTypeOf(profile[0]?.vehicleInfo),
    communities: mine,
    isWoman: profile[0]?.gender === "female",
    also: alsoRead as unknown[],
  };
}

/**
 * MAY PUBLISH with a community (or publicly, without one): the one precondition of a ride and of
 * a commute. A profile; a shared community must be one the driver is an approved member of and
 * not suspended from; a women-only community's rides are offered by women. Throws the refusal;
 * returns the driver's profile and whether the community is women-only.
 */
export async function mayPublish(db: Db, driverId: string, communityId: string | null | undefined, now: number) {
  const [profile, membership] = await db.batch([
    db
      .select({ vehicleInfo: userProfiles.vehicleInfo, gender: userProfiles.gender })
      .from(userProfiles)
      .where(eq(userProfiles.userId, driverId))
      .limit(1),
    db
      .select({ suspendedUntil: communityMembers.suspendedUntil, womenOnlyCommunity: communities.womenOnly })
      .from(communityMembers)
      .innerJoin(communities, eq(communities.id, communityMembers.communityId))
      .where(
        and(
          eq(communityMembers.userId, driverId),
          eq(communityMembers.communityId, communityId ?? ""),
          eq(communityMembers.status, "approved"),
        ),
      )
      .limit(1),
  ]);
  if (profile.length === 0) throw new NotFoundError(PROFILE_MISSING);
  if (!communityId) return { profile: profile[0], womenOnlyCommunity: false };
  const m = membership[0];
  if (!m) throw new ForbiddenError(NOT_A_MEMBER, { field: "communityId" });
  if (m.suspendedUntil && m.suspendedUntil > now)
    throw new ForbiddenError(suspendedMessage(m.suspendedUntil), { field: "communityId" });
  if (m.womenOnlyCommunity && profile[0].gender !== "female")
    throw new ConflictError(WOMEN_ONLY_COMMUNITY, { field: "communityId" });
  return { profile: profile[0], womenOnlyCommunity: Boolean(m.womenOnlyCommunity) };
}

/**
 * Publishes a ride for the acting user. Needs a profile; a shared community must be one
 * the user is an approved member of. Dates were validated (IST) by the schema.
 */
export async function createRide({ db }: ModelCtx, driverId: string, input: CreateRideInput, now = Date.now()) {
  const { profile, womenOnlyCommunity } = await mayPublish(db, driverId, input.communityId, now);
  const from = placeByName(input.fromLocation);
  const to = placeByName(input.toLocation);
  // The schema resolved both names on the server; a caller that skipped it is refused here.
  if (!from || !to) throw new ConflictError("Please choose pickup and drop from the list of places.");
  if (input.womenOnly && profile.gender !== "female")
    throw new ConflictError(WOMEN_ONLY_DRIVER, { field: "womenOnly" });
  const vehicle = profile.vehicleInfo;
  const suggestion = suggestTripCost(from.name, to.name, carTypeOf(vehicle), placeByName);
  const id = newId();
  await db.insert(rides).values({
    id,
    driverId,
    communityId: input.communityId,
    fromLocation: from.name,
    toLocation: to.name,
    ...ridePlaceColumns(from, to, {}, viaRecords(viasOf(input))),
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
    womenOnly: Boolean(input.womenOnly) || womenOnlyCommunity,
    // The community's pricing mode as it is now, copied in the same statement (ADR 0024).
    pricingMode: input.communityId
      ? sql`(SELECT ${communities.pricingMode} FROM ${communities} WHERE ${communities.id} = ${input.communityId})`
      : null,
    createdAt: now,
  });
  // Saved searches that match hear of it (issue 14); the ride stands even if that fails.
  const alerted = await alertSavedSearches({ db }, [id], now).catch(
    (e: unknown) => (console.error(e), { audience: audience() }),
  );
  return { id, audience: alerted.audience };
}

export const CANCEL_REASON_REQUIRED =
  "Please give a reason: within 2 hours of departure a ride can only be cancelled with a reason, which your riders will see.";
export const CANCEL_REASON_TOO_LONG = `The reason must be at most ${CANCEL_REASON_MAX} characters.`;

/**
 * The driver cancels the whole ride: it becomes cancelled, every pending or accepted
 * request is cancelled with it and each of those riders is notified (with the driver's
 * reason, if given), in one batch. Within 2 hours of departure (CANCEL_WINDOW_MS) the
 * driver may still cancel, for an emergency, but must give a reason, and the ride is
 * recorded as cancelled late. The late flag and the reason rule are decided inside the
 * guarded UPDATE, against the stored departure, not only on what was read before.
 */
export async function cancelRide(
  { db }: ModelCtx,
  driverId: string,
  rideId: string,
  input: { reason?: string | null } = {},
  now = Date.now(),
) {
  const ride = await db
    .select({
      driverId: rides.driverId,
      status: rides.status,
      departsAt: rides.departsAt,
      fromLocation: rides.fromLocation,
      toLocation: rides.toLocation,
      date: rides.date,
      time: rides.time,
    })
    .from(rides)
    .where(eq(rides.id, rideId))
    .get();
  if (!ride) throw new NotFoundError("Ride not found");
  if (ride.driverId !== driverId) throw new ForbiddenError("Only the driver can cancel this ride.");
  if (ride.status !== "active") throw new ConflictError("Only an active ride can be cancelled.");
  const reason = input.reason?.trim() || null;
  if (reason && reason.length > CANCEL_REASON_MAX) throw new ConflictError(CANCEL_REASON_TOO_LONG);
  if (reason && !isCleanText(reason)) throw new ConflictError(TEXT_INVALID);
  const late = ride.departsAt - now < CANCEL_WINDOW_MS;
  if (late && !reason) throw new ConflictError(CANCEL_REASON_REQUIRED);
  const lateSql = sql`(${rides.departsAt} - ${now} < ${CANCEL_WINDOW_MS})`;
  // Without a reason only an early cancellation goes through, whatever was read above.
  const guard = reason ? sql`1` : sql`NOT ${lateSql}`;
  const stillActive = sql`EXISTS (SELECT 1 FROM rides WHERE rides.id = ${rideId} AND rides.status = 'active' AND ${reason ? sql`1` : sql`rides.departs_at - ${now} >= ${CANCEL_WINDOW_MS}`})`;
  const message =
    // The day and time named (issue 35): a commute's riders hold many days of the same route.
    `The ride from ${ride.fromLocation} to ${ride.toLocation} on ${formatWeekdayDate(ride.date)} at ${formatTime(ride.time)} was cancelled by the driver` +
    (late ? `, ${Math.max(0, Math.round((ride.departsAt - now) / 60_000))} minutes before departure.` : ".") +
    (reason ? ` Reason: ${reason}` : "");
  const [, cancelledRequests, cancelled] = await db.batch([
    notificationInsert(
      db,
      {
        id: PER_ROW_ID,
        userId: sql`${rideRequests.riderId}`,
        type: "ride_update",
        title: "Ride cancelled",
        message,
        data: sql`json_object('ride_id', ${rideRequests.rideId}, 'request_id', ${rideRequests.id}, 'status', 'cancelled', 'from', ${ride.fromLocation}, 'to', ${ride.toLocation}, 'date', ${ride.date}, 'time', ${ride.time}, 'reason', ${reason}, 'late', json(${late ? "true" : "false"}))`,
      },
      now,
      sql`FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rideId} AND ${rideRequests.status} IN ('pending', 'accepted') AND ${stillActive}`,
    ),
    db
      .update(rideRequests)
      .set({ status: "cancelled", cancelledAt: now })
      .where(and(eq(rideRequests.rideId, rideId), sql`${rideRequests.status} IN ('pending', 'accepted')`, stillActive))
      .returning({ riderId: rideRequests.riderId }),
    db
      .update(rides)
      .set({
        status: "cancelled",
        cancelledAt: now,
        bookedSeats: 0,
        cancelReason: reason,
        cancelledLate: sql`${lateSql}`,
      })
      .where(and(eq(rides.id, rideId), eq(rides.status, "active"), eq(rides.driverId, driverId), guard))
      .returning({ id: rides.id }),
  ]);
  // The departure moved into the last 2 hours between the read and the write (no reason given).
  if (cancelled.length === 0)
    throw new ConflictError(late ? CANCEL_REASON_REQUIRED : "Only an active ride can be cancelled.");
  return { audience: audience(cancelledRequests.map((r) => r.riderId)), late };
}
