import { and, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { adminSuccession } from "./communities.server";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  calendarFeeds,
  communities,
  coPassengerCounts,
  coPassengers,
  communityAuditLog,
  communityEmailCodes,
  operatorAuditLog,
  communityMembers,
  commuteBookings,
  tripShares,
  commutes,
  conversations,
  creditTransactions,
  mailSink,
  messages,
  newsletterSubscribers,
  notifications,
  oauthAccounts,
  outbox,
  passwordResets,
  passwords,
  payments,
  settlements,
  pushSubscriptions,
  referrals,
  rideInquiries,
  rideRatings,
  rideRequests,
  rides,
  savedRides,
  savedSearchSpots,
  savedSearches,
  sessions,
  userBlocks,
  userCredits,
  userProfiles,
  userReferralCodes,
  userReports,
  users,
  userSettings,
} from "../../db/schema";
import { CANCEL_WINDOW_MS } from "../domain/rides";
import { revokeAccessStatements } from "./access.server";
import { audience, type ModelCtx } from "./context.server";
import { ConflictError, NotFoundError } from "./errors.server";
import { daysListSql, firstOfGroup, notificationInsert, PER_ROW_ID } from "./notifications.server";

// A person's own data (issue 16, item 7; docs/decisions/0020-report-block-and-own-data.md):
// "Download my data" and "Delete my account" (India's DPDP Act 2023: access and erasure).

export const DELETED_NAME = "Deleted user";

type ExportEntry = { table: SQLiteTable; name: string; by: SQLiteColumn[]; omit?: string[] };

/**
 * What the export holds: each table with the columns that make a row the user's. Every
 * foreign key to users must be listed here or in NOT_EXPORTED (own-data.test.ts reads the
 * schema, so a new table with a user column and no entry fails it).
 */
export const EXPORT: ExportEntry[] = [
  // The hash of the sign-up address is a server secret for fraud checks, not the person's data.
  { table: users, name: "users", by: [users.id], omit: ["signupAddressHash"] },
  // Secrets are left out: the password hash and the session ids (they would sign one in).
  { table: passwords, name: "passwords", by: [passwords.userId], omit: ["hash"] },
  { table: sessions, name: "sessions", by: [sessions.userId], omit: ["id"] },
  { table: oauthAccounts, name: "oauth_accounts", by: [oauthAccounts.userId] },
  { table: userProfiles, name: "user_profiles", by: [userProfiles.userId] },
  { table: userSettings, name: "user_settings", by: [userSettings.userId] },
  { table: userCredits, name: "user_credits", by: [userCredits.userId] },
  { table: creditTransactions, name: "credit_transactions", by: [creditTransactions.userId] },
  { table: userReferralCodes, name: "user_referral_codes", by: [userReferralCodes.userId] },
  { table: referrals, name: "referrals", by: [referrals.referrerId, referrals.referredUserId] },
  { table: communities, name: "communities", by: [communities.createdBy] },
  { table: communityMembers, name: "community_members", by: [communityMembers.userId] },
  { table: rides, name: "rides", by: [rides.driverId] },
  { table: rideRequests, name: "ride_requests", by: [rideRequests.riderId] },
  { table: savedRides, name: "saved_rides", by: [savedRides.userId] },
  { table: payments, name: "payments", by: [payments.payerId, payments.payeeId] },
  { table: settlements, name: "settlements", by: [settlements.payerId, settlements.payeeId] },
  { table: rideRatings, name: "ride_ratings", by: [rideRatings.raterId] },
  { table: notifications, name: "notifications", by: [notifications.userId] },
  { table: conversations, name: "conversations", by: [conversations.userA, conversations.userB] },
  { table: messages, name: "messages", by: [messages.senderId, messages.receiverId] },
  { table: userBlocks, name: "user_blocks", by: [userBlocks.blockerId] },
  { table: userReports, name: "user_reports", by: [userReports.reporterId] },
  { table: commutes, name: "commutes", by: [commutes.driverId] },
  { table: commuteBookings, name: "commute_bookings", by: [commuteBookings.riderId] },
  { table: rideInquiries, name: "ride_inquiries", by: [rideInquiries.riderId, rideInquiries.driverId] },
  // The browser's keys would let anyone push to it; the feed and reset tokens are credentials.
  { table: pushSubscriptions, name: "push_subscriptions", by: [pushSubscriptions.userId], omit: ["p256dh", "auth"] },
  { table: calendarFeeds, name: "calendar_feeds", by: [calendarFeeds.userId], omit: ["tokenHash"] },
  { table: passwordResets, name: "password_resets", by: [passwordResets.userId], omit: ["tokenHash"] },
  { table: outbox, name: "outbox", by: [outbox.userId] },
  // What this user did as a moderator (the community's record); actions taken on them are below.
  { table: communityAuditLog, name: "community_audit_log", by: [communityAuditLog.actorId] },
  // Issue 16: a live work e-mail code request (the address; the code's HMAC is a credential).
  { table: communityEmailCodes, name: "community_email_codes", by: [communityEmailCodes.userId], omit: ["codeHash"] },
  // Issue 14: saved searches (their spot rows are only a lookup copy of the same searches).
  { table: savedSearches, name: "saved_searches", by: [savedSearches.userId] },
  // Issue 37: their share-my-trip links (the token's hash is a credential).
  { table: tripShares, name: "trip_shares", by: [tripShares.userId], omit: ["tokenHash"] },
  // ADR 0058: what this user did as one of LoopRide's operators (actions on them: below).
  { table: operatorAuditLog, name: "operator_audit_log", by: [operatorAuditLog.actorId] },
  // Issue 40: whom they shared rides with and how many, and how many people that is.
  { table: coPassengers, name: "co_passengers", by: [coPassengers.userId] },
  { table: coPassengerCounts, name: "co_passenger_counts", by: [coPassengerCounts.userId] },
];

/** User columns deliberately not used to pick rows, and why. */
export const NOT_EXPORTED: Record<string, string> = {
  "community_audit_log.target_user_id":
    "moderators' actions on this user are the community's record, read by its admins",
  "operator_audit_log.target_user_id":
    "operators' suspensions of this account and their lifting are LoopRide's record (the account itself shows the suspension)",
  "community_members.decided_by": "other people's memberships that this user decided as a moderator",
  "ride_ratings.ratee_id": "ratings others gave this user are the raters' (the issue asks for ratings given)",
  "user_blocks.blocked_id": "who blocked this user stays private to the blocker",
  "user_reports.reported_id": "reports about this user are evidence for community admins; the reporter stays private",
  "co_passengers.other_id":
    "the other person's count of rides shared with this user is theirs (this user's own pairs are exported)",
};

/**
 * Everything stored about the acting user, as one JSON-ready object (one round trip): a
 * key per table of EXPORT, plus the newsletter address if they subscribed with it.
 */
export async function exportMyData({ db }: ModelCtx, userId: string, now = Date.now()) {
  const me = await db
    .select({ email: users.email, deletedAt: users.deletedAt })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!me || me.deletedAt !== null) throw new NotFoundError("Account not found");
  const statements = EXPORT.map((e) =>
    db
      .select()
      .from(e.table)
      .where(or(...e.by.map((c) => eq(c, userId)))),
  );
  const all = [
    db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, me.email ?? "")),
    ...statements,
  ];
  const [newsletter, ...results] = (await db.batch(
    all as unknown as Parameters<typeof db.batch>[0],
  )) as unknown as unknown[];
  const tables: Record<string, Record<string, unknown>[]> = {};
  EXPORT.forEach((e, i) => {
    tables[e.name] = (results[i] as Record<string, unknown>[]).map((row) => {
      const out = { ...row };
      for (const k of e.omit ?? []) delete out[k];
      return out;
    });
  });
  tables.newsletter_subscribers = newsletter as Record<string, unknown>[];
  return {
    format: "LoopRide personal data export, version 1",
    exportedAt: new Date(now).toISOString(),
    userId,
    notes:
      "Times are milliseconds since 1970-01-01 UTC; money is in paise (₹1 = 100 paise). Secrets (password hash, session ids) are left out.",
    tables,
  };
}

export const DELETE_CONFIRM = "DELETE";
export const DELETE_WRONG_PASSWORD = "That password is not right. Your account was not deleted.";

/**
 * Closes the acting user's account at once, in ONE db.batch (docs/decisions/0012: the users
 * row stays so everyone else's history stays valid):
 *  - their upcoming active rides are cancelled, each rider notified;
 *  - their pending/accepted seats on others' upcoming rides are cancelled, each driver
 *    notified, booked seats recomputed;
 *  - personal fields are erased (e-mail, phone, profile, photo key, notes they wrote, their
 *    name inside other people's notifications), the name becomes "Deleted user";
 *  - their own rows go (password, Google link, sessions, settings, credits, referral code,
 *    notifications, saved rides, blocks, memberships; member counts recomputed);
 *  - messages, requests, payments and ratings stay, shown as from "Deleted user"; settled
 *    payments are kept as the law requires, pointing only at the de-identified row.
 * The caller checked the password (the route: verifyPassword with the pepper).
 */
export async function deleteMyAccount({ db }: ModelCtx, userId: string, now = Date.now()) {
  const me = await db
    .select({
      email: users.email,
      deletedAt: users.deletedAt,
      fullName: userProfiles.fullName,
      avatarKey: userProfiles.avatarKey,
    })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.id, userId))
    .get();
  if (!me || me.deletedAt !== null) throw new NotFoundError("Account not found");
  const name = me.fullName?.trim() || null;
  const upcomingMine = sql`(SELECT ${rides.id} FROM ${rides} WHERE ${rides.driverId} = ${userId} AND ${rides.status} = 'active' AND ${rides.departsAt} > ${now})`;
  const mySeats = sql`${rideRequests.riderId} = ${userId} AND ${rideRequests.status} IN ('pending','accepted')
    AND ${rideRequests.rideId} IN (SELECT ${rides.id} FROM ${rides} WHERE ${rides.status} = 'active' AND ${rides.departsAt} > ${now})`;
  const daysOf = daysListSql();
  const firstRideId = firstOfGroup(sql`${rides.id}`);
  const myCommunities = db
    .select({ id: communityMembers.communityId })
    .from(communityMembers)
    .where(eq(communityMembers.userId, userId));
  const communityIds = (await myCommunities).map((r) => r.id);
  // Others' notifications that name this person (a request, a cancellation...): the name goes.
  const named = (col: typeof notifications.title | typeof notifications.message): SQL =>
    name ? sql`replace(${col}, ${name}, ${DELETED_NAME})` : sql`${col}`;
  // The same in an outbox payload's field (a notification row always has title and message).
  const namedIn = (path: "$.title" | "$.message"): SQL =>
    sql`replace(json_extract(${outbox.payload}, ${path}), ${name}, ${DELETED_NAME})`;
  const statements = [
    // Riders of the person's upcoming rides, told before their requests change: once per
    // rider and route, naming the days (a commute's ten days are one notice, not ten).
    notificationInsert(
      db,
      {
        id: PER_ROW_ID,
        userId: sql`${rideRequests.riderId}`,
        type: "ride_update",
        title: "Ride cancelled",
        message: sql`CASE WHEN count(*) = 1 THEN 'The ride' ELSE 'The rides' END || ' from ' || ${rides.fromLocation} || ' to ' || ${rides.toLocation}
          || ' on ' || ${daysOf} || CASE WHEN count(*) = 1 THEN ' was' ELSE ' were' END || ' cancelled: the driver closed their account.'`,
        data: sql`json_object('ride_id', ${firstRideId}, 'status', 'cancelled')`,
      },
      now,
      sql`FROM ${rideRequests} JOIN ${rides} ON ${rides.id} = ${rideRequests.rideId} WHERE ${rideRequests.status} IN ('pending','accepted') AND ${rides.id} IN ${upcomingMine}
        GROUP BY ${rideRequests.riderId}, ${rides.fromLocation}, ${rides.toLocation}`,
    ),
    db
      .update(rideRequests)
      .set({ status: "cancelled", cancelledAt: now })
      .where(and(sql`${rideRequests.status} IN ('pending','accepted')`, sql`${rideRequests.rideId} IN ${upcomingMine}`))
      .returning({ userId: rideRequests.riderId }),
    db
      .update(rides)
      .set({
        status: "cancelled",
        cancelledAt: now,
        bookedSeats: 0,
        cancelReason: "The driver closed their account.",
        cancelledLate: sql`(${rides.departsAt} - ${now} < ${CANCEL_WINDOW_MS})`,
      })
      .where(sql`${rides.id} IN ${upcomingMine}`),
    // Drivers of the rides the person had asked to join: once per driver and route, naming the days.
    notificationInsert(
      db,
      {
        id: PER_ROW_ID,
        userId: sql`${rides.driverId}`,
        type: "ride_update",
        title: "Seat cancelled",
        message: sql`'A passenger closed their account: their ' || CASE WHEN count(*) = 1 THEN 'request' ELSE 'requests' END || ' for '
          || ${rides.fromLocation} || ' to ' || ${rides.toLocation} || ' on ' || ${daysOf}
          || CASE WHEN count(*) = 1 THEN ' was' ELSE ' were' END || ' cancelled.'`,
        data: sql`json_object('ride_id', ${firstRideId}, 'status', 'cancelled')`,
      },
      now,
      sql`FROM ${rideRequests} JOIN ${rides} ON ${rides.id} = ${rideRequests.rideId} WHERE ${mySeats}
        GROUP BY ${rides.driverId}, ${rides.fromLocation}, ${rides.toLocation}`,
    ),
    db
      .select({ userId: rides.driverId })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .where(mySeats),
    db.update(rideRequests).set({ status: "cancelled", cancelledAt: now }).where(mySeats),
    db
      .update(rides)
      .set({
        bookedSeats: sql`(SELECT coalesce(sum(rr.seats), 0) FROM ride_requests rr WHERE rr.ride_id = ${rides.id} AND rr.status = 'accepted')`,
      })
      .where(
        sql`${rides.id} IN (SELECT ${rideRequests.rideId} FROM ${rideRequests} WHERE ${rideRequests.riderId} = ${userId} AND ${rideRequests.cancelledAt} = ${now})`,
      ),
    // Notes they wrote on rides and requests.
    db.update(rides).set({ notes: null }).where(eq(rides.driverId, userId)),
    db.update(rideRequests).set({ notes: null }).where(eq(rideRequests.riderId, userId)),
    db.update(rideRatings).set({ comment: null }).where(eq(rideRatings.raterId, userId)),
    db.update(userReports).set({ details: null }).where(eq(userReports.reporterId, userId)),
    // Their name inside others' notifications (a rare, whole-table rewrite of matching rows).
    ...(name
      ? [
          db
            .update(notifications)
            .set({ title: named(notifications.title), message: named(notifications.message) })
            .where(sql`instr(${notifications.title}, ${name}) > 0 OR instr(${notifications.message}, ${name}) > 0`),
          // Issue 34, finding 9: the outbox trigger copied those words into others' queued
          // e-mails and pushes, which would still go out with the name (and keep it once sent).
          db
            .update(outbox)
            .set({
              payload: sql`json_set(${outbox.payload}, '$.title', ${namedIn("$.title")}, '$.message', ${namedIn("$.message")})`,
            })
            .where(
              sql`${outbox.kind} = 'notification'
                AND (instr(json_extract(${outbox.payload}, '$.title'), ${name}) > 0
                  OR instr(json_extract(${outbox.payload}, '$.message'), ${name}) > 0)`,
            ),
        ]
      : []),
    db
      .update(referrals)
      .set({ referredEmail: null })
      .where(or(eq(referrals.referredUserId, userId), eq(referrals.referrerId, userId))),
    ...(me.email ? [db.delete(newsletterSubscribers).where(eq(newsletterSubscribers.email, me.email))] : []),
    // Own rows.
    db.delete(passwords).where(eq(passwords.userId, userId)),
    db.delete(oauthAccounts).where(eq(oauthAccounts.userId, userId)),
    // Sessions, calendar feed and push subscriptions (the route then closes every socket).
    ...revokeAccessStatements(db, userId),
    db.delete(userSettings).where(eq(userSettings.userId, userId)),
    db.delete(creditTransactions).where(eq(creditTransactions.userId, userId)),
    db.delete(userCredits).where(eq(userCredits.userId, userId)),
    db.delete(userReferralCodes).where(eq(userReferralCodes.userId, userId)),
    db.delete(notifications).where(eq(notifications.userId, userId)),
    db.delete(savedRides).where(eq(savedRides.userId, userId)),
    // Their own co-passenger figures (ADR 0064); others keep theirs, as they keep the rides shared.
    db.delete(coPassengers).where(eq(coPassengers.userId, userId)),
    db.delete(coPassengerCounts).where(eq(coPassengerCounts.userId, userId)),
    db
      .delete(savedSearchSpots)
      .where(
        sql`${savedSearchSpots.searchId} IN (SELECT ${savedSearches.id} FROM ${savedSearches} WHERE ${savedSearches.userId} = ${userId})`,
      ),
    db.delete(savedSearches).where(eq(savedSearches.userId, userId)),
    db.delete(userBlocks).where(or(eq(userBlocks.blockerId, userId), eq(userBlocks.blockedId, userId))),
    // Issue 14/15 rows: a commute makes no more rides; reset links and queued
    // or stored e-mails (the local sink holds rendered mails with the address and name) go.
    db.update(commutes).set({ status: "ended", notes: null, updatedAt: now }).where(eq(commutes.driverId, userId)),
    // Issue 35: their standing bookings ask for no more days (their requests are cancelled above).
    db
      .update(commuteBookings)
      .set({ status: "ended", notes: null, endedAt: now, updatedAt: now })
      .where(eq(commuteBookings.riderId, userId)),
    db.delete(passwordResets).where(eq(passwordResets.userId, userId)),
    db.delete(outbox).where(eq(outbox.userId, userId)),
    ...(me.email ? [db.delete(mailSink).where(eq(mailSink.toAddress, me.email))] : []),
    // Issue 16: work addresses (codes asked for, memberships verified) and the codes mailed to them.
    db.delete(mailSink).where(
      sql`${mailSink.toAddress} IN (SELECT ${communityEmailCodes.email} FROM ${communityEmailCodes} WHERE ${communityEmailCodes.userId} = ${userId})
        OR ${mailSink.toAddress} IN (SELECT ${communityMembers.verifiedEmail} FROM ${communityMembers} WHERE ${communityMembers.userId} = ${userId} AND ${communityMembers.verifiedEmail} IS NOT NULL)`,
    ),
    db.delete(communityEmailCodes).where(eq(communityEmailCodes.userId, userId)),
    // Issue 37: their trip links stop working, and the alerts mailed to their emergency contact go.
    db
      .delete(mailSink)
      .where(
        sql`${mailSink.toAddress} = (SELECT ${userProfiles.emergencyContactEmail} FROM ${userProfiles} WHERE ${userProfiles.userId} = ${userId})`,
      ),
    db.delete(tripShares).where(eq(tripShares.userId, userId)),
    // Issue 34: where they were the only admin, someone else becomes it (before their rows go).
    ...adminSuccession(db, userId, now),
    db.delete(communityMembers).where(eq(communityMembers.userId, userId)),
    ...(communityIds.length
      ? [
          db
            .update(communities)
            .set({
              memberCount: sql`(SELECT count(*) FROM community_members m WHERE m.community_id = ${communities.id} AND m.status = 'approved')`,
            })
            .where(inArray(communities.id, communityIds)),
        ]
      : []),
    // The profile keeps its row (messages and rides join it for the name) with nothing personal in it.
    db
      .update(userProfiles)
      .set({
        fullName: DELETED_NAME,
        firstName: null,
        lastName: null,
        avatarUrl: null,
        avatarKey: null,
        residentialArea: null,
        workplace: null,
        phoneNumber: null,
        emergencyContact: null,
        emergencyContactEmail: null,
        bio: null,
        upiId: null,
        vehicleInfo: {},
        gender: null,
        updatedAt: now,
      })
      .where(eq(userProfiles.userId, userId)),
    db
      .update(users)
      .set({ email: null, phone: null, emailVerifiedAt: null, signupAddressHash: null, deletedAt: now })
      .where(and(eq(users.id, userId), sql`${users.deletedAt} IS NULL`))
      .returning({ id: users.id }),
  ];
  const results = (await db.batch(statements as unknown as Parameters<typeof db.batch>[0])) as unknown as unknown[];
  const closed = results[results.length - 1] as { id: string }[];
  if (closed.length === 0) throw new ConflictError("This account is already closed.");
  const told = [...(results[1] as { userId: string }[]), ...(results[4] as { userId: string }[])].map((r) => r.userId);
  return { avatarKey: me.avatarKey, audience: audience([...new Set(told)]) };
}

/** What the delete form needs to know: whether the account has a password to re-enter. */
export async function getPasswordHash({ db }: ModelCtx, userId: string) {
  const row = await db.select({ hash: passwords.hash }).from(passwords).where(eq(passwords.userId, userId)).get();
  return row?.hash ?? null;
}
