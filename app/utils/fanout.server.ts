import type { AppLoadContext } from "@remix-run/cloudflare";
import type { HubEvent, RoomEvent } from "../../durable-objects/hub-events";
import type { Audience } from "../models/context.server";
import { getLiveState } from "../models/live.server";
import { kickOutbox } from "../models/outbox/deliver.server";

type Ctx = Pick<AppLoadContext, "env" | "ctx" | "db">;

/** A notification younger than this is pushed as a live toast; older ones are history. */
const FRESH_MS = 60_000;

/**
 * The one live fan-out, after a COMMITTED write: every write model that concerns someone
 * returns an `Audience`, and its route passes it here right after the model returns. For
 * each user it reads their live state (one batch: badges, latest unread notification, push
 * setting; see app/models/live.server.ts) and publishes it to their UserHub: every open tab
 * updates its badges and revalidates. `notified` users also get a live toast of their fresh
 * notification unless push_notifications is off; `others` only get counts.
 *
 * Runs in `context.ctx.waitUntil`, so the response is never delayed, and swallows and logs
 * Durable Object failures: D1 is the system of record, so if a DO is unavailable nothing
 * is lost; the data simply arrives on the user's next page load or reconnect.
 */
export function publishChange(context: Ctx, audience: Audience): void {
  const notified = new Set(audience.notified.filter(Boolean));
  // A change that notified someone may have queued e-mail/push (same batch): send it now.
  if (notified.size > 0) kickOutbox(context);
  const others = new Set(audience.others.filter((id) => id && !notified.has(id)));
  if (notified.size + others.size === 0) return;
  const sends = [
    ...[...notified].map((id) => publishToUser(context, id, true)),
    ...[...others].map((id) => publishToUser(context, id, false)),
  ];
  context.ctx.waitUntil(Promise.all(sends).then(() => undefined));
}

async function publishToUser(context: Ctx, userId: string, withNotification: boolean): Promise<void> {
  try {
    const { badges, latest: n, push, closed } = await getLiveState(context, userId);
    // A deleted account's sockets were closed at deletion; one that slipped through hears nothing.
    if (closed) return;
    const hub = context.env.USER_HUB.get(context.env.USER_HUB.idFromName(userId));
    const frames: HubEvent[] = [{ type: "badges", ...badges }];
    const fresh = withNotification && n && push && Date.now() - n.createdAt < FRESH_MS ? n : null;
    if (fresh) {
      frames.push({
        type: "notification",
        id: fresh.id,
        title: fresh.title,
        message: fresh.message,
        notificationType: fresh.type,
        createdAt: fresh.createdAt,
      });
    }
    try {
      for (const frame of frames) await hub.publish(frame);
    } catch (e) {
      console.error("fan-out to UserHub failed (the data is safe in D1)", e);
    }
  } catch (e) {
    console.error("fan-out failed (the data is safe in D1)", e);
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
