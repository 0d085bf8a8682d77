import { and, desc, eq, sql } from "drizzle-orm";
import { notifications } from "../../db/schema";
import { newId } from "../domain/ids";
import type { Db } from "../utils/db.server";
import { NotFoundError } from "./errors.server";

export type { NotificationType } from "../domain/notifications";
import type { NotificationType } from "../domain/notifications";
import { type ModelCtx } from "./context.server";

export type NewNotification = {
  userId: string;
  type: NotificationType;
  title: string;
  message: string;
  data?: Record<string, unknown>;
};

// E-mail: LoopRide sends no e-mail at all (no mail provider is configured), so the
// email_notifications setting is stored and shown but has no effect yet. push_notifications
// decides whether a live toast is pushed to open tabs (see app/utils/fanout.server.ts);
// the notification row itself is always written (it is the user's own history).

/**
 * The insert for one notification, to be sent in the same db.batch as the change it is
 * about (so a notification exists exactly when its event does).
 */
export function notificationInsert(db: Db, n: NewNotification, now = Date.now()) {
  return db.insert(notifications).values({
    id: newId(),
    userId: n.userId,
    type: n.type,
    title: n.title,
    message: n.message,
    data: n.data ?? {},
    read: false,
    createdAt: now,
  });
}

export const NOTIFICATIONS_SHOWN = 30;

/** The statement listing the acting user's own notifications, newest first (for a db.batch). */
export function ownNotificationsQuery(db: Db, userId: string, limit = NOTIFICATIONS_SHOWN) {
  return db
    .select({
      id: notifications.id,
      type: notifications.type,
      title: notifications.title,
      message: notifications.message,
      data: notifications.data,
      read: notifications.read,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt))
    .limit(limit);
}

export type NotificationItem = Awaited<ReturnType<typeof ownNotificationsQuery>>[number];

/** The acting user's own notifications, newest first (index notifications_user_idx). */
export async function listOwnNotifications({ db }: ModelCtx, userId: string, limit = NOTIFICATIONS_SHOWN) {
  return ownNotificationsQuery(db, userId, limit);
}

/** Marks one of the acting user's own notifications read. Someone else's is "not found". */
export async function markNotificationRead({ db }: ModelCtx, userId: string, notificationId: string) {
  const rows = await db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.id, notificationId), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  if (rows.length === 0) throw new NotFoundError("Notification not found");
}

/** Marks every unread notification of the acting user read; returns how many changed. */
export async function markAllNotificationsRead({ db }: ModelCtx, userId: string): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ read: true })
    .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
    .returning({ id: notifications.id });
  return rows.length;
}

/** The statement marking the user's unread message notifications of one conversation read (for a db.batch). */
export function markConversationNotificationsRead(db: Db, userId: string, conversationId: string) {
  return db
    .update(notifications)
    .set({ read: true })
    .where(
      and(
        eq(notifications.userId, userId),
        eq(notifications.read, false),
        eq(notifications.type, "message"),
        sql`json_extract(${notifications.data}, '$.conversation_id') = ${conversationId}`,
      ),
    );
}

/**
 * The same insert, but only if the statement just before it in the batch changed exactly
 * one row (SQLite's changes()): a batch cannot branch, so the guard lives in SQL. Use it
 * after a guarded UPDATE so a lost race writes no notification.
 */
export function notificationInsertIfChanged(db: Db, n: NewNotification, now = Date.now()) {
  return db.insert(notifications).select(
    sql`SELECT ${newId()}, ${n.userId}, ${n.type}, ${n.title}, ${n.message}, ${JSON.stringify(n.data ?? {})}, 0, ${now} WHERE changes() = 1`,
  );
}
