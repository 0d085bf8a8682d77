import { and, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import { randomToken } from "../domain/ids";
import { sessions, userProfiles, userSettings, users } from "../../db/schema";
import { type ModelCtx } from "./context.server";
import { badgeQueries, badgesFrom, type Badges } from "./badges.server";
import type { Db } from "./db.server";

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export type SessionUser = {
  id: string;
  email: string | null;
  /** The e-mail address was confirmed (issue 15). */
  emailVerified: boolean;
  phone: string | null;
  hasProfile: boolean;
  fullName: string | null;
  firstName: string | null;
  avatarUrl: string | null;
  phoneNumber: string | null;
  hasVehicleInfo: boolean;
  /** Onboarding said "Yes, I have a car": the app leads with Create Ride, else with finding one. */
  hasCar: boolean;
  /** The profile's home locality (free text; often a place name), if given. */
  residentialArea: string | null;
  profileCreatedAt: number | null;
  darkMode: boolean;
};

/** Starts a new session (a fresh 256-bit id every sign-in) and returns its id. */
export async function createSession({ db }: ModelCtx, userId: string, now = Date.now()) {
  const id = randomToken(256);
  await db.insert(sessions).values({ id, userId, createdAt: now, expiresAt: now + SESSION_TTL_MS });
  return id;
}

export async function deleteSession({ db }: ModelCtx, id: string) {
  await db.delete(sessions).where(eq(sessions.id, id));
}

/** Removes sessions whose expiry has passed (called opportunistically). */
export async function deleteExpiredSessions({ db }: ModelCtx, now = Date.now()) {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

function sessionUserQuery(db: Db, sessionId: string, now: number) {
  return (
    db
      .select({
        id: users.id,
        email: users.email,
        emailVerifiedAt: users.emailVerifiedAt,
        phone: users.phone,
        profileUserId: userProfiles.userId,
        fullName: userProfiles.fullName,
        firstName: userProfiles.firstName,
        avatarUrl: userProfiles.avatarUrl,
        phoneNumber: userProfiles.phoneNumber,
        vehicleInfo: userProfiles.vehicleInfo,
        residentialArea: userProfiles.residentialArea,
        profileCreatedAt: userProfiles.createdAt,
        darkMode: userSettings.darkMode,
      })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
      .leftJoin(userSettings, eq(userSettings.userId, users.id))
      // Issue 37: an account suspended by LoopRide's operators has no session, wherever it came from.
      .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now), isNull(users.suspendedAt)))
      .limit(1)
  );
}

function toSessionUser(row: Awaited<ReturnType<typeof sessionUserQuery>>[number] | undefined): SessionUser | null {
  if (!row) return null;
  return {
    id: row.id,
    email: row.email,
    emailVerified: row.emailVerifiedAt !== null,
    phone: row.phone,
    hasProfile: row.profileUserId !== null,
    fullName: row.fullName,
    firstName: row.firstName,
    avatarUrl: row.avatarUrl,
    phoneNumber: row.phoneNumber,
    hasVehicleInfo: !!row.vehicleInfo && Object.keys(row.vehicleInfo).length > 0,
    hasCar: row.vehicleInfo?.has_car === true,
    residentialArea: row.residentialArea,
    profileCreatedAt: row.profileCreatedAt,
    darkMode: row.darkMode ?? false,
  };
}

/** The signed-in user behind a session id, in one query; null when unknown or expired. */
export async function getSessionUser(
  { db }: ModelCtx,
  sessionId: string,
  now = Date.now(),
): Promise<SessionUser | null> {
  return toSessionUser((await sessionUserQuery(db, sessionId, now))[0]);
}

/**
 * The session's user and their shell badges in one round trip (issue 17: a page's D1 round
 * trips include the session read). The badge counts are keyed on the session's owner by a
 * subquery, so they need not wait for the user id; an unknown or expired session counts nothing.
 */
export async function getSessionUserAndBadges(
  { db }: ModelCtx,
  sessionId: string,
  now = Date.now(),
): Promise<{ user: SessionUser | null; badges: Badges | null }> {
  const owner = sql`(SELECT ${sessions.userId} FROM ${sessions} WHERE ${sessions.id} = ${sessionId} AND ${sessions.expiresAt} > ${now})`;
  const [rows, pending, unreadNotifications, unreadMessages] = await db.batch([
    sessionUserQuery(db, sessionId, now),
    ...badgeQueries(db, owner),
  ]);
  const user = toSessionUser(rows[0]);
  return { user, badges: user ? badgesFrom([pending, unreadNotifications, unreadMessages]) : null };
}

/** A live session's owner and expiry, for a WebSocket upgrade (the socket carries the expiry). */
export async function getSocketSession({ db }: ModelCtx, sessionId: string, now = Date.now()) {
  return (
    (await db
      .select({ userId: sessions.userId, expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now), isNull(users.suspendedAt)))
      .get()) ?? null
  );
}

/**
 * Which of these session ids are still live, with their expiry: the Durable Objects'
 * periodic re-check closes every socket whose session is missing here.
 */
export async function liveSessions({ db }: ModelCtx, ids: string[], now = Date.now()): Promise<Map<string, number>> {
  const live = new Map<string, number>();
  // Bounded IN lists (D1 allows 100 bound parameters per statement).
  for (let i = 0; i < ids.length; i += 90) {
    const rows = await db
      .select({ id: sessions.id, expiresAt: sessions.expiresAt })
      .from(sessions)
      .where(and(inArray(sessions.id, ids.slice(i, i + 90)), gt(sessions.expiresAt, now)));
    for (const r of rows) live.set(r.id, r.expiresAt);
  }
  return live;
}
