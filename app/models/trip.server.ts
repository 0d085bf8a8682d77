import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { rideRequests, rides, userProfiles } from "../../db/schema";
import { newId } from "../domain/ids";
import { istDate } from "../domain/time";
import {
  ALERTS_PER_HOUR,
  isRideDay,
  NOT_RIDE_DAY,
  ONLY_DRIVER_RUNS_TRIP,
  PICKUP_CODE_TRIES,
  PICKUP_CODE_WINDOW_MS,
  TOO_MANY_CODES,
  WRONG_PICKUP_CODE,
} from "../domain/trip";
import { audience, type ModelCtx } from "./context.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { notificationInsert, notificationInsertIfChanged, PER_ROW_ID } from "./notifications.server";
import { outboxInsert } from "./outbox/queue.server";
import { isOnTrip, mayRunTrip, maySeeRide } from "./permissions.server";
import { accountLimitKey, hitRateLimit, peekRateLimit } from "./rate-limits.server";
import { assertShareable, ownSharesQuery, shareInsert } from "./trip-shares.server";

// The trip on the day (issue 37, items 1, 2 and 4). Every status write is one guarded
// statement under mayRunTrip (app/models/permissions.server.ts); when it changes nothing,
// `refusal` reads why, so the driver gets a clear message and a stranger a 403 or 404.

export const NO_EMERGENCY_EMAIL = "Add your emergency contact's e-mail in your profile first.";
export const TOO_MANY_ALERTS =
  "You have alerted your emergency contact several times this hour. In an emergency, call 112.";

type Step = "start" | "pickup" | "drop" | "end";

/** Why the driver's trip write on `rideId` changed nothing (thrown). */
async function refusal({ db }: ModelCtx, userId: string, rideId: string, step: Step, now: number): Promise<never> {
  const ride = await db
    .select({
      driverId: rides.driverId,
      status: rides.status,
      date: rides.date,
      startedAt: rides.tripStartedAt,
      endedAt: rides.tripEndedAt,
    })
    .from(rides)
    .where(and(eq(rides.id, rideId), maySeeRide(userId, { withRequests: true })))
    .get();
  if (!ride) throw new NotFoundError("Ride not found");
  if (ride.driverId !== userId) throw new ForbiddenError(ONLY_DRIVER_RUNS_TRIP);
  if (ride.status !== "active") throw new ConflictError("This ride is no longer active.");
  if (!isRideDay(ride.date, now)) throw new ConflictError(NOT_RIDE_DAY);
  if (ride.endedAt !== null) throw new ConflictError("This trip has already ended.");
  if (step === "start") throw new ConflictError("This trip has already started.");
  if (ride.startedAt === null) throw new ConflictError("Start the trip first.");
  throw new ConflictError(step === "end" ? "This trip has already ended." : "This rider cannot be marked now.");
}

/** Accepted riders of the ride, as the FROM of a per-rider notification insert. */
const acceptedRiders = (rideId: string, when: ReturnType<typeof sql>) =>
  sql`FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rideId} AND ${rideRequests.status} = 'accepted' AND ${when}`;

async function acceptedRiderIds({ db }: ModelCtx, rideId: string) {
  const rows = await db
    .select({ id: rideRequests.riderId })
    .from(rideRequests)
    .where(and(eq(rideRequests.rideId, rideId), eq(rideRequests.status, "accepted")));
  return rows.map((r) => r.id);
}

/** Start trip, or End trip: the ride's own mark, and every accepted rider is told. */
export async function setTripMark(
  ctx: ModelCtx,
  driverId: string,
  rideId: string,
  step: "start" | "end",
  now = Date.now(),
) {
  const { db } = ctx;
  const guard =
    step === "start"
      ? and(isNull(rides.tripStartedAt), isNull(rides.tripEndedAt))
      : and(isNotNull(rides.tripStartedAt), isNull(rides.tripEndedAt));
  const mark = step === "start" ? rides.tripStartedAt : rides.tripEndedAt;
  const [updated] = await db.batch([
    db
      .update(rides)
      .set(step === "start" ? { tripStartedAt: now } : { tripEndedAt: now })
      .where(and(eq(rides.id, rideId), mayRunTrip(driverId, now), guard))
      .returning({ from: rides.fromLocation, to: rides.toLocation }),
    notificationInsert(
      db,
      {
        id: PER_ROW_ID,
        userId: sql`${rideRequests.riderId}`,
        type: "ride_update",
        title: step === "start" ? "Your driver has started the trip" : "Trip ended",
        message:
          step === "start"
            ? "Your driver is on the way. Have your pickup code ready: it is on the ride's page."
            : "Your driver has ended the trip. Thanks for riding together.",
        data: sql`json_object('ride_id', ${rideId}, 'status', ${step === "start" ? "trip_started" : "trip_ended"})`,
      },
      now,
      acceptedRiders(rideId, sql`EXISTS (SELECT 1 FROM ${rides} WHERE ${rides.id} = ${rideId} AND ${mark} = ${now})`),
    ),
  ]);
  if (updated.length === 0) return refusal(ctx, driverId, rideId, step, now);
  return { audience: audience(await acceptedRiderIds(ctx, rideId)) };
}

/** The request, with its ride's driver, for a pickup or a drop. */
async function requestOnRide({ db }: ModelCtx, driverId: string, rideId: string, requestId: string, now: number) {
  const row = await db
    .select({
      id: rideRequests.id,
      rideId: rideRequests.rideId,
      riderId: rideRequests.riderId,
      status: rideRequests.status,
      pickedUpAt: rideRequests.pickedUpAt,
      droppedAt: rideRequests.droppedAt,
      pickupCode: rideRequests.pickupCode,
      driverId: rides.driverId,
      rideStatus: rides.status,
      date: rides.date,
      startedAt: rides.tripStartedAt,
      endedAt: rides.tripEndedAt,
    })
    .from(rideRequests)
    .innerJoin(rides, eq(rides.id, rideRequests.rideId))
    .where(
      and(
        eq(rideRequests.id, requestId),
        eq(rideRequests.rideId, rideId),
        maySeeRide(driverId, { withRequests: true }),
      ),
    )
    .get();
  if (!row) throw new NotFoundError("Request not found");
  if (row.driverId !== driverId) throw new ForbiddenError(ONLY_DRIVER_RUNS_TRIP);
  if (row.status !== "accepted") throw new ConflictError("This rider does not hold an accepted seat on this ride.");
  // The trip's state first, so a wrong code is only ever counted while the trip runs.
  if (row.rideStatus !== "active") throw new ConflictError("This ride is no longer active.");
  if (!isRideDay(row.date, now)) throw new ConflictError(NOT_RIDE_DAY);
  if (row.startedAt === null) throw new ConflictError("Start the trip first.");
  if (row.endedAt !== null) throw new ConflictError("This trip has already ended.");
  return row;
}

/** The trip is running now: started, not ended, and the driver may run it. */
const tripRunning = (driverId: string, now: number) =>
  sql`EXISTS (SELECT 1 FROM rides WHERE rides.id = ${rideRequests.rideId} AND ${mayRunTrip(driverId, now)}
    AND rides.trip_started_at IS NOT NULL AND rides.trip_ended_at IS NULL)`;

/**
 * Picked up: the driver enters the rider's pickup code. A right code records that the rider
 * boarded (and rules out a no-show); a wrong one changes nothing but uses one of
 * PICKUP_CODE_TRIES per PICKUP_CODE_WINDOW_MS for this booking.
 */
export async function markPickedUp(
  ctx: ModelCtx,
  driverId: string,
  { rideId, requestId, code }: { rideId: string; requestId: string; code: string },
  now = Date.now(),
) {
  const { db } = ctx;
  const req = await requestOnRide(ctx, driverId, rideId, requestId, now);
  if (req.pickedUpAt !== null) throw new ConflictError("This rider is already picked up.");
  const key = accountLimitKey("pickup-code", requestId);
  if ((await peekRateLimit(ctx, key, PICKUP_CODE_WINDOW_MS, now)) >= PICKUP_CODE_TRIES)
    throw new ConflictError(TOO_MANY_CODES, { field: "code" });
  if (!isPickupCode(code, req.pickupCode)) {
    const { count } = await hitRateLimit(ctx, key, PICKUP_CODE_TRIES, PICKUP_CODE_WINDOW_MS, now);
    throw new ConflictError(count >= PICKUP_CODE_TRIES ? TOO_MANY_CODES : WRONG_PICKUP_CODE, { field: "code" });
  }
  const [updated] = await db.batch([
    db
      .update(rideRequests)
      .set({ pickedUpAt: now })
      .where(
        and(
          eq(rideRequests.id, requestId),
          eq(rideRequests.status, "accepted"),
          isNull(rideRequests.pickedUpAt),
          tripRunning(driverId, now),
        ),
      )
      .returning({ id: rideRequests.id }),
    notificationInsertIfChanged(
      db,
      {
        userId: req.riderId,
        type: "ride_update",
        title: "Picked up",
        message: "Your driver entered your pickup code: you are on your way.",
        data: { ride_id: req.rideId, request_id: requestId, status: "picked_up" },
      },
      now,
    ),
  ]);
  if (updated.length === 0) return refusal(ctx, driverId, req.rideId, "pickup", now);
  return { audience: audience([req.riderId]), rideId: req.rideId };
}

/** Dropped: a rider who was picked up has arrived. */
export async function markDropped(
  ctx: ModelCtx,
  driverId: string,
  { rideId, requestId }: { rideId: string; requestId: string },
  now = Date.now(),
) {
  const { db } = ctx;
  const req = await requestOnRide(ctx, driverId, rideId, requestId, now);
  if (req.pickedUpAt === null) throw new ConflictError("Mark the rider picked up first.");
  if (req.droppedAt !== null) throw new ConflictError("This rider is already dropped.");
  const [updated] = await db.batch([
    db
      .update(rideRequests)
      .set({ droppedAt: now })
      .where(
        and(
          eq(rideRequests.id, requestId),
          eq(rideRequests.status, "accepted"),
          isNotNull(rideRequests.pickedUpAt),
          isNull(rideRequests.droppedAt),
          tripRunning(driverId, now),
        ),
      )
      .returning({ id: rideRequests.id }),
    notificationInsertIfChanged(
      db,
      {
        userId: req.riderId,
        type: "ride_update",
        title: "Dropped",
        message: "Your driver marked you as dropped at your destination.",
        data: { ride_id: req.rideId, request_id: requestId, status: "dropped" },
      },
      now,
    ),
  ]);
  if (updated.length === 0) return refusal(ctx, driverId, req.rideId, "drop", now);
  return { audience: audience([req.riderId]), rideId: req.rideId };
}

/**
 * "Alert my emergency contact": a new share link of the trip, e-mailed through the outbox
 * to the e-mail in the person's profile (the sender mints the link's token when it sends).
 */
export async function alertEmergencyContact(ctx: ModelCtx, userId: string, rideId: string, now = Date.now()) {
  const { db } = ctx;
  await assertShareable(ctx, userId, rideId, now);
  const profile = await db
    .select({ email: userProfiles.emergencyContactEmail })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .get();
  if (!profile?.email) throw new ConflictError(NO_EMERGENCY_EMAIL, { link: "/dashboard/profile" });
  const { allowed } = await hitRateLimit(
    ctx,
    accountLimitKey("emergency-alert", userId),
    ALERTS_PER_HOUR,
    3_600_000,
    now,
  );
  if (!allowed) throw new ConflictError(TOO_MANY_ALERTS);
  const id = newId();
  await db.batch([
    shareInsert(ctx, { id, rideId, userId, tokenHash: null, via: "alert", createdAt: now }),
    outboxInsert(
      db,
      {
        channel: "email",
        userId,
        kind: "emergency_alert",
        key: `emergency:${id}`,
        payload: { ride_id: rideId, share_id: id },
      },
      now,
    ),
  ]);
  return { shareId: id };
}

/**
 * Whether `entered` is the booking's stored pickup code, in time that does not depend on where
 * they differ (the tries limit is the real guard; this keeps timing from helping within it).
 */
function isPickupCode(entered: string, stored: string | null): boolean {
  if (stored === null || entered.length !== stored.length) return false;
  let diff = 0;
  for (let i = 0; i < stored.length; i++) diff |= entered.charCodeAt(i) ^ stored.charCodeAt(i);
  return diff === 0;
}

export type TripDay = Awaited<ReturnType<typeof tripDayQueries>>;

/**
 * The ride page's reads for the trip on the day, run in its batch (`also`): the trip's marks,
 * the viewer's own request's code and marks (never another rider's code), every accepted
 * rider's marks for the driver, the viewer's live links and whether they set an emergency e-mail.
 */
export function tripDayQueries(
  ctx: ModelCtx,
  viewerId: string,
  rideId: string,
  now = Date.now(),
  today = istDate(now),
) {
  const { db } = ctx;
  return [
    db
      .select({
        startedAt: rides.tripStartedAt,
        endedAt: rides.tripEndedAt,
        onTrip: sql<number>`${isOnTrip(viewerId)}`,
        today: sql<number>`(rides.date = ${today})`,
      })
      .from(rides)
      .where(and(eq(rides.id, rideId), maySeeRide(viewerId, { withRequests: true }))),
    db
      .select({
        id: rideRequests.id,
        riderId: rideRequests.riderId,
        // Only the viewer's own code leaves the database: the driver must be told it at the car.
        code: sql<string | null>`CASE WHEN ${rideRequests.riderId} = ${viewerId} THEN ${rideRequests.pickupCode} END`,
        pickedUpAt: rideRequests.pickedUpAt,
        droppedAt: rideRequests.droppedAt,
        name: userProfiles.fullName,
      })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .leftJoin(userProfiles, eq(userProfiles.userId, rideRequests.riderId))
      .where(
        and(
          eq(rideRequests.rideId, rideId),
          eq(rideRequests.status, "accepted"),
          sql`(${rides.driverId} = ${viewerId} OR ${rideRequests.riderId} = ${viewerId})`,
        ),
      )
      .limit(12),
    ownSharesQuery(ctx, viewerId, rideId),
    db
      .select({ email: userProfiles.emergencyContactEmail })
      .from(userProfiles)
      .where(eq(userProfiles.userId, viewerId)),
  ] as const;
}

/**
 * The trip-day reads' results (from `also`), shaped for the page. Only the rider is given
 * their own pickup code; the driver must be told it at the car.
 */
/** How many reads tripDayQueries makes (the type holds it to the list's length). */
export const TRIP_DAY_READS: ReturnType<typeof tripDayQueries>["length"] = 4;

export function tripDayFrom(results: readonly unknown[], viewerId: string) {
  const [trip, riders, shares, profile] = results as [
    { startedAt: number | null; endedAt: number | null; onTrip: number; today: number }[],
    {
      id: string;
      riderId: string;
      code: string | null;
      pickedUpAt: number | null;
      droppedAt: number | null;
      name: string | null;
    }[],
    { id: string; via: "link" | "alert"; createdAt: number }[],
    { email: string | null }[],
  ];
  const t = trip[0];
  const own = riders.find((r) => r.riderId === viewerId);
  return {
    onTrip: Boolean(t?.onTrip),
    today: Boolean(t?.today),
    startedAt: t?.startedAt ?? null,
    endedAt: t?.endedAt ?? null,
    riders: riders.map(({ code: _code, ...r }) => r),
    mine: own ? { ...own, code: t?.today ? own.code : null } : null,
    shares,
    hasEmergencyEmail: Boolean(profile[0]?.email),
  };
}
