import type { AppLoadContext } from "@remix-run/cloudflare";
import { and, desc, eq } from "drizzle-orm";
import { notifications, userSettings } from "../../db/schema";
import type { HubEvent, RoomEvent } from "../../durable-objects/hub-events";
import { getBadges } from "../models/badges.server";

type Ctx = Pick<AppLoadContext, "env" | "ctx" | "db">;

/** A notification younger than this is pushed as a live toast; older ones are history. */
const FRESH_MS = 60_000;

/**
 * Live fan-out after a COMMITTED write: for each user, reads their fresh badge counts and
 * latest unread notification from D1 and publishes them to that user's UserHub (every open
 * tab then updates its badges and revalidates). Call it after any write that changes what
 * a user's badges or notifications show: messages (here), and rides, ride requests and
 * communities (their routes call `publishChange(context, { notified, others })` right after
 * their db.batch succeeds). `extra` frames (e.g. `request-changed`) go to every listed user.
 *
 * Runs in `context.ctx.waitUntil`, so the response is never delayed, and swallows and logs
 * Durable Object failures: D1 is the system of record, so if a DO is unavailable nothing
 * is lost; the data simply arrives on the user's next page load or reconnect.
 * A user with push_notifications off still gets badge counts but no live toast frame.
 */
export function publishToUsers(context: Ctx, userIds: Iterable<string>, extra: HubEvent[] = []): void {
  publish(context, userIds, extra, true);
}

/**
 * Badge counts only, for users whose counts changed by a write that sent them no new
 * notification (e.g. the driver who just accepted a request): no live toast is pushed.
 */
export function publishBadges(context: Ctx, userIds: Iterable<string>, extra: HubEvent[] = []): void {
  publish(context, userIds, extra, false);
}

/** After a write: `notified` got a new notification, `others` only changed counts. */
export function publishChange(context: Ctx, change: { notified: string[]; others: string[] }): void {
  publishToUsers(context, change.notified);
  publishBadges(context, change.others.filter((id) => !change.notified.includes(id)));
}

function publish(context: Ctx, userIds: Iterable<string>, extra: HubEvent[], withNotification: boolean): void {
  const ids = [...new Set(userIds)].filter(Boolean);
  if (ids.length === 0) return;
  context.ctx.waitUntil(Promise.all(ids.map((id) => publishToUser(context, id, extra, withNotification))).then(() => undefined));
}

async function publishToUser({ env, db }: Ctx, userId: string, extra: HubEvent[], withNotification: boolean): Promise<void> {
  try {
    const [badges, [latest, settings]] = await Promise.all([
      getBadges({ db }, userId),
      db.batch([
        db
          .select({
            id: notifications.id,
            type: notifications.type,
            title: notifications.title,
            message: notifications.message,
            createdAt: notifications.createdAt,
          })
          .from(notifications)
          .where(and(eq(notifications.userId, userId), eq(notifications.read, false)))
          .orderBy(desc(notifications.createdAt))
          .limit(1),
        db.select({ push: userSettings.pushNotifications }).from(userSettings).where(eq(userSettings.userId, userId)),
      ]),
    ]);
    const hub = env.USER_HUB.get(env.USER_HUB.idFromName(userId));
    const frames: HubEvent[] = [{ type: "badges", ...badges }, ...extra];
    const n = latest[0];
    const push = settings[0]?.push ?? true;
    if (withNotification && n && push && Date.now() - n.createdAt < FRESH_MS) {
      frames.push({ type: "notification", id: n.id, title: n.title, message: n.message, notificationType: n.type, createdAt: n.createdAt });
    }
    for (const frame of frames) await hub.publish(frame);
  } catch (e) {
    console.error("fan-out to UserHub failed (the data is safe in D1)", e);
  }
}

/** Publishes a committed message to its ConversationRoom (both members' open chats), in waitUntil; errors are logged. */
export function publishToConversation({ env, ctx }: Ctx, event: RoomEvent): void {
  ctx.waitUntil(
    (async () => {
      try {
        await env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(event.conversationId)).publish(event);
      } catch (e) {
        console.error("fan-out to ConversationRoom failed (the message is safe in D1)", e);
      }
    })(),
  );
}
