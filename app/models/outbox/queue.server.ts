import { and, eq, gt, inArray, lte, or, type SQL, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  communities,
  communityEmailCodes,
  outbox,
  rideRequests,
  rides,
  userProfiles,
  userSettings,
  users,
} from "../../../db/schema";
import { newId } from "../../domain/ids";
import { ownPickupText, pickupStopText } from "../../domain/pickups";
import type { Db } from "../db.server";
import { type ModelCtx } from "../context.server";
import { pickupOrder, rideRoute } from "../places.server";
import { notificationInsert, PER_ROW_ID, weekdayDateSql } from "../notifications.server";

// The outbox (docs/decisions/0018-outbox-and-email.md). Rows are written in the same
// transaction as the change they are about: notification e-mails by the trigger on
// notifications (migration 0012), account e-mails by the batch that causes them
// (outboxInsert), ride reminders by one guarded INSERT … SELECT from the Cron Trigger. The
// sender (deliver.server.ts) claims due rows, delivers them and records the outcome.

export type OutboxChannel = "email" | "push";
export type OutboxKind =
  | "notification"
  | "reminder"
  | "verify_email"
  | "password_reset"
  | "work_email_code"
  | "emergency_alert";
export type OutboxRow = typeof outbox.$inferSelect;

/** Every channel an event goes out on; each channel's sender decides by the person's settings. */
export const OUTBOX_CHANNELS: OutboxChannel[] = ["email", "push"];

/** A claimed row is someone's for this long; after that another sender may retry it. */
export const CLAIM_MS = 2 * 60_000;
/** Give up after this many attempts (about 4 hours of back-off in all). */
export const MAX_ATTEMPTS = 8;
/** A notification e-mail older than this is not sent any more (after an outage, old news). */
export const NOTIFICATION_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** A ride reminder goes out when the cron first sees the ride this close to departure. */
export const REMINDER_LEAD_MS = 60 * 60_000;
/** The cron runs every 5 minutes: the window is one run wider than the lead. */
export const REMINDER_WINDOW_MS = REMINDER_LEAD_MS + 5 * 60_000;

/** Retry delay after `attempts` failed attempts: 1, 2, 4, … minutes, at most an hour. */
export function backoffMs(attempts: number): number {
  return Math.min(60, 2 ** Math.max(0, attempts - 1)) * 60_000;
}

/** The statement queuing one message (for the caller's db.batch); a repeated key queues nothing. */
export function outboxInsert(
  db: Db,
  row: { channel: OutboxChannel; userId: string; kind: OutboxKind; key: string; payload?: Record<string, unknown> },
  now = Date.now(),
) {
  return db
    .insert(outbox)
    .values({
      id: newId(),
      channel: row.channel,
      userId: row.userId,
      kind: row.kind,
      idempotencyKey: row.key,
      payload: row.payload ?? {},
      status: "pending",
      attempts: 0,
      nextAttemptAt: now,
      createdAt: now,
    })
    .onConflictDoNothing({ target: outbox.idempotencyKey });
}

/**
 * Queues the reminder of every active ride that departs within REMINDER_WINDOW_MS, for its
 * driver and each accepted rider whose ride_reminders setting is on, on every channel. The key
 * (ride, person, channel) makes a second run, a late run or two concurrent runs queue nothing
 * new. Cancelled rides and withdrawn requests match nothing (and the sender checks again).
 * Uses rides_discover_idx (status, departs_at) and ride_requests_ride_idx.
 *
 * Issue 35: the reminder is in the notifications panel too. Its notification is written in
 * the same batch, just before the outbox rows and only for a (ride, person) whose e-mail row
 * is not queued yet, so it is written exactly once as well (D1 runs batches one at a time).
 * It carries no `status` or `change`, so the notifications trigger does not mail it again.
 */
export async function enqueueRideReminders({ db }: ModelCtx, now = Date.now()): Promise<number> {
  const until = now + REMINDER_WINDOW_MS;
  const due = sql`SELECT r.id AS p_ride, r.driver_id AS p_user FROM rides r
        WHERE r.status = 'active' AND r.departs_at > ${now} AND r.departs_at <= ${until}
      UNION ALL
      SELECT rr.ride_id, rr.rider_id FROM rides r JOIN ride_requests rr ON rr.ride_id = r.id AND rr.status = 'accepted'
        WHERE r.status = 'active' AND r.departs_at > ${now} AND r.departs_at <= ${until}`;
  const wanted = sql`LEFT JOIN user_settings s ON s.user_id = p.p_user WHERE coalesce(s.ride_reminders, 1) = 1`;
  // Issue 36: the notice names the pickups. Their times come from the route model (code, not
  // SQL), so they are worked out first and handed to the INSERT as JSON keyed "ride:person".
  const pickups = JSON.stringify(await pickupNotes(db, now, until));
  const [, rows] = await db.batch([
    notificationInsert(
      db,
      {
        id: PER_ROW_ID,
        userId: sql`p.p_user`,
        type: "ride_update",
        title: "Ride reminder",
        message: sql`'Your ride ' || r.from_location || ' → ' || r.to_location || ' leaves at '
          || ${timeSql(sql`r.time`)} || ' on ' || ${weekdayDateSql(sql`r.date`)} || '.'
          || coalesce((SELECT ' ' || j.value FROM json_each(${pickups}) AS j WHERE j.key = p.p_ride || ':' || p.p_user), '')
          || ' Please be at the pickup a few minutes early.'`,
        data: sql`json_object('ride_id', p.p_ride, 'reminder', 1)`,
      },
      now,
      sql`FROM (${due}) AS p JOIN rides r ON r.id = p.p_ride ${wanted}
        AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.idempotency_key = 'reminder:' || p.p_ride || ':' || p.p_user || ':email')`,
    ),
    db
      .insert(outbox)
      .select(
        sql`SELECT lower(hex(randomblob(8))), c.channel, p.p_user, 'reminder',
          'reminder:' || p.p_ride || ':' || p.p_user || ':' || c.channel,
          json_object('ride_id', p.p_ride), 'pending', 0, ${now}, NULL, ${now}, NULL
        FROM (${due}) AS p
        CROSS JOIN (SELECT 'email' AS channel UNION ALL SELECT 'push') AS c
        ${wanted}`,
      )
      .onConflictDoNothing({ target: outbox.idempotencyKey })
      .returning({ id: outbox.id }),
  ]);
  return rows.length;
}

/**
 * The pickups of each due ride with accepted riders, as the reminder notice says them: the
 * driver's in the route's order, each rider's own. Uses rides_discover_idx (status,
 * departs_at) and ride_requests_ride_idx.
 */
async function pickupNotes(db: Db, now: number, until: number): Promise<Record<string, string>> {
  const rider = alias(userProfiles, "rider");
  const rows = await db
    .select({
      rideId: rides.id,
      driverId: rides.driverId,
      fromLocation: rides.fromLocation,
      departsAt: rides.departsAt,
      fromLat: rides.fromLat,
      fromLng: rides.fromLng,
      toLat: rides.toLat,
      toLng: rides.toLng,
      viaPlaceIds: rides.viaPlaceIds,
      maxDetourMinutes: userProfiles.maxDetourMinutes,
      id: rideRequests.id,
      riderId: rideRequests.riderId,
      seats: rideRequests.seats,
      status: rideRequests.status,
      pickupPlaceId: rideRequests.pickupPlaceId,
      riderName: rider.fullName,
    })
    .from(rides)
    .innerJoin(rideRequests, and(eq(rideRequests.rideId, rides.id), eq(rideRequests.status, "accepted")))
    .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
    .leftJoin(rider, eq(rider.userId, rideRequests.riderId))
    .where(and(eq(rides.status, "active"), gt(rides.departsAt, now), lte(rides.departsAt, until)));
  const byRide = new Map<string, typeof rows>();
  for (const r of rows) byRide.set(r.rideId, [...(byRide.get(r.rideId) ?? []), r]);
  const notes: Record<string, string> = {};
  for (const [rideId, requests] of byRide) {
    const ride = requests[0];
    const stops = pickupOrder(ride, rideRoute(ride), requests);
    notes[`${rideId}:${ride.driverId}`] = `Pickups in order: ${stops.map(pickupStopText).join("; ")}.`;
    for (const r of requests) {
      const own = stops.find((s) => s.requestId === r.id);
      if (own) notes[`${rideId}:${r.riderId}`] = `${ownPickupText(own)}.`;
    }
  }
  return notes;
}

/** "8:30 AM" from an "HH:MM" column, as formatTime (app/domain/time.ts) writes it. */
const timeSql = (t: SQL) =>
  sql`(CAST((CAST(substr(${t}, 1, 2) AS INTEGER) + 11) % 12 + 1 AS TEXT) || ':' || substr(${t}, 4, 2)
    || CASE WHEN CAST(substr(${t}, 1, 2) AS INTEGER) < 12 THEN ' AM' ELSE ' PM' END)`;

/**
 * Claims up to `limit` due rows (pending and due, or claimed by a sender whose claim lapsed)
 * in one UPDATE, so two senders running at once never claim the same row. Each claim counts
 * as an attempt.
 */
export async function claimDueOutbox({ db }: ModelCtx, now = Date.now(), limit = 25): Promise<OutboxRow[]> {
  return db
    .update(outbox)
    .set({ status: "sending", nextAttemptAt: now + CLAIM_MS, attempts: sql`${outbox.attempts} + 1` })
    .where(
      sql`${outbox.id} IN (SELECT id FROM outbox WHERE status IN ('pending', 'sending') AND next_attempt_at <= ${now} ORDER BY next_attempt_at LIMIT ${limit})`,
    )
    .returning();
}

/** Records the outcome of a claimed row; `retry` puts it back with back-off (or fails it). */
export async function settleOutbox(
  { db }: ModelCtx,
  row: Pick<OutboxRow, "id" | "attempts">,
  outcome: { status: "sent" } | { status: "skipped"; reason: string } | { status: "retry"; error: string },
  now = Date.now(),
) {
  const claimed = and(eq(outbox.id, row.id), eq(outbox.status, "sending"));
  if (outcome.status === "sent") {
    await db.update(outbox).set({ status: "sent", sentAt: now, lastError: null }).where(claimed);
  } else if (outcome.status === "skipped") {
    await db
      .update(outbox)
      .set({ status: "skipped", lastError: outcome.reason.slice(0, 500) })
      .where(claimed);
  } else {
    const failed = row.attempts >= MAX_ATTEMPTS;
    await db
      .update(outbox)
      .set({
        status: failed ? "failed" : "pending",
        nextAttemptAt: now + backoffMs(row.attempts),
        lastError: outcome.error.slice(0, 500),
      })
      .where(claimed);
  }
}

/** Skips claimed rows in one statement (at most 25 ids: D1 binds at most 100 parameters). */
export async function skipClaimedOutbox({ db }: ModelCtx, ids: string[], reason: string) {
  if (ids.length === 0) return;
  await db
    .update(outbox)
    .set({ status: "skipped", lastError: reason })
    .where(and(inArray(outbox.id, ids), eq(outbox.status, "sending")));
}

/** Everything the sender needs to decide and render a row for its person, in one batch. */
export async function loadDelivery({ db }: ModelCtx, row: OutboxRow) {
  const rideId =
    typeof row.payload.ride_id === "string"
      ? row.payload.ride_id
      : typeof (row.payload.data as Record<string, unknown> | undefined)?.ride_id === "string"
        ? ((row.payload.data as Record<string, unknown>).ride_id as string)
        : null;
  const codeId = row.kind === "work_email_code" && typeof row.payload.code_id === "string" ? row.payload.code_id : "";
  const [person, ride, accepted, newerReset, workCode] = await db.batch([
    db
      .select({
        email: users.email,
        emailVerifiedAt: users.emailVerifiedAt,
        firstName: userProfiles.firstName,
        fullName: userProfiles.fullName,
        // Issue 37: where an emergency alert goes (read at send time, never copied into the row).
        emergencyContactEmail: userProfiles.emergencyContactEmail,
        emailNotifications: userSettings.emailNotifications,
        pushNotifications: userSettings.pushNotifications,
        rideReminders: userSettings.rideReminders,
      })
      .from(users)
      .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
      .leftJoin(userSettings, eq(userSettings.userId, users.id))
      .where(eq(users.id, row.userId))
      .limit(1),
    db
      .select({
        id: rides.id,
        driverId: rides.driverId,
        status: rides.status,
        fromLocation: rides.fromLocation,
        toLocation: rides.toLocation,
        date: rides.date,
        time: rides.time,
        departsAt: rides.departsAt,
        seats: rides.seats,
        bookedSeats: rides.bookedSeats,
        tripCostPaise: rides.tripCostPaise,
        driverName: userProfiles.fullName,
        // The route and the driver's detour limit: where and when each rider is picked up (issue 36).
        fromLat: rides.fromLat,
        fromLng: rides.fromLng,
        toLat: rides.toLat,
        toLng: rides.toLng,
        viaPlaceIds: rides.viaPlaceIds,
        maxDetourMinutes: userProfiles.maxDetourMinutes,
      })
      .from(rides)
      .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
      .where(eq(rides.id, rideId ?? ""))
      .limit(1),
    // The accepted seats this person may know of: their own, or every rider's for the driver
    // (the driver's reminder lists each pickup). ride_requests_ride_idx.
    db
      .select({
        id: rideRequests.id,
        riderId: rideRequests.riderId,
        seats: rideRequests.seats,
        status: rideRequests.status,
        pickupPlaceId: rideRequests.pickupPlaceId,
        riderName: userProfiles.fullName,
      })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .leftJoin(userProfiles, eq(userProfiles.userId, rideRequests.riderId))
      .where(
        and(
          eq(rideRequests.rideId, rideId ?? ""),
          eq(rideRequests.status, "accepted"),
          or(eq(rideRequests.riderId, row.userId), eq(rides.driverId, row.userId)),
        ),
      )
      .limit(50),
    // A newer reset request for the same person makes this one moot.
    db
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        and(
          eq(outbox.userId, row.userId),
          eq(outbox.kind, "password_reset"),
          eq(outbox.channel, row.channel),
          gt(outbox.createdAt, row.createdAt),
        ),
      )
      .limit(1),
    // Issue 16: a work e-mail code goes to the work address of its (still current) code row;
    // none when a newer request replaced it. Read here, not in work-email.server.ts, which
    // queues through this module (importing it back made a circle).
    db
      .select({
        id: communityEmailCodes.id,
        email: communityEmailCodes.email,
        domain: communityEmailCodes.domain,
        communityId: communityEmailCodes.communityId,
        communityName: communities.name,
      })
      .from(communityEmailCodes)
      .innerJoin(communities, eq(communities.id, communityEmailCodes.communityId))
      .where(eq(communityEmailCodes.id, codeId))
      .limit(1),
  ]);
  const r = ride[0] ?? null;
  const mine = r?.driverId === row.userId ? accepted : accepted.filter((a) => a.riderId === row.userId);
  return {
    person: person[0] ?? null,
    ride: r,
    acceptedSeats: accepted.find((a) => a.riderId === row.userId)?.seats ?? null,
    // Issue 36: each accepted rider's pickup in the route's order (the driver), or one's own.
    pickups: r ? pickupOrder(r, rideRoute(r), mine) : [],
    newerReset: newerReset.length > 0,
    workCode: workCode[0] ?? null,
  };
}

export type Delivery = Awaited<ReturnType<typeof loadDelivery>>;

/** One-click unsubscribe: the person the signed link names stops getting notification e-mails. */
export async function turnOffEmailNotifications({ db }: ModelCtx, userId: string, now = Date.now()) {
  await db
    .update(userSettings)
    .set({ emailNotifications: false, updatedAt: now })
    .where(eq(userSettings.userId, userId));
}
