import { and, desc, eq, is, SQL, sql } from "drizzle-orm";
import { notifications } from "../../db/schema";
import { newId } from "../domain/ids";
import type { Db } from "./db.server";
import type { Cursor } from "../domain/cursor";
import { afterCursor } from "./keyset.server";
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

/**
 * A notification whose columns may be SQL over the rows of the insert's FROM (one
 * notification per row, e.g. per rider of a ride). `id` defaults to a fresh newId(); a
 * multi-row insert passes PER_ROW_ID.
 */
export type NotificationRows = {
  id?: string | SQL;
  userId: string | SQL;
  type: NotificationType;
  title: string | SQL;
  message: string | SQL;
  data?: Record<string, unknown> | SQL;
};

/**
 * 'Thu, Dec 3' for a YYYY-MM-DD date column, in SQL: the same words as formatWeekdayDate, for
 * notices written by one INSERT … SELECT over many rows (a unit test compares the two).
 */
export const weekdayDateSql = (date: SQL) =>
  sql`(substr('SunMonTueWedThuFriSat', CAST(strftime('%w', ${date}) AS INTEGER) * 3 + 1, 3) || ', ' ||
    substr('JanFebMarAprMayJunJulAugSepOctNovDec', CAST(strftime('%m', ${date}) AS INTEGER) * 3 - 2, 3) || ' ' ||
    CAST(strftime('%d', ${date}) AS INTEGER))`;

/**
 * In a notice grouped over many days (rides in scope): the days in departure order,
 * 'Thu, Dec 3; Fri, Dec 4', and a column of the group's first ride (its link).
 */
export const daysListSql = () => sql`group_concat(${weekdayDateSql(sql`rides.date`)}, '; ' ORDER BY rides.departs_at)`;
export const firstOfGroup = (col: SQL) => sql`substr(min(printf('%015d|%s', rides.departs_at, ${col})), 17)`;

/** A fresh id for each row of a multi-row notification insert. */
export const PER_ROW_ID = sql`lower(hex(randomblob(8)))`;

// E-mail: a trigger on this table queues the notifications that are also e-mailed (and
// pushed) in the outbox, in the same transaction (docs/decisions/0018-outbox-and-email.md);
// email_notifications decides at send time. push_notifications decides whether a live toast is
// pushed to open tabs (see app/utils/fanout.server.ts); the notification row itself is always
// written (it is the user's own history).

/**
 * THE notification insert (every notification row is written by it, never for a deleted
 * account), to be sent in the same db.batch as the change it is about, so a notification exists exactly when its event
 * does. `INSERT INTO notifications SELECT <columns in table order> <from>`: `from` may guard
 * it (`WHERE changes() = 1`, `WHERE EXISTS …`) or fan it out over rows (`FROM … WHERE …`,
 * with SQL column values, see NotificationRows).
 */
export function notificationInsert(db: Db, n: NotificationRows, now = Date.now(), from: SQL = sql``) {
  const data = is(n.data, SQL) ? n.data : JSON.stringify(n.data ?? {});
  // Columns in table order: id, user_id, type, title, message, data, read, created_at. A deleted
  // account gets none (issue 34): it has no reader, and the outbox trigger would queue its mail.
  // The inner names are unusual so that `from` cannot mistake one for a column of its tables.
  return db.insert(notifications).select(sql`SELECT n_id, n_user, n_type, n_title, n_message, n_data, 0, n_at
    FROM (SELECT ${n.id ?? newId()} AS n_id, ${n.userId} AS n_user, ${n.type} AS n_type, ${n.title} AS n_title,
      ${n.message} AS n_message, ${data} AS n_data, ${now} AS n_at ${from}) AS n
    WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = n.n_user AND u.deleted_at IS NOT NULL)`);
}

/** Notifications on one page of the dashboard's panel; "Older notifications" shows the next this many (ADR 0025). */
export const NOTIFICATIONS_SHOWN = 20;

/**
 * The statement listing the acting user's own notifications, newest first (for a db.batch),
 * older than the `before` cursor (created_at, id) when given.
 */
export function ownNotificationsQuery(
  db: Db,
  userId: string | SQL,
  limit = NOTIFICATIONS_SHOWN,
  before: Cursor | null = null,
) {
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
    .where(and(eq(notifications.userId, userId), afterCursor(notifications.createdAt, notifications.id, before)))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
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
  return notificationInsert(db, n, now, sql`WHERE changes() = 1`);
}
