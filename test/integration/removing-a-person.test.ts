// Issue 19, finding 11: removing one person (or one ride) must never erase someone else's
// history. Rows shared with another person are ON DELETE RESTRICT (a hard delete fails
// loudly; issue 16 de-identifies instead); rows that are one person's own cascade.
// Also: migration 0005 rebuilt six tables without losing a row or an index.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import {
  addMember,
  createCommunity,
  createMessage,
  createNotification,
  createRide,
  createRideRequest,
  createUser,
} from "../../db/factories";
import { seedDemo } from "../../db/seed";
import { addDays, istDate } from "~/domain/time";
import { completeRide } from "~/models/completion.server";
import { ensureReferralCode, redeemReferralCode } from "~/models/referrals.server";
import { db } from "../support/worker";
import { changedTables, dbChecksum } from "../support/db-checksum";

// Every foreign key in the database and what deleting its parent does. A new foreign key
// fails this test until it is classified here (and in docs/decisions/0012-removing-a-person.md).
const EXPECTED: Record<string, string> = {
  // One person's own data: goes with them.
  "passwords.user_id -> users": "CASCADE",
  "oauth_accounts.user_id -> users": "CASCADE",
  "sessions.user_id -> users": "CASCADE",
  "user_profiles.user_id -> users": "CASCADE",
  "user_settings.user_id -> users": "CASCADE",
  "user_credits.user_id -> users": "CASCADE",
  "credit_transactions.user_id -> users": "CASCADE",
  "user_referral_codes.user_id -> users": "CASCADE",
  "notifications.user_id -> users": "CASCADE",
  // Issue 15: messages waiting to be e-mailed to a person, and their password reset links.
  "outbox.user_id -> users": "CASCADE",
  "password_resets.user_id -> users": "CASCADE",
  "saved_rides.user_id -> users": "CASCADE",
  "saved_rides.ride_id -> rides": "CASCADE",
  "community_members.user_id -> users": "CASCADE",
  // Issue 14: a commute is the driver's like their rides (NO ACTION: a person with rides is
  // closed, not deleted, ADR 0012); its rides point at it; a deleted community leaves it unshared.
  "commutes.community_id -> communities": "SET NULL",
  "commutes.driver_id -> users": "NO ACTION",
  "community_members.community_id -> communities": "CASCADE",
  "rides.community_id -> communities": "SET NULL",
  "rides.commute_id -> commutes": "NO ACTION",
  // ADR 0048: a return leg points at its outward commute (the same driver's; commutes are ended, never deleted).
  "commutes.return_of -> commutes": "NO ACTION",
  // Issue 35: a standing booking is the rider's and the commute's history, like the commute
  // (a rider is closed, not deleted; closing ends their bookings).
  "commute_bookings.commute_id -> commutes": "NO ACTION",
  "commute_bookings.rider_id -> users": "NO ACTION",
  // Issue 15: a person's browser push subscriptions and calendar feed token.
  "push_subscriptions.user_id -> users": "CASCADE",
  "calendar_feeds.user_id -> users": "CASCADE",
  // Issue 40 (ADR 0064): the co-passenger figures the triggers keep; a person with shared rides
  // is closed, not deleted (their own rows go then), so these go only with a person who has none.
  "co_passengers.user_id -> users": "CASCADE",
  "co_passengers.other_id -> users": "CASCADE",
  "co_passenger_counts.user_id -> users": "CASCADE",
  "user_blocks.blocker_id -> users": "CASCADE",
  "user_blocks.blocked_id -> users": "CASCADE",
  // Issue 16: a person's live work e-mail code goes with them or with the community.
  "community_email_codes.user_id -> users": "CASCADE",
  "community_email_codes.community_id -> communities": "CASCADE",
  // Issue 14: a person's saved searches (and their lookup rows, ADR 0049) are their own.
  "saved_searches.user_id -> users": "CASCADE",
  "saved_search_spots.search_id -> saved_searches": "CASCADE",
  // ADR 0055: a search's way back belongs to it.
  "saved_searches.return_of -> saved_searches": "CASCADE",
  // Issue 16: a community's approved pickup points go with the community.
  "community_pickup_points.community_id -> communities": "CASCADE",
  // Issue 37: a person's share-my-trip links go with them, or with the ride.
  "trip_shares.user_id -> users": "CASCADE",
  "trip_shares.ride_id -> rides": "CASCADE",
  // Shared with someone else: removing one side is refused.
  "rides.driver_id -> users": "NO ACTION",
  "communities.created_by -> users": "NO ACTION",
  "community_members.decided_by -> users": "NO ACTION",
  // Issue 16: the moderation audit log is the community's history (goes with the community).
  "community_audit_log.community_id -> communities": "CASCADE",
  "community_audit_log.actor_id -> users": "NO ACTION",
  "community_audit_log.target_user_id -> users": "NO ACTION",
  // ADR 0058: the operators' record of suspensions and their lifting is LoopRide's history.
  "operator_audit_log.actor_id -> users": "NO ACTION",
  "operator_audit_log.target_user_id -> users": "NO ACTION",
  "conversations.user_a -> users": "RESTRICT",
  "conversations.user_b -> users": "RESTRICT",
  "messages.conversation_id -> conversations": "RESTRICT",
  "messages.sender_id -> users": "RESTRICT",
  "messages.receiver_id -> users": "RESTRICT",
  "ride_requests.ride_id -> rides": "RESTRICT",
  "ride_requests.rider_id -> users": "RESTRICT",
  "payments.ride_id -> rides": "RESTRICT",
  "payments.payer_id -> users": "RESTRICT",
  "payments.payee_id -> users": "RESTRICT",
  // Issue 35, item 6: a week's settlement is shared history of its payer and payee; a payment
  // points at the settlement that paid it.
  "settlements.payer_id -> users": "RESTRICT",
  "settlements.payee_id -> users": "RESTRICT",
  "payments.settlement_id -> settlements": "NO ACTION",
  "ride_ratings.ride_id -> rides": "RESTRICT",
  "ride_ratings.rater_id -> users": "RESTRICT",
  "ride_ratings.ratee_id -> users": "RESTRICT",
  "referrals.referrer_id -> users": "RESTRICT",
  "referrals.referred_user_id -> users": "RESTRICT",
  "ride_inquiries.ride_id -> rides": "RESTRICT",
  "ride_inquiries.rider_id -> users": "RESTRICT",
  "ride_inquiries.driver_id -> users": "RESTRICT",
  "ride_inquiries.conversation_id -> conversations": "RESTRICT",
  "ride_inquiries.message_id -> messages": "RESTRICT",
  "user_reports.reporter_id -> users": "RESTRICT",
  "user_reports.reported_id -> users": "RESTRICT",
};

async function foreignKeys() {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
  ).all<{ name: string }>();
  const out: Record<string, string> = {};
  for (const { name } of tables.results) {
    const fks = await env.DB.prepare(
      'SELECT "table" AS parent, "from" AS col, on_delete FROM pragma_foreign_key_list(?)',
    )
      .bind(name)
      .all<{ parent: string; col: string; on_delete: string }>();
    for (const fk of fks.results) out[`${name}.${fk.col} -> ${fk.parent}`] = fk.on_delete;
  }
  return out;
}

/** Asha and Bala share a chat, a ride (Bala drove, Asha rode, paid and rated), and a referral. */
async function sharedHistory() {
  const d = db();
  const asha = await createUser({ db: d }, { fullName: "Asha Rao" });
  const bala = await createUser({ db: d }, { fullName: "Bala Menon" });
  const community = await createCommunity({ db: d }, { createdBy: bala.id });
  await addMember({ db: d }, { communityId: community.id, userId: asha.id });
  await createMessage({ db: d }, { senderId: asha.id, receiverId: bala.id, content: "See you at 8" });
  await createMessage({ db: d }, { senderId: bala.id, receiverId: asha.id, content: "Bala's reply" });
  const ride = await createRide({ db: d }, { driverId: bala.id, date: addDays(istDate(), -1) });
  await createRideRequest({ db: d }, { rideId: ride.id, riderId: asha.id, status: "accepted" });
  await completeRide({ db: d }, bala.id, ride.id);
  await env.DB.prepare(
    "INSERT INTO ride_ratings (id, ride_id, rater_id, ratee_id, stars, created_at) VALUES (?, ?, ?, ?, 5, ?)",
  )
    .bind(`rt${asha.id}`, ride.id, asha.id, bala.id, Date.now())
    .run();
  const code = await ensureReferralCode({ db: d }, bala.id);
  expect((await redeemReferralCode({ db: d }, asha.id, code)).ok).toBe(true);
  return { asha, bala, ride };
}

describe("removing a person never erases someone else's history", () => {
  it("every foreign key is classified: own data cascades, shared history is RESTRICT", async () => {
    expect(await foreignKeys()).toEqual(EXPECTED);
  });

  it("deleting a user row directly is refused while they share messages, rides, payments, ratings or referrals; nothing is erased", async () => {
    const { asha, bala, ride } = await sharedHistory();
    for (const table of ["messages", "conversations", "ride_requests", "payments", "ride_ratings", "referrals"]) {
      const n = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
      expect(n!.n, table).toBeGreaterThan(0);
    }
    const before = await dbChecksum();
    for (const id of [asha.id, bala.id]) {
      await expect(env.DB.prepare("DELETE FROM users WHERE id = ?").bind(id).run()).rejects.toThrow(/FOREIGN KEY/);
    }
    // Nor can a ride be deleted from under its riders' requests, payments and ratings.
    await expect(env.DB.prepare("DELETE FROM rides WHERE id = ?").bind(ride.id).run()).rejects.toThrow(/FOREIGN KEY/);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    const messages = await env.DB.prepare(
      "SELECT content FROM messages WHERE receiver_id = ? OR sender_id = ? ORDER BY content",
    )
      .bind(bala.id, bala.id)
      .all<{ content: string }>();
    expect(messages.results.map((m) => m.content)).toEqual(["Bala's reply", "See you at 8"]);
  });

  it("a person with only their own data can still be deleted, and their own rows go with them", async () => {
    const loner = await createUser({ db: db() }, { fullName: "Only Mine" });
    await createNotification({ db: db() }, { userId: loner.id });
    await env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, 0, ?)")
      .bind(`s${loner.id}`, loner.id, Date.now() + 60_000)
      .run();
    await env.DB.prepare("DELETE FROM users WHERE id = ?").bind(loner.id).run();
    for (const table of ["user_profiles", "notifications", "sessions", "passwords"]) {
      const n = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`)
        .bind(loner.id)
        .first<{ n: number }>();
      expect(n!.n, table).toBe(0);
    }
  });
});

describe("migration 0005 (table rebuilds)", () => {
  const migration = () => {
    const m = env.TEST_MIGRATIONS.find((x) => x.name.startsWith("0005_"));
    if (!m) throw new Error("migration 0005 missing");
    return m.queries;
  };

  it("rebuilding the six tables over real data keeps every row, column value, index and the rides triggers", async () => {
    await seedDemo({ db: db() }, { pepper: "test-pepper" });
    await sharedHistory();
    const schemaOf = async () =>
      (
        await env.DB.prepare(
          "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') AND name NOT LIKE 'sqlite_%' ORDER BY name",
        ).all()
      ).results;
    // 0041 gives every existing request a random pickup code (an UPDATE, which this replay
    // leaves out as it leaves out 0005's own): compare the rows without them.
    await env.DB.prepare("UPDATE ride_requests SET pickup_code = NULL").run();
    const before = await dbChecksum();
    const schemaBefore = await schemaOf();
    // Everything but the one-time data fix (expiring stale pending requests), tested below.
    const rebuild = migration().filter((q) => !/^\s*UPDATE/i.test(q));
    // 0005 recreates the six tables as they were then: the columns and triggers later
    // migrations added to them (e.g. 0015's ride_requests.no_show_at, 0021's rating totals
    // triggers on ride_ratings) are added back, as migrating in order would.
    const SIX = "`?(conversations|messages|ride_requests|payments|ride_ratings|referrals)`?";
    const later = env.TEST_MIGRATIONS.filter((m) => m.name > "0005_")
      .flatMap((m) => m.queries)
      .filter(
        (q) =>
          new RegExp(`^\\s*ALTER TABLE\\s+${SIX}\\s+ADD\\b`, "i").test(q) ||
          new RegExp(`^\\s*CREATE TRIGGER\\s+\\S+\\s+(AFTER|BEFORE)\\s+[^;]*?\\bON\\s+${SIX}\\s`, "i").test(q) ||
          new RegExp(`^\\s*CREATE (UNIQUE )?INDEX\\s+\\S+\\s+ON\\s+${SIX}\\s`, "i").test(q),
      )
      // An index a later migration made, unless 0005's rebuild already makes it as it is now.
      .map((q) => q.replace(/^\s*CREATE (UNIQUE )?INDEX\s+(?!IF NOT EXISTS)/i, (m) => `${m.trim()} IF NOT EXISTS `));
    await env.DB.batch([...rebuild, ...later].map((q) => env.DB.prepare(q)));
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    expect(await schemaOf()).toEqual(schemaBefore);
    expect(schemaBefore.filter((r) => r.type === "trigger").length).toBeGreaterThanOrEqual(6);
    expect(await foreignKeys()).toEqual(EXPECTED);
    const check = await env.DB.prepare("PRAGMA foreign_key_check").all();
    expect(check.results).toEqual([]);
  });

  it("expires the pending requests of rides that are no longer open, and only those", async () => {
    const driver = await createUser({ db: db() });
    const rider = await createUser({ db: db() });
    const past = await createRide({ db: db() }, { driverId: driver.id, date: addDays(istDate(), -1) });
    const done = await createRide({ db: db() }, { driverId: driver.id, status: "completed" });
    const open = await createRide({ db: db() }, { driverId: driver.id });
    const reqs = [
      await createRideRequest({ db: db() }, { rideId: past.id, riderId: rider.id }),
      await createRideRequest({ db: db() }, { rideId: done.id, riderId: rider.id }),
      await createRideRequest({ db: db() }, { rideId: open.id, riderId: rider.id }),
    ];
    const update = migration().filter((q) => /^\s*UPDATE/i.test(q));
    expect(update).toHaveLength(1);
    await env.DB.prepare(update[0]).run();
    const statuses = [];
    for (const r of reqs)
      statuses.push(
        (await env.DB.prepare("SELECT status FROM ride_requests WHERE id = ?").bind(r.id).first<{ status: string }>())!
          .status,
      );
    expect(statuses).toEqual(["expired", "expired", "pending"]);
  });
});
