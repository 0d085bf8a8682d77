import { and, count, eq, isNull } from "drizzle-orm";
import { messages, notifications, rideRequests, rides } from "../../db/schema";
import type { Db } from "../utils/db.server";

export type Badges = { pendingRequests: number; unreadNotifications: number; unreadMessages: number };

/** The acting user's badge counts, in one round trip (each an indexed count). */
export async function getBadges({ db }: { db: Db }, userId: string): Promise<Badges> {
  const [pending, unreadNotifications, unreadMessages] = await db.batch([
    db
      .select({ n: count() })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .where(and(eq(rides.driverId, userId), eq(rides.status, "active"), eq(rideRequests.status, "pending"))),
    db.select({ n: count() }).from(notifications).where(and(eq(notifications.userId, userId), eq(notifications.read, false))),
    db.select({ n: count() }).from(messages).where(and(eq(messages.receiverId, userId), isNull(messages.readAt))),
  ]);
  return {
    pendingRequests: pending[0]?.n ?? 0,
    unreadNotifications: unreadNotifications[0]?.n ?? 0,
    unreadMessages: unreadMessages[0]?.n ?? 0,
  };
}
