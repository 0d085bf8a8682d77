import { and, desc, eq } from "drizzle-orm";
import { notifications, users, userSettings } from "../../db/schema";
import { type Badges, badgeQueries, badgesFrom } from "./badges.server";
import type { ModelCtx } from "./context.server";

export type LatestNotification = {
  id: string;
  type: string;
  title: string;
  message: string;
  data: Record<string, unknown> | null;
  createdAt: number;
};

/**
 * What the live fan-out tells one user's open tabs, in ONE round trip: their badge counts,
 * their latest unread notification and whether they want live toasts (push_notifications,
 * on unless set off). `closed`: the account was deleted (issue 34), so nothing is sent to it.
 */
export async function getLiveState(
  { db }: ModelCtx,
  userId: string,
): Promise<{ badges: Badges; latest: LatestNotification | null; push: boolean; closed: boolean }> {
  const [pending, unreadNotifications, unreadMessages] = badgeQueries(db, userId);
  const [p, n, m, latest, settings, account] = await db.batch([
    pending,
    unreadNotifications,
    unreadMessages,
    db
      .select({
        id: notifications.id,
        type: notifications.type,
        title: notifications.title,
        message: notifications.message,
        data: notifications.data,
        createdAt: notifications.createdAt,
      })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
      .orderBy(desc(notifications.createdAt))
      .limit(1),
    db.select({ push: userSettings.pushNotifications }).from(userSettings).where(eq(userSettings.userId, userId)),
    db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, userId)),
  ]);
  const closed = !account[0] || account[0].deletedAt !== null;
  return { badges: badgesFrom([p, n, m]), latest: latest[0] ?? null, push: settings[0]?.push ?? true, closed };
}
