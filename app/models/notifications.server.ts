import { notifications } from "../../db/schema";
import { newId } from "../domain/ids";
import type { Db } from "../utils/db.server";

export type NotificationType = "ride_request" | "ride_update" | "message" | "community";

export type NewNotification = {
  userId: string;
  type: NotificationType;
  title: string;
  message: string;
  data?: Record<string, unknown>;
};

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
