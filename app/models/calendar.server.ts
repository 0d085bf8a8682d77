import { and, asc, eq, gte, inArray, ne } from "drizzle-orm";
import { calendarFeeds, rideRequests, rides, userProfiles } from "../../db/schema";
import { randomToken, sha256Hex } from "../domain/ids";
import type { AlsoReads, ModelCtx } from "./context.server";
import { ForbiddenError, NotFoundError } from "./errors.server";
import { ownPushEndpointsQuery } from "./push.server";
import { maySeeRide } from "./permissions.server";

/** What a calendar event is made of (app/utils/calendar.server.ts turns it into iCalendar). */
export type CalendarRide = {
  id: string;
  fromLocation: string;
  toLocation: string;
  departsAt: number;
  distanceKm: number | null;
  tripCostPaise: number;
  seats: number;
  status: string;
  driverName: string | null;
  /** The viewer's part: driving it, a confirmed seat, or a request still waiting for the driver. */
  role: "driver" | "rider" | "pending";
};

/** How far back the feed reaches, so a ride does not vanish from a calendar the moment it departs. */
export const FEED_PAST_MS = 7 * 24 * 60 * 60 * 1000;
/** The most rides one feed lists (as driver, and again as rider). */
export const FEED_LIMIT = 200;

const rideFields = {
  id: rides.id,
  fromLocation: rides.fromLocation,
  toLocation: rides.toLocation,
  departsAt: rides.departsAt,
  distanceKm: rides.distanceKm,
  tripCostPaise: rides.tripCostPaise,
  seats: rides.seats,
  status: rides.status,
  driverId: rides.driverId,
  driverName: userProfiles.fullName,
};

/**
 * One ride as a calendar event for the acting user: its driver, or a rider with a live
 * request on it (pending or accepted). Someone who may see the ride but is not part of it
 * gets a ForbiddenError; a ride they may not see (or none) a NotFoundError.
 */
export async function getRideForCalendar({ db }: ModelCtx, userId: string, rideId: string): Promise<CalendarRide> {
  const [ride, mine] = await db.batch([
    db
      .select(rideFields)
      .from(rides)
      .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
      .where(and(eq(rides.id, rideId), maySeeRide(userId, { withRequests: true })))
      .limit(1),
    db
      .select({ status: rideRequests.status })
      .from(rideRequests)
      .where(
        and(
          eq(rideRequests.rideId, rideId),
          eq(rideRequests.riderId, userId),
          inArray(rideRequests.status, ["pending", "accepted"]),
        ),
      )
      .limit(1),
  ]);
  const r = ride[0];
  if (!r) throw new NotFoundError("Ride not found");
  const { driverId, ...event } = r;
  if (driverId === userId) return { ...event, role: "driver" };
  if (mine[0]) return { ...event, role: mine[0].status === "accepted" ? "rider" : "pending" };
  throw new ForbiddenError("Only the driver and riders who asked for a seat can add this ride to their calendar.");
}

/**
 * What Settings shows of Web Push and the calendar feed, in one round trip: the acting
 * user's subscribed endpoints, and their feed (when it was made, and whether `shownToken`,
 * the token just made from the show-once cookie, is still its token), or null.
 */
export async function getOwnPushAndFeed(
  { db }: ModelCtx,
  userId: string,
  shownToken: string | null = null,
  also: AlsoReads = [],
) {
  // `also`: the page's other reads (Settings' own settings and blocked people).
  const [subs, feeds, ...alsoRead] = await db.batch([
    ownPushEndpointsQuery(db, userId),
    db
      .select({ createdAt: calendarFeeds.createdAt, tokenHash: calendarFeeds.tokenHash })
      .from(calendarFeeds)
      .where(eq(calendarFeeds.userId, userId))
      .limit(1),
    ...also,
  ]);
  const row = feeds[0];
  const feed = row
    ? {
        createdAt: row.createdAt,
        tokenIsCurrent: shownToken !== null && (await sha256Hex(shownToken)) === row.tokenHash,
      }
    : null;
  return { endpoints: subs.map((s) => s.endpoint), feed, also: alsoRead as unknown[] };
}

/**
 * A new secret feed token for the acting user, replacing any earlier one (whose URL stops
 * working). Only its SHA-256 is stored: the token is returned once, to be shown once.
 */
export async function createCalendarFeed({ db }: ModelCtx, userId: string, now = Date.now()): Promise<string> {
  const token = randomToken(256);
  const tokenHash = await sha256Hex(token);
  await db
    .insert(calendarFeeds)
    .values({ userId, tokenHash, createdAt: now })
    .onConflictDoUpdate({ target: calendarFeeds.userId, set: { tokenHash, createdAt: now } });
  return token;
}

/** Revokes the acting user's feed (its URL answers 404 from now on); how many feeds went (0 or 1). */
export async function revokeCalendarFeed({ db }: ModelCtx, userId: string): Promise<number> {
  const gone = await db
    .delete(calendarFeeds)
    .where(eq(calendarFeeds.userId, userId))
    .returning({ userId: calendarFeeds.userId });
  return gone.length;
}

/**
 * The rides of the feed whose token this is: the owner's rides as driver and their
 * confirmed seats, departing from a week ago on, cancelled ones left out. The token is the
 * only credential (calendar apps send no cookie); an unknown or revoked one is a NotFoundError.
 */
export async function ridesForCalendarFeed(
  { db }: ModelCtx,
  token: string,
  now = Date.now(),
): Promise<{ userId: string; rides: CalendarRide[] }> {
  if (!/^[0-9a-f]{64}$/.test(token)) throw new NotFoundError("Calendar feed not found");
  const feed = await db
    .select({ userId: calendarFeeds.userId })
    .from(calendarFeeds)
    .where(eq(calendarFeeds.tokenHash, await sha256Hex(token)))
    .get();
  if (!feed) throw new NotFoundError("Calendar feed not found");
  const from = now - FEED_PAST_MS;
  const [driving, riding] = await db.batch([
    db
      .select(rideFields)
      .from(rides)
      .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
      .where(and(eq(rides.driverId, feed.userId), gte(rides.departsAt, from), ne(rides.status, "cancelled")))
      .orderBy(asc(rides.departsAt))
      .limit(FEED_LIMIT),
    db
      .select(rideFields)
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
      .where(
        and(
          eq(rideRequests.riderId, feed.userId),
          eq(rideRequests.status, "accepted"),
          gte(rides.departsAt, from),
          ne(rides.status, "cancelled"),
        ),
      )
      .orderBy(asc(rides.departsAt))
      .limit(FEED_LIMIT),
  ]);
  const strip = ({ driverId: _d, ...r }: (typeof driving)[number], role: CalendarRide["role"]): CalendarRide => ({
    ...r,
    role,
  });
  return {
    userId: feed.userId,
    rides: [...driving.map((r) => strip(r, "driver")), ...riding.map((r) => strip(r, "rider"))].sort(
      (a, b) => a.departsAt - b.departsAt,
    ),
  };
}
