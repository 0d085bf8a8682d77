import { and, count, eq, isNull, sql, type SQL } from "drizzle-orm";
import { messages, notifications, rideRequests, rides } from "../../db/schema";
import type { Db } from "./db.server";
import type { ModelCtx } from "./context.server";

export type Badges = { pendingRequests: number; unreadNotifications: number; unreadMessages: number };

/** Badges show "99+" beyond this: counting further would read rows nobody looks at. */
export const BADGE_CAP = 99;

/** The rows to count: `select 1 from … where …`. */
export const countable = (db: Db) => db.select({ one: sql`1` });

/** count(*) of at most cap + 1 rows of `rowsQuery`, so a busy account reads a bounded number of rows. */
export function cappedCount(db: Db, rowsQuery: { limit(n: number): { as(alias: string): unknown } }, cap = BADGE_CAP) {
  const inner = rowsQuery.limit(cap + 1).as("capped") as Parameters<ReturnType<Db["select"]>["from"]>[0];
  return db.select({ n: count() }).from(inner);
}

/**
 * The three capped counts behind a user's badges, for a db.batch (see getBadges, live.server.ts).
 * `userId` may be SQL (the session's owner, getSessionUserAndBadges).
 */
export function badgeQueries(db: Db, userId: string | SQL) {
  return [
    cappedCount(
      db,
      countable(db)
        .from(rideRequests)
        .innerJoin(rides, eq(rides.id, rideRequests.rideId))
        .where(and(eq(rides.driverId, userId), eq(rides.status, "active"), eq(rideRequests.status, "pending"))),
    ),
    cappedCount(
      db,
      countable(db)
        .from(notifications)
        .where(and(eq(notifications.userId, userId), eq(notifications.read, false))),
    ),
    cappedCount(
      db,
      countable(db)
        .from(messages)
        .where(and(eq(messages.receiverId, userId), isNull(messages.readAt))),
    ),
  ] as const;
}

type CountRows = { n: number }[];

/** The batch results of badgeQueries, as Badges. */
export function badgesFrom([pending, unreadNotifications, unreadMessages]: readonly [
  CountRows,
  CountRows,
  CountRows,
]): Badges {
  return {
    pendingRequests: pending[0]?.n ?? 0,
    unreadNotifications: unreadNotifications[0]?.n ?? 0,
    unreadMessages: unreadMessages[0]?.n ?? 0,
  };
}

/** The acting user's badge counts, in one round trip (each an indexed, capped count). */
export async function getBadges({ db }: ModelCtx, userId: string): Promise<Badges> {
  const [a, b, c] = badgeQueries(db, userId);
  return badgesFrom(await db.batch([a, b, c]));
}
