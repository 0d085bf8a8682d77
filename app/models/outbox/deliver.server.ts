import type { AppEnv } from "../../utils/env.server";
import type { Db } from "../db.server";
import { deliverPush } from "../push.server";
import {
  claimDueOutbox,
  type Delivery,
  loadDelivery,
  NOTIFICATION_MAX_AGE_MS,
  type OutboxRow,
  settleOutbox,
  skipClaimedOutbox,
} from "./queue.server";
import { mailLinks, type PushMessage, pushMessage, renderMail } from "./render.server";
import { type MailTransport, mailTransport, TransportError } from "./transport.server";

// The outbox sender (docs/decisions/0018-outbox-and-email.md): claims due rows, decides by
// the person's settings at send time, renders, hands the message to the channel's transport
// and records the outcome. At-least-once: a failure puts the row back with exponential
// back-off; the outbox key goes with the message (Resend's Idempotency-Key, the sink's unique
// key) so a retry after a lost answer is still one e-mail. Runs right after a change
// (`kickOutbox`, in waitUntil) and from the Cron Trigger (server.ts), which also retries.

type Ctx = { db: Db; env: AppEnv };

/** Delivers one push message to all of a person's push subscriptions. */
export type PushSender = (ctx: Ctx, userId: string, message: PushMessage) => Promise<"sent" | "no-subscription">;
/**
 * Web Push (app/models/push.server.ts). A subscription whose push service failed makes the
 * row retry: the browsers that did receive it may get it again, and the notification's tag
 * (the outbox row's) makes the browser replace the first one rather than show two.
 */
export const PUSH_SENDER: PushSender = async (ctx, userId, message) => {
  const r = await deliverPush(ctx, userId, message);
  if (r.failed > 0) throw new Error(`push failed for ${r.failed} subscription(s)`);
  return r.sent > 0 ? "sent" : "no-subscription";
};

export type DeliverOptions = { now?: number; limit?: number; transport?: MailTransport; push?: PushSender | null };
export type DeliverReport = { sent: number; skipped: number; retried: number };

/** Why this row must not go out now (settings, verification, a closed ride…), or null. */
export function skipReason(row: OutboxRow, d: Delivery, now: number): string | null {
  const p = d.person;
  if (!p) return "no such person";
  if (row.kind === "notification" && now - row.createdAt > NOTIFICATION_MAX_AGE_MS) return "too old";
  if (row.kind === "reminder") {
    if (p.rideReminders === false) return "ride reminders are off";
    if (!d.ride || d.ride.status !== "active" || d.ride.departsAt <= now) return "the ride is not upcoming";
    if (d.ride.driverId !== row.userId && d.acceptedSeats === null) return "no longer on this ride";
  }
  // Issue 16: a work e-mail code goes to the work address, not the account's, whatever the settings.
  if (row.kind === "work_email_code")
    return row.channel !== "email" ? "codes are e-mail only" : d.workCode ? null : "a newer code was requested";
  // Issue 37: an alert goes to the emergency contact's address, about a trip still on.
  if (row.kind === "emergency_alert") {
    if (row.channel !== "email") return "alerts are e-mail only";
    if (!p.emergencyContactEmail) return "no emergency contact e-mail";
    return d.ride && d.ride.status !== "cancelled" ? null : "the ride is cancelled";
  }
  if (row.channel === "push") {
    if (row.kind === "verify_email" || row.kind === "password_reset") return "account e-mails are e-mail only";
    if (p.pushNotifications === false) return "push notifications are off";
    return null;
  }
  if (!p.email) return "no e-mail address";
  switch (row.kind) {
    case "notification":
    case "reminder":
      if (p.emailVerifiedAt === null) return "e-mail address not verified";
      if (p.emailNotifications === false) return "e-mail notifications are off";
      return null;
    case "verify_email":
      return p.emailVerifiedAt !== null ? "already verified" : null;
    case "password_reset":
      return d.newerReset ? "a newer reset was requested" : null;
  }
}

async function deliverOne(ctx: Ctx, row: OutboxRow, transport: MailTransport, push: PushSender | null, now: number) {
  const d = await loadDelivery(ctx, row);
  const reason = skipReason(row, d, now);
  if (reason) return { status: "skipped" as const, reason };
  if (!ctx.env.APP_ORIGIN) throw new TransportError("APP_ORIGIN is not set: links in messages need the site's address");
  const origin = ctx.env.APP_ORIGIN.replace(/\/+$/, "");
  const mail = renderMail({ row, delivery: d, origin, links: await mailLinks(ctx, row, d, origin, now) });
  if (!mail) return { status: "skipped" as const, reason: "nothing to say" };
  if (row.channel === "push") {
    if (!push) return { status: "skipped" as const, reason: "push is not configured" };
    const result = await push(ctx, row.userId, pushMessage(row, mail));
    return result === "sent"
      ? { status: "sent" as const }
      : { status: "skipped" as const, reason: "no push subscription" };
  }
  const to =
    row.kind === "work_email_code"
      ? d.workCode!.email
      : row.kind === "emergency_alert"
        ? d.person!.emergencyContactEmail!
        : d.person!.email!;
  await transport.send({
    key: row.idempotencyKey,
    to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: mail.headers,
  });
  return { status: "sent" as const };
}

/** Sends what is due now (at most `limit` rows); never throws for one row's failure. */
export async function deliverOutbox(ctx: Ctx, opts: DeliverOptions = {}): Promise<DeliverReport> {
  const now = opts.now ?? Date.now();
  const transport = opts.transport ?? mailTransport(ctx.env, ctx.db);
  const push = opts.push === undefined ? PUSH_SENDER : opts.push;
  const report: DeliverReport = { sent: 0, skipped: 0, retried: 0 };
  const claimed = await claimDueOutbox(ctx, now, opts.limit ?? 25);
  // A notification not delivered within a day is news no more (skipReason's "too old"): skipped
  // without reading its person, all in one statement, so a backlog (an outage, a restore) costs
  // two round trips a batch instead of two a row, behind whichever request kicked the sender.
  const stale = claimed.filter((r) => r.kind === "notification" && now - r.createdAt > NOTIFICATION_MAX_AGE_MS);
  await skipClaimedOutbox(
    ctx,
    stale.map((r) => r.id),
    "too old",
  );
  report.skipped += stale.length;
  const rows = claimed.filter((r) => !stale.includes(r));
  for (const row of rows) {
    try {
      const outcome = await deliverOne(ctx, row, transport, push, now);
      await settleOutbox(ctx, row, outcome, now);
      report[outcome.status === "sent" ? "sent" : "skipped"]++;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (e instanceof TransportError && e.permanent) {
        await settleOutbox(ctx, row, { status: "skipped", reason: `refused: ${message}` }, now);
        report.skipped++;
      } else {
        console.error("outbox delivery failed; it will be retried", row.id, message);
        await settleOutbox(ctx, row, { status: "retry", error: message }, now).catch((err) =>
          console.error("outbox settle failed", err),
        );
        report.retried++;
      }
    }
  }
  return report;
}

/** Right after a change: send what it queued without delaying the response. */
export function kickOutbox(context: Ctx & { ctx: { waitUntil(promise: Promise<unknown>): void } }): void {
  context.ctx.waitUntil(
    deliverOutbox(context).then(
      () => undefined,
      (e) => console.error("outbox delivery failed", e),
    ),
  );
}
