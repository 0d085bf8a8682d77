import type { AppEnv } from "../utils/env.server";
import { and, desc, eq, inArray, notInArray } from "drizzle-orm";
import { pushSubscriptions, userSettings } from "../../db/schema";
import { newId } from "../domain/ids";
import { type VapidKeys, webPushRequest } from "../domain/web-push";
import type { ModelCtx } from "./context.server";
import type { Db } from "./db.server";
import type { PushMessage } from "./outbox/render.server";
import { ConflictError } from "./errors.server";

/** The push services browsers subscribe with (Chrome/Edge/Opera, Firefox, Safari, Windows). */
const PUSH_SERVICE_HOSTS = ["fcm.googleapis.com", "push.services.mozilla.com", "push.apple.com", "notify.windows.com"];

/** Subscriptions kept per user (browsers and devices); the oldest beyond it are dropped. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;

export type PushCtx = ModelCtx & {
  env: Pick<AppEnv, "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT" | "PUSH_ALLOWED_HOSTS">;
};

export type PushSubscriptionInput = { endpoint: string; p256dh: string; auth: string };

/** What one delivery did: per subscription sent (2xx), removed (404/410: it expired) or failed (retry later). */
export type PushResult = {
  skipped: "setting-off" | "not-configured" | null;
  sent: number;
  removed: number;
  failed: number;
};

/** The VAPID keys, or null when this deployment has none (push is then off, and settings say so). */
export function vapidKeys(env: PushCtx["env"]): VapidKeys | null {
  if (!env.VAPID_PUBLIC_KEY || !env.VAPID_PRIVATE_KEY || !env.VAPID_SUBJECT) return null;
  return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT };
}

/**
 * The worker POSTs to whatever endpoint a subscription names, so only known push services
 * are accepted (not an open relay to any https URL); PUSH_ALLOWED_HOSTS adds more.
 */
export function isPushServiceHost(host: string, extra = ""): boolean {
  const allowed = [
    ...PUSH_SERVICE_HOSTS,
    ...extra
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  ];
  const h = host.toLowerCase();
  return allowed.some((a) => h === a || h.endsWith(`.${a}`));
}

export const PUSH_ENDPOINT_TAKEN =
  "This browser's notifications belong to another LoopRide account. Turn them off there first, or turn them on here again to get a new subscription.";

/**
 * Stores this browser's subscription for the acting user. The endpoint is unique: the same
 * account subscribing again updates its keys. An endpoint held by ANOTHER account is refused,
 * not re-assigned (issue 34): an endpoint is not a secret proof of holding the browser (it
 * shows in logs, exports, a shared device's history), and taking it over would silence the
 * holder's notifications. A browser that really changed hands makes a new subscription (a new
 * endpoint: the settings page unsubscribes the old one first), and the old row goes when the
 * push service answers 410 for it. At most MAX_PUSH_SUBSCRIPTIONS per user, in the same batch.
 */
export async function subscribePush(
  { db, env }: PushCtx,
  userId: string,
  input: PushSubscriptionInput,
  now = Date.now(),
) {
  if (!vapidKeys(env)) throw new ConflictError("Push notifications are not set up on this server.");
  if (!isPushServiceHost(new URL(input.endpoint).hostname, env.PUSH_ALLOWED_HOSTS)) {
    throw new ConflictError("This browser's push service is not supported. Please try another browser.");
  }
  const keep = db
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id))
    .limit(MAX_PUSH_SUBSCRIPTIONS);
  const [stored] = await db.batch([
    db
      .insert(pushSubscriptions)
      .values({ id: newId(), userId, endpoint: input.endpoint, p256dh: input.p256dh, auth: input.auth, createdAt: now })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: { p256dh: input.p256dh, auth: input.auth, createdAt: now },
        setWhere: eq(pushSubscriptions.userId, userId),
      })
      .returning({ id: pushSubscriptions.id }),
    db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), notInArray(pushSubscriptions.id, keep))),
  ]);
  if (stored.length === 0) throw new ConflictError(PUSH_ENDPOINT_TAKEN);
}

/** Forgets one of the acting user's own subscriptions (never anyone else's); how many rows went (0 or 1). */
export async function unsubscribePush({ db }: ModelCtx, userId: string, endpoint: string): Promise<number> {
  const gone = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return gone.length;
}

/** The acting user's subscribed endpoints (the settings page tells whether this browser is one), for a db.batch. */
export function ownPushEndpointsQuery(db: Db, userId: string) {
  return db
    .select({ endpoint: pushSubscriptions.endpoint })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .limit(MAX_PUSH_SUBSCRIPTIONS);
}

/** Only a path of this site is opened by a notification click (never another origin). */
export function safePushPath(url: string): string {
  return url.startsWith("/") && !url.startsWith("//") && !url.includes("\\") ? url : "/dashboard";
}

/**
 * Sends one message to every push subscription of `userId`, if their push_notifications
 * setting is on (read in the same round trip as the subscriptions). Each payload is
 * encrypted for that browser (RFC 8291, aes128gcm) and signed with VAPID (RFC 8292) by
 * app/domain/web-push.ts. A 404 or 410 from the push service means the subscription
 * is gone: its row is deleted. Other failures are counted (a caller with a queue retries).
 */
export async function deliverPush(
  ctx: PushCtx,
  userId: string,
  message: PushMessage,
  fetcher: typeof fetch = fetch,
): Promise<PushResult> {
  const { db, env } = ctx;
  const result: PushResult = { skipped: null, sent: 0, removed: 0, failed: 0 };
  const vapid = vapidKeys(env);
  if (!vapid) return { ...result, skipped: "not-configured" };
  const [settings, subs] = await db.batch([
    db.select({ push: userSettings.pushNotifications }).from(userSettings).where(eq(userSettings.userId, userId)),
    db
      .select({
        id: pushSubscriptions.id,
        endpoint: pushSubscriptions.endpoint,
        p256dh: pushSubscriptions.p256dh,
        auth: pushSubscriptions.auth,
      })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.userId, userId))
      .limit(MAX_PUSH_SUBSCRIPTIONS),
  ]);
  if (!(settings[0]?.push ?? true)) return { ...result, skipped: "setting-off" };
  const data = { title: message.title, body: message.body, url: safePushPath(message.url), tag: message.tag ?? null };
  const expired: string[] = [];
  await Promise.all(
    subs.map(async (s) => {
      try {
        const target = { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } };
        const init = await webPushRequest(target, data, vapid, { ttl: 24 * 60 * 60, urgency: "normal" });
        const res = await fetcher(s.endpoint, init);
        if (res.ok) result.sent++;
        else if (res.status === 404 || res.status === 410) expired.push(s.id);
        else {
          result.failed++;
          console.error(`push to ${new URL(s.endpoint).host} answered ${res.status}`);
        }
      } catch (e) {
        result.failed++;
        console.error("push delivery failed", e);
      }
    }),
  );
  if (expired.length) {
    const gone = await db
      .delete(pushSubscriptions)
      .where(and(eq(pushSubscriptions.userId, userId), inArray(pushSubscriptions.id, expired)))
      .returning({ id: pushSubscriptions.id });
    result.removed = gone.length;
  }
  return result;
}
