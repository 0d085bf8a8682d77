import { formatRupees, seatPricePaise } from "../../domain/money";
import { ownPickupText, pickupStopText } from "../../domain/pickups";
import { formatDate, formatTime } from "../../domain/time";
import { notificationHref } from "../../domain/notifications";
import type { AppEnv } from "../../utils/env.server";
import type { Db } from "../db.server";
import { issueResetToken } from "../password-resets.server";
import { mintShareToken } from "../trip-shares.server";
import { issueWorkEmailCode } from "../work-email.server";
import type { Delivery, OutboxRow } from "./queue.server";
import { signMailToken, VERIFY_EMAIL_TTL_MS } from "./tokens.server";

// Every message LoopRide sends, rendered from an outbox row at send time: the e-mail (a
// plain-text part and an HTML part with the same words) and the push message made from it. Anything that came from a person (names, places,
// reasons, community names) is escaped in the HTML part; nothing is ever inserted raw.

/** A push message (the same words as the e-mail, shorter); the tag lets a browser replace a repeat. */
export type PushMessage = { title: string; body: string; url: string; tag?: string };

export type RenderedMail = {
  subject: string;
  text: string;
  html: string;
  /** The main link (also the push notification's target). */
  url: string;
  /** Extra headers (List-Unsubscribe for notification e-mails). */
  headers: Record<string, string>;
};

export function escapeHtml(s: string): string {
  return s
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** A header value never carries a line break (header injection) and stays short. */
export function headerSafe(s: string): string {
  return s
    .replace(/[\r\n\t]+/g, " ")
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, 200);
}

type Parts = {
  subject: string;
  greeting: string;
  lines: string[];
  action: { label: string; url: string };
  footer: string[];
};

function compose(p: Parts, headers: Record<string, string> = {}): RenderedMail {
  const text = [p.greeting, "", ...p.lines, "", `${p.action.label}: ${p.action.url}`, "", "--", ...p.footer, ""].join(
    "\n",
  );
  const para = (l: string) => `<p style="margin:0 0 12px">${escapeHtml(l)}</p>`;
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(p.subject)}</title></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#0f172a;background:#f8fafc;margin:0;padding:24px">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:24px">
<p style="margin:0 0 16px;font-weight:700;color:#047857">LoopRide</p>
${para(p.greeting)}
${p.lines.map(para).join("\n")}
<p style="margin:20px 0"><a href="${escapeHtml(p.action.url)}" style="background:#047857;color:#ffffff;padding:10px 16px;border-radius:8px;text-decoration:none;display:inline-block">${escapeHtml(p.action.label)}</a></p>
<hr style="border:none;border-top:1px solid #e2e8f0;margin:20px 0">
${p.footer.map((l) => `<p style="margin:0 0 8px;font-size:12px;color:#475569">${escapeHtml(l)}</p>`).join("\n")}
</div></body></html>`;
  return { subject: headerSafe(p.subject), text, html, url: p.action.url, headers };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function rideLines(ride: NonNullable<Delivery["ride"]>, seats: number | null): string[] {
  const lines = [
    `Route: ${ride.fromLocation} → ${ride.toLocation}`,
    `Departs: ${formatDate(ride.date)} at ${formatTime(ride.time)} IST`,
    `Seat price: ${formatRupees(seatPricePaise(ride.tripCostPaise, ride.seats))}`,
  ];
  if (seats)
    lines.push(`Your seats: ${seats} (${formatRupees(seats * seatPricePaise(ride.tripCostPaise, ride.seats))} in all)`);
  return lines;
}

export type RenderInput = {
  row: OutboxRow;
  delivery: Delivery;
  origin: string;
  /** Signed links made by the sender (they need the secret). */
  links: MailLinks;
};

type MailLinks = { unsubscribe?: string; verify?: string; reset?: string; code?: string; trip?: string };

/** The row's signed links and one-time secrets, made at send time (never stored in the row). */
export async function mailLinks(
  ctx: { db: Db; env: AppEnv },
  row: OutboxRow,
  d: Delivery,
  origin: string,
  now: number,
): Promise<MailLinks> {
  const out: MailLinks = {};
  if (row.kind === "notification" || row.kind === "reminder") {
    const token = await signMailToken(ctx.env, { p: "unsubscribe", u: row.userId });
    out.unsubscribe = `${origin}/unsubscribe?token=${token}`;
  } else if (row.kind === "verify_email") {
    const claims = { p: "verify-email" as const, u: row.userId, e: d.person!.email!, x: now + VERIFY_EMAIL_TTL_MS };
    out.verify = `${origin}/verify-email?token=${await signMailToken(ctx.env, claims)}`;
  } else if (row.kind === "password_reset" && row.channel === "email") {
    out.reset = `${origin}/reset-password?token=${await issueResetToken(ctx, row.userId, now)}`;
  } else if (row.kind === "work_email_code" && d.workCode) {
    // Like the reset link: the code is made now and only its HMAC is stored.
    out.code = (await issueWorkEmailCode(ctx, d.workCode.id, now)) ?? undefined;
  } else if (row.kind === "emergency_alert" && typeof row.payload.share_id === "string") {
    // Like the reset link: the share token is made now and only its hash is stored.
    const token = await mintShareToken(ctx, row.payload.share_id);
    if (token) out.trip = `${origin}/trip/${token}`;
  }
  return out;
}

function firstLine(mail: RenderedMail): string {
  return (
    mail.text
      .split("\n")
      .slice(2)
      .find((l) => l.trim()) ?? mail.subject
  );
}

/**
 * A notification is pushed with the words and the link the app shows for it (the in-app
 * toast's); a reminder with the e-mail's subject, first line and the link's path (a push
 * opens only paths on this site).
 */
export function pushMessage(row: OutboxRow, mail: RenderedMail): PushMessage {
  const p = row.payload as { type?: string; title?: string; message?: string; data?: Record<string, unknown> | null };
  if (row.kind === "notification" && p.type && p.title && p.message) {
    return {
      title: p.title,
      body: p.message,
      url: notificationHref(p.type, p.data) ?? "/dashboard",
      tag: row.idempotencyKey,
    };
  }
  const link = new URL(mail.url);
  return { title: mail.subject, body: firstLine(mail), url: `${link.pathname}${link.search}`, tag: row.idempotencyKey };
}

const NOTIFICATION_FOOTER = (unsubscribe: string) => [
  "You get this e-mail because e-mail notifications are on in your LoopRide settings.",
  `Turn them off with one click: ${unsubscribe}`,
];

/** The e-mail for a row, or null when there is nothing to say (the sender skips it). */
export function renderMail({ row, delivery, origin, links }: RenderInput): RenderedMail | null {
  const name = delivery.person?.firstName?.trim() || "there";
  const greeting = `Hello ${name},`;
  const listHeaders: Record<string, string> = links.unsubscribe
    ? { "List-Unsubscribe": `<${links.unsubscribe}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" }
    : {};
  switch (row.kind) {
    case "notification": {
      const p = row.payload as { title?: string; message?: string; data?: Record<string, unknown> };
      const data = p.data ?? {};
      const ride = delivery.ride;
      const communityId = typeof data.community_id === "string" ? data.community_id : null;
      const url = ride
        ? `${origin}/rides/${encodeURIComponent(ride.id)}`
        : communityId
          ? `${origin}/communities/${encodeURIComponent(communityId)}`
          : `${origin}/dashboard`;
      const lines = [String(p.message ?? "")];
      if (ride) lines.push(...rideLines(ride, row.payload.type === "ride_request" ? null : delivery.acceptedSeats));
      if (typeof data.seats === "number" && row.payload.type === "ride_request")
        lines.push(`Seats requested: ${data.seats}`);
      // A saved-search alert (issue 14) says where to pause or delete that search.
      if (typeof data.saved_search_id === "string")
        lines.push(
          `You get this alert because of a search you saved. Pause or delete it under Your saved searches: ${origin}/rides#saved-searches`,
        );
      const subject = ride
        ? `${p.title ?? "LoopRide"}: ${ride.fromLocation} → ${ride.toLocation}`
        : (p.title ?? "LoopRide");
      return compose(
        {
          subject,
          greeting,
          lines,
          action: { label: ride ? "Open the ride" : communityId ? "Open the community" : "Open LoopRide", url },
          footer: NOTIFICATION_FOOTER(links.unsubscribe!),
        },
        listHeaders,
      );
    }
    case "reminder": {
      const ride = delivery.ride!;
      const driving = ride.driverId === row.userId;
      const riders = ride.bookedSeats;
      // Issue 36: the driver gets each accepted rider's pickup in the route's order, a rider
      // their own (a place on the way is later than the departure from the start).
      const own = delivery.pickups[0];
      const pickups = driving
        ? delivery.pickups.length
          ? [
              "Pickups in order (estimated times, IST):",
              ...delivery.pickups.map((p, i) => `${i + 1}. ${pickupStopText(p)}`),
            ]
          : []
        : own
          ? [`${ownPickupText(own)} IST`]
          : [];
      const lines = [
        driving
          ? `Your ride leaves soon. You are driving, with ${plural(riders, "seat")} booked.`
          : `Your ride with ${ride.driverName ?? "your driver"} leaves soon.`,
        ...rideLines(ride, driving ? null : delivery.acceptedSeats),
        ...pickups,
        "Please be at the pickup point a few minutes early.",
      ];
      return compose(
        {
          subject: `Reminder: ${ride.fromLocation} → ${ride.toLocation} at ${formatTime(ride.time)} IST`,
          greeting,
          lines,
          action: { label: "Open the ride", url: `${origin}/rides/${encodeURIComponent(ride.id)}` },
          footer: [
            "You get this reminder because ride reminders are on in your LoopRide settings.",
            `Turn off e-mail notifications with one click: ${links.unsubscribe}`,
          ],
        },
        listHeaders,
      );
    }
    case "verify_email":
      return compose({
        subject: "Confirm your e-mail address for LoopRide",
        greeting,
        lines: [
          "Please confirm that this is your e-mail address. Ride updates are e-mailed only to confirmed addresses.",
          "The link works for 7 days. If you did not create a LoopRide account, you can ignore this e-mail.",
        ],
        action: { label: "Confirm my e-mail", url: links.verify! },
        footer: ["This is an account e-mail: it is sent even when e-mail notifications are off."],
      });
    case "password_reset":
      return compose({
        subject: "Reset your LoopRide password",
        greeting,
        lines: [
          "Someone (we hope you) asked to reset the password of your LoopRide account.",
          "The link works once, for 30 minutes. If you did not ask, ignore this e-mail: your password stays as it is.",
        ],
        action: { label: "Choose a new password", url: links.reset! },
        footer: ["This is an account e-mail: it is sent even when e-mail notifications are off."],
      });
    case "emergency_alert": {
      const ride = delivery.ride;
      if (!ride || !links.trip) return null;
      const who = delivery.person?.fullName?.trim() || "A LoopRide member";
      return compose({
        subject: `${who} shared their LoopRide trip with you`,
        greeting: "Hello,",
        lines: [
          `${who} named you as their emergency contact and asked LoopRide to send you this link to their carpool trip:`,
          `${ride.fromLocation} → ${ride.toLocation}, ${formatDate(ride.date)} at ${formatTime(ride.time)} IST.`,
          "The link shows the route, the driver's first name and car, and whether the trip has started and ended. It stops working an hour after the trip ends.",
          `LoopRide is not an emergency service and nobody at LoopRide watches trips. If you think ${who} is in danger, call 112.`,
        ],
        action: { label: "Follow the trip", url: links.trip },
        footer: ["You get this e-mail because a LoopRide member entered your address as their emergency contact."],
      });
    }
    case "work_email_code": {
      const c = delivery.workCode;
      if (!c || !links.code) return null;
      return compose({
        subject: `Your LoopRide code for ${c.communityName}: ${links.code}`,
        greeting,
        lines: [
          `Your code to verify ${c.email} and join ${c.communityName} on LoopRide is:`,
          links.code,
          "Enter it on the community's page within 10 minutes. It works once; after 5 wrong tries, or when you ask for a new code, it stops working.",
          "If you did not ask for it, you can ignore this e-mail: nobody joins without the code.",
        ],
        action: { label: "Open the community", url: `${origin}/communities/${encodeURIComponent(c.communityId)}` },
        footer: [
          "LoopRide sent this to your work address because someone entered it to verify their workplace. We do not keep it for anything else.",
        ],
      });
    }
  }
}
