import { and, eq, fillPlaceholders, gt, inArray, isNull, lt, type Placeholder, type SQL, sql } from "drizzle-orm";
import { randomToken } from "../domain/ids";
import { sessions, userProfiles, userSettings, users } from "../../db/schema";
import { type ModelCtx } from "./context.server";
import { badgeQueries, badgesFrom, type Badges } from "./badges.server";
import type { Db } from "./db.server";
import { mapReads, type Read } from "./statements.server";

/**
 * Whose page a read is for: a user, or the owner of a live session, which lets a page's reads
 * go in the session's own round trip before the user is known (ADR 0063). A session that is
 * unknown or expired owns nothing, so those reads find no rows; the guard then refuses the page.
 */
export type Viewer = { userId: string } | { sessionId: string; now: number };

/** A Viewer as a built statement's values (statements.server.ts), and its kind for the key. */
export const viewerValues = (viewer: Viewer): { userId: string } | { sessionId: string; sessionNow: number } =>
  "userId" in viewer ? { userId: viewer.userId } : { sessionId: viewer.sessionId, sessionNow: viewer.now };
export const viewerKind = (viewer: Viewer) => ("userId" in viewer ? "user" : "session");
/** The viewer's id in SQL, from viewerValues (as a built statement hands them back). */
export const viewerSql = (v: { userId?: string; sessionId?: string; sessionNow?: number }) =>
  v.userId ?? sessionOwner(v.sessionId ?? "", v.sessionNow ?? 0);

/** The user id of a live session, as SQL (a primary-key lookup; NULL when unknown or expired). */
export const sessionOwner = (sessionId: string | Placeholder, now: number | Placeholder) =>
  sql`(SELECT ${sessions.userId} FROM ${sessions} WHERE ${sessions.id} = ${sessionId} AND ${sessions.expiresAt} > ${now})`;

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

function sessionUserQuery(db: Db, sessionId: Placeholder, now: Placeholder, extra: Record<string, SQL.Aliased> = {}) {
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
        ...extra,
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

// Every page reads the session, so its statements are built once per isolate (ADR 0063):
// drizzle's SQL building cost about 1 ms a request. The text is drizzle's own, with
// placeholders for the session id and the clock, so the SQL and its plan are unchanged.
// D1 objects are not kept across requests, so each request prepares the text on its own
// client (its Sessions API session, ADR 0026), which costs no SQL building.
type Built = { sql: string; params: unknown[] };
let built: { user: Built; withBadges: Built } | undefined;

// The shell's three badge counts as columns of the session's own row (issue 40): one statement
// instead of four, so the binding sends, runs and returns one result where it did four. Each
// count is the same capped subquery as getBadges', keyed on the session's owner.
export const BADGE_COLUMNS = ["badge_pending", "badge_notifications", "badge_messages"] as const;

function builtStatements(db: Db) {
  if (!built) {
    const id = sql.placeholder("sessionId");
    const now = sql.placeholder("now");
    const owner = sessionOwner(id, now);
    const counts = badgeQueries(db, owner).map((q, i) => sql`(${q})`.as(BADGE_COLUMNS[i]));
    built = {
      user: sessionUserQuery(db, id, now).toSQL(),
      withBadges: sessionUserQuery(
        db,
        id,
        now,
        Object.fromEntries(BADGE_COLUMNS.map((c, i) => [c, counts[i]])),
      ).toSQL(),
    };
  }
  return built;
}

function prepared(db: Db, statement: Built, sessionId: string, now: number) {
  return db.$client.prepare(statement.sql).bind(...fillPlaceholders(statement.params, { sessionId, now }));
}

/**
 * A D1 row of the session query, read straight into a SessionUser (no drizzle mapping
 * first). D1 keys a row by column name; the query selects no name twice.
 */
function sessionUserFrom(row: Record<string, unknown> | null | undefined): SessionUser | null {
  if (!row) return null;
  const text = (v: unknown) => (v as string | null) ?? null;
  const raw = row[userProfiles.vehicleInfo.name] as string | null;
  const vehicle = raw === null ? null : (JSON.parse(raw) as Record<string, unknown> | null);
  const dark = row[userSettings.darkMode.name];
  return {
    id: row[users.id.name] as string,
    email: text(row[users.email.name]),
    emailVerified: row[users.emailVerifiedAt.name] !== null,
    phone: text(row[users.phone.name]),
    hasProfile: row[userProfiles.userId.name] !== null,
    fullName: text(row[userProfiles.fullName.name]),
    firstName: text(row[userProfiles.firstName.name]),
    avatarUrl: text(row[userProfiles.avatarUrl.name]),
    phoneNumber: text(row[userProfiles.phoneNumber.name]),
    hasVehicleInfo: !!vehicle && Object.keys(vehicle).length > 0,
    hasCar: vehicle?.has_car === true,
    residentialArea: text(row[userProfiles.residentialArea.name]),
    profileCreatedAt: (row[userProfiles.createdAt.name] as number | null) ?? null,
    // As drizzle decodes a boolean column; no settings row is the default, off.
    darkMode: dark === null || dark === undefined ? false : Number(dark) === 1,
  };
}

/** The signed-in user behind a session id, in one query; null when unknown or expired. */
export async function getSessionUser(
  { db }: ModelCtx,
  sessionId: string,
  now = Date.now(),
): Promise<SessionUser | null> {
  const row = await prepared(db, builtStatements(db).user, sessionId, now).first<Record<string, unknown>>();
  return sessionUserFrom(row);
}

type CountRow = { n: number };

/**
 * The session's user and their shell badges in one round trip (issue 17: a page's D1 round
 * trips include the session read), the page's first. The badge counts are keyed on the
 * session's owner by a subquery, so they need not wait for the user id; an unknown or
 * expired session counts nothing.
 */
export async function getSessionUserAndBadges(
  ctx: ModelCtx,
  sessionId: string,
  now = Date.now(),
): Promise<{ user: SessionUser | null; badges: Badges | null }> {
  const { user, badges } = await getSessionWith(ctx, sessionId, now, { badges: true, reads: [] });
  return { user, badges };
}

/**
 * The session's user, the shell badges when `badges`, and a page's own reads, all in the one
 * round trip (ADR 0063). The page's reads are keyed on the session's owner (Viewer), so they
 * need not wait for the user id; their rows are mapped by their own mappers, once.
 */
export async function getSessionWith<R extends readonly Read[]>(
  { db }: ModelCtx,
  sessionId: string,
  now: number,
  { badges: withBadges, reads }: { badges: boolean; reads: R },
) {
  const statements = builtStatements(db);
  const results = await db.$client.batch([
    prepared(db, withBadges ? statements.withBadges : statements.user, sessionId, now),
    ...reads.map((r) => r.statement),
  ]);
  const row = results[0].results[0] as Record<string, unknown> | undefined;
  const user = sessionUserFrom(row);
  const page = mapReads(reads, results.slice(1));
  if (!user || !withBadges || !row) return { user, badges: null, page };
  const count = (column: string): CountRow[] => [{ n: Number(row[column] ?? 0) }];
  return {
    user,
    badges: badgesFrom([count(BADGE_COLUMNS[0]), count(BADGE_COLUMNS[1]), count(BADGE_COLUMNS[2])]),
    page,
  };
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
