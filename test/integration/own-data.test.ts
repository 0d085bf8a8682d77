import { env } from "../support/env";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../db/schema";
import { addDays, formatWeekdayDate, istDate } from "~/domain/time";
import { conversationIdFor } from "~/domain/conversation";
import {
  addMember,
  createCommunity,
  createCommuteBooking,
  createCommutePattern,
  createCompletedRide,
  createMessage,
  createNotification,
  createRide,
  createRideRequest,
} from "../../db/factories";
import { EXPORT, NOT_EXPORTED } from "~/models/own-data.server";
import { saveSearch } from "~/models/saved-searches.server";
import { createSession } from "~/models/sessions.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";

// A person's own data (issue 16, item 7): the export and account deletion.

const tables = Object.values(schema).filter((v) => v instanceof SQLiteTable) as SQLiteTable[];
const PASSWORD = "masala-dosa-2026";
const PEPPER = "test-pepper";

/** Someone with a row in every table that can hold a person's data, marked by `tag`. */
async function richUser(tag: string, opts: { password?: boolean } = {}) {
  const marks = {
    name: `Zara ${tag}`,
    email: `zara-${tag.toLowerCase()}@example.test`,
    phone: tag === "Mine" ? "9876512345" : "9876554321",
    emergency: `EMERGENCY-${tag} Amma 98450`,
    area: `AREA-${tag} Jayanagar`,
    work: `WORK-${tag} Bagmane`,
    bio: `BIO-${tag} likes filter coffee`,
    upi: `zara${tag.toLowerCase()}@okaxis`,
    plate: `KA01${tag.toUpperCase()}`,
    workEmail: `zara.${tag.toLowerCase()}@workplace-${tag.toLowerCase()}.test`,
    emergencyEmail: `amma.${tag.toLowerCase()}@family.test`,
  };
  const u = await signedInUser({
    fullName: marks.name,
    email: marks.email,
    ...(opts.password ? { password: PASSWORD, pepper: PEPPER } : {}),
    profile: {
      phoneNumber: marks.phone,
      emergencyContact: marks.emergency,
      emergencyContactEmail: marks.emergencyEmail,
      residentialArea: marks.area,
      workplace: marks.work,
      bio: marks.bio,
      upiId: marks.upi,
      gender: "female",
      vehicleInfo: { has_car: true, car_type: "petrol", license_plate: marks.plate },
    },
  });
  return { ...u, marks };
}

async function world() {
  const me = await richUser("Mine", { password: true });
  const other = await richUser("Other");
  const ctx = { db: db() };
  const now = Date.now();
  const run = (q: string, ...b: unknown[]) =>
    env.DB.prepare(q)
      .bind(...b)
      .run();
  const community = await createCommunity(ctx, { createdBy: me.id, name: "Jayanagar Commuters" });
  await addMember(ctx, { communityId: community.id, userId: other.id });
  const otherCommunity = await createCommunity(ctx, { createdBy: other.id, name: "OTHER-PRIVATE community" });
  await addMember(ctx, { communityId: otherCommunity.id, userId: me.id });
  // Rides: mine upcoming with the other booked; the other's upcoming with my seat; a completed one with payments.
  const myRide = await createRide(ctx, {
    driverId: me.id,
    seats: 3,
    bookedSeats: 1,
    notes: "MY-RIDE-NOTE gate 2",
    date: addDays(istDate(), 3),
  });
  await createRideRequest(ctx, { rideId: myRide.id, riderId: other.id, status: "accepted" });
  const theirRide = await createRide(ctx, {
    driverId: other.id,
    seats: 3,
    bookedSeats: 1,
    date: addDays(istDate(), 4),
  });
  await createRideRequest(ctx, {
    rideId: theirRide.id,
    riderId: me.id,
    status: "accepted",
    notes: "MY-REQUEST-NOTE near the bakery",
  });
  const done = await createCompletedRide(ctx, {
    driverId: other.id,
    riders: [{ riderId: me.id }],
    date: addDays(istDate(), -3),
  });
  await run(
    "INSERT INTO ride_ratings (id, ride_id, rater_id, ratee_id, stars, comment, created_at) VALUES (?, ?, ?, ?, 5, 'Smooth drive', ?)",
    `rt${me.id}`,
    done.id,
    me.id,
    other.id,
    now,
  );
  await run(
    "INSERT INTO ride_ratings (id, ride_id, rater_id, ratee_id, stars, comment, created_at) VALUES (?, ?, ?, ?, 2, 'OTHER-PRIVATE rating of me', ?)",
    `rt${other.id}`,
    done.id,
    other.id,
    me.id,
    now,
  );
  await run("INSERT INTO saved_rides (user_id, ride_id, created_at) VALUES (?, ?, ?)", me.id, theirRide.id, now);
  // A week settled with the other (issue 35, item 6).
  await run(
    "INSERT INTO settlements (id, payer_id, payee_id, week_start, amount_paise, rides, method, status, created_at) VALUES (?, ?, ?, ?, 5000, 1, 'upi', 'paid', ?)",
    `st${me.id}`,
    me.id,
    other.id,
    addDays(istDate(), -7),
    now,
  );
  await run("INSERT INTO saved_rides (user_id, ride_id, created_at) VALUES (?, ?, ?)", other.id, myRide.id, now);
  // Messages both ways, and a private one of the other's with someone else.
  const asked = await createMessage(ctx, { senderId: me.id, receiverId: other.id, content: "See you at 8" });
  await createMessage(ctx, { senderId: other.id, receiverId: me.id, content: "Sure" });
  const third = await signedInUser({ fullName: "Third Person" });
  await createMessage(ctx, {
    senderId: other.id,
    receiverId: third.id,
    content: "OTHER-PRIVATE message to a third person",
  });
  await createNotification(ctx, { userId: me.id, message: "MY-NOTIFICATION" });
  await createNotification(ctx, { userId: other.id, message: "OTHER-PRIVATE notification" });
  for (const [u, code] of [
    [me, "LRMINE01"],
    [other, "LROTHR01"],
  ] as const) {
    await run(
      "INSERT INTO user_credits (user_id, credits, total_earned, total_spent, updated_at) VALUES (?, 50, 50, 0, ?)",
      u.id,
      now,
    );
    await run(
      "INSERT INTO credit_transactions (id, user_id, amount, transaction_type, description, created_at) VALUES (?, ?, 50, 'earned', ?, ?)",
      `ct${u.id}`,
      u.id,
      `CREDIT-${code}`,
      now,
    );
    await run("INSERT INTO user_referral_codes (user_id, referral_code, created_at) VALUES (?, ?, ?)", u.id, code, now);
    await run(
      "INSERT INTO oauth_accounts (provider, provider_account_id, user_id, created_at) VALUES ('google', ?, ?, ?)",
      `google-${code}`,
      u.id,
      now,
    );
    await run("INSERT INTO newsletter_subscribers (email, created_at) VALUES (?, ?)", u.marks.email, now);
  }
  await run(
    "INSERT INTO referrals (id, referrer_id, referred_user_id, referred_email, referral_code, status, created_at) VALUES (?, ?, ?, ?, 'LRMINE01', 'completed', ?)",
    `rf${me.id}`,
    me.id,
    third.id,
    "third@example.test",
    now,
  );
  await run("INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)", me.id, third.id, now);
  await run("INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)", other.id, me.id, now);
  await run(
    "INSERT INTO user_reports (id, reporter_id, reported_id, reason, details, context, created_at) VALUES (?, ?, ?, 'other', 'MY-REPORT-DETAILS', 'profile', ?)",
    `rp${me.id}`,
    me.id,
    third.id,
    now,
  );
  await run(
    "INSERT INTO user_reports (id, reporter_id, reported_id, reason, details, context, created_at) VALUES (?, ?, ?, 'harassment', 'OTHER-PRIVATE report about me', 'chat', ?)",
    `rp${other.id}`,
    other.id,
    me.id,
    now,
  );
  // Issue 14/15 rows: a commute each, my inquiry about their ride, push, calendar, a reset link, the outbox.
  for (const [u, tag] of [
    [me, "MINE"],
    [other, "OTHR"],
  ] as const) {
    const commute = await createCommutePattern(ctx, { driverId: u.id });
    // Issue 35: a standing booking each, on the other one's commute.
    await createCommuteBooking(ctx, { commuteId: commute.id, riderId: u.id === me.id ? other.id : me.id });
    await run(
      "INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, created_at) VALUES (?, ?, ?, 'key', 'auth', ?)",
      `ps${u.id}`,
      u.id,
      `https://push.example.test/${tag}`,
      now,
    );
    await run(
      "INSERT INTO calendar_feeds (user_id, token_hash, created_at) VALUES (?, ?, ?)",
      u.id,
      `feed-${tag}`,
      now,
    );
    await run(
      "INSERT INTO password_resets (id, user_id, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
      `pr${u.id}`,
      u.id,
      `reset-${tag}`,
      now,
      now + 60_000,
    );
    await run(
      "INSERT INTO outbox (id, channel, user_id, kind, idempotency_key, next_attempt_at, created_at) VALUES (?, 'email', ?, 'verify_email', ?, ?, ?)",
      `ob${u.id}`,
      u.id,
      `key-${tag}`,
      now,
      now,
    );
  }
  // Issue 37: a share-my-trip link each, on a ride they are on.
  for (const [u, r] of [
    [me, myRide],
    [other, theirRide],
  ] as const)
    await run(
      "INSERT INTO trip_shares (id, ride_id, user_id, token_hash, via, created_at) VALUES (?, ?, ?, ?, 'link', ?)",
      `ts${u.id}`,
      r.id,
      u.id,
      `share-${u.id}`,
      now,
    );
  // Issue 14: a saved search each.
  for (const u of [me, other])
    await saveSearch(ctx, u.id, {
      from: "Jayanagar",
      to: "Manyata Tech Park",
      time: "08:45",
      radiusKm: 2,
      windowMinutes: 15,
      weekdays: 62,
    });
  await run(
    "INSERT INTO ride_inquiries (ride_id, rider_id, driver_id, conversation_id, message_id, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    theirRide.id,
    me.id,
    other.id,
    asked.conversationId,
    asked.id,
    now,
  );
  // Issue 16: my moderator action in my community, and the other's on me in theirs.
  await run(
    "INSERT INTO community_audit_log (id, community_id, actor_id, action, target_user_id, detail, created_at) VALUES (?, ?, ?, 'promote', ?, NULL, ?)",
    `al${me.id}`,
    community.id,
    me.id,
    other.id,
    now,
  );
  await run(
    "INSERT INTO community_audit_log (id, community_id, actor_id, action, target_user_id, detail, created_at) VALUES (?, ?, ?, 'promote', ?, NULL, ?)",
    `al${other.id}`,
    otherCommunity.id,
    other.id,
    me.id,
    now,
  );
  // ADR 0058: as an operator I lifted the other's suspension; another operator suspended me.
  await run(
    "INSERT INTO operator_audit_log (id, actor_id, action, target_user_id, report_id, created_at) VALUES (?, ?, 'lift_suspension', ?, NULL, ?)",
    `oa${me.id}`,
    me.id,
    other.id,
    now,
  );
  await run(
    "INSERT INTO operator_audit_log (id, actor_id, action, target_user_id, report_id, created_at) VALUES (?, ?, 'suspend', ?, NULL, ?)",
    `oa${other.id}`,
    other.id,
    me.id,
    now,
  );
  // Issue 16: each verified a work address in the other's community, has a live code, and a code e-mail in the sink.
  for (const [u, c] of [
    [me, otherCommunity],
    [other, community],
  ] as const) {
    const domain = u.marks.workEmail.split("@")[1];
    await run(
      "UPDATE community_members SET verified_email = ?, verified_domain = ?, verified_at = ? WHERE community_id = ? AND user_id = ?",
      u.marks.workEmail,
      domain,
      now,
      c.id,
      u.id,
    );
    await run(
      "INSERT INTO community_email_codes (id, community_id, user_id, email, domain, code_hash, attempts, created_at, expires_at) VALUES (?, ?, ?, ?, ?, 'hash', 0, ?, ?)",
      `ec${u.id}`,
      c.id,
      u.id,
      u.marks.workEmail,
      domain,
      now,
      now + 600_000,
    );
    await run(
      "INSERT INTO mail_sink (id, idempotency_key, to_address, subject, text_body, html_body, created_at) VALUES (?, ?, ?, 'Your code', 'code', 'code', ?)",
      `ms${u.id}`,
      `work_email_code:ec${u.id}`,
      u.marks.workEmail,
      now,
    );
  }
  await createSession(ctx, me.id);
  return { me, other, third, myRide, theirRide, done };
}

describe("download my data", () => {
  it("every user column of every table is exported or deliberately left out (a new table without an entry fails)", () => {
    const byName = new Map(EXPORT.map((e) => [e.name, e]));
    const missing: string[] = [];
    for (const t of tables) {
      const config = getTableConfig(t);
      for (const fk of config.foreignKeys) {
        const ref = fk.reference();
        if (getTableConfig(ref.foreignTable).name !== "users") continue;
        for (const col of ref.columns) {
          const key = `${config.name}.${col.name}`;
          const entry = byName.get(config.name);
          if (!entry?.by.some((c) => c.name === col.name) && !NOT_EXPORTED[key]) missing.push(key);
        }
      }
    }
    expect(missing).toEqual([]);
    // Every EXPORT entry names its own table.
    for (const e of EXPORT) expect(getTableConfig(e.table).name).toBe(e.name);
  });

  it("has every table's rows for that user, and nothing of anyone else's", async () => {
    const { me, other } = await world();
    const res = await get("/dashboard/my-data", { cookie: me.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="loopride-my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const text = await res.text();
    const out = JSON.parse(text) as { userId: string; tables: Record<string, Record<string, unknown>[]> };
    expect(out.userId).toBe(me.id);
    for (const e of EXPORT) {
      const where = e.by.map((c) => `"${c.name}" = ?1`).join(" OR ");
      const expected = await env.DB.prepare(`SELECT count(*) AS n FROM "${e.name}" WHERE ${where}`)
        .bind(me.id)
        .first<{ n: number }>();
      expect(expected!.n, `${e.name} has rows of this user in the test world`).toBeGreaterThan(0);
      expect(out.tables[e.name], e.name).toHaveLength(expected!.n);
      for (const row of out.tables[e.name])
        for (const omitted of e.omit ?? []) expect(row, `${e.name}.${omitted}`).not.toHaveProperty(omitted);
    }
    expect(out.tables.newsletter_subscribers).toEqual([expect.objectContaining({ email: me.marks.email })]);
    // Its own markers are in it; nobody else's private data is.
    for (const v of [
      me.marks.emergency,
      me.marks.bio,
      me.marks.plate,
      "MY-NOTIFICATION",
      "MY-REPORT-DETAILS",
      "Smooth drive",
      "See you at 8",
      "Sure",
    ])
      expect(text).toContain(v);
    for (const v of [
      other.marks.emergency,
      other.marks.phone,
      other.marks.email,
      other.marks.bio,
      other.marks.upi,
      other.marks.workEmail,
      "OTHER-PRIVATE",
      "LROTHR01",
      "google-LROTHR01",
    ])
      expect(text).not.toContain(v);
    // Issue 16: my verified work address is in my membership; my live code's address without its hash.
    expect(out.tables.community_members).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ verifiedEmail: me.marks.workEmail, verifiedDomain: "workplace-mine.test" }),
      ]),
    );
    expect(out.tables.community_email_codes).toEqual([expect.not.objectContaining({ codeHash: expect.anything() })]);
    expect(out.tables.community_email_codes[0].email).toBe(me.marks.workEmail);
    // Secrets are left out.
    expect(text).not.toMatch(/pbkdf2|"hash"/i);
  });

  it("is a GET that writes nothing and only ever the caller's", async () => {
    const { me } = await world();
    const before = await dbChecksum();
    await get("/dashboard/my-data", { cookie: me.cookie });
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    expect((await get("/dashboard/my-data")).headers.get("Location")).toMatch(/^\/login/);
  });
});

describe("delete my account", () => {
  /** Every text column of every table (one read per table), and where each value occurs in it. */
  async function textColumnsContaining(...values: string[]) {
    const names = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
    ).all<{ name: string }>();
    const hits: string[] = [];
    for (const { name } of names.results) {
      const cols = (
        await env.DB.prepare("SELECT name, type FROM pragma_table_info(?)")
          .bind(name)
          .all<{ name: string; type: string }>()
      ).results.filter((c) => /text/i.test(c.type));
      if (!cols.length) continue;
      const rows = await env.DB.prepare(`SELECT ${cols.map((c) => `"${c.name}"`).join(", ")} FROM "${name}"`).all<
        Record<string, string | null>
      >();
      for (const c of cols) {
        for (const v of values)
          if (rows.results.some((r) => (r[c.name] ?? "").toLowerCase().includes(v.toLowerCase())))
            hits.push(`${name}.${c.name}`);
      }
    }
    return [...new Set(hits)];
  }

  it("tells each driver and rider once per route, naming the days, not once per day (issue 35, item 7)", async () => {
    const { me, other, myRide, theirRide } = await world();
    const ctx = { db: db() };
    // Two more days each way on the same routes, as a commute's days would be.
    for (const n of [5, 6]) {
      const mine = await createRide(ctx, { driverId: me.id, seats: 3, date: addDays(istDate(), n) });
      await createRideRequest(ctx, { rideId: mine.id, riderId: other.id, status: "accepted" });
      const theirs = await createRide(ctx, { driverId: other.id, seats: 3, date: addDays(istDate(), n) });
      await createRideRequest(ctx, { rideId: theirs.id, riderId: me.id, status: "pending" });
    }
    const res = await postForm(
      "/dashboard/delete-account",
      { password: PASSWORD, confirm: "DELETE" },
      { cookie: me.cookie },
    );
    expect(res.status).toBe(302);
    const told = await notificationsFor(other.id, ["title", "message", "data"]);
    const days = [3, 4, 5, 6].map((n) => formatWeekdayDate(addDays(istDate(), n)));
    const route = `${myRide.fromLocation} to ${myRide.toLocation}`;
    expect(told.filter((n) => n.title === "Ride cancelled").map((n) => n.message)).toEqual([
      `The rides from ${route} on ${[days[0], days[2], days[3]].join("; ")} were cancelled: the driver closed their account.`,
    ]);
    expect(told.filter((n) => n.title === "Seat cancelled").map((n) => n.message)).toEqual([
      `A passenger closed their account: their requests for ${theirRide.fromLocation} to ${theirRide.toLocation} on ${days.slice(1).join("; ")} were cancelled.`,
    ]);
    // The notice links to the first of the days.
    const seat = told.find((n) => n.title === "Seat cancelled");
    expect((seat?.data as { ride_id?: string }).ride_id).toBe(theirRide.id);
    // One e-mail and push each, too: the outbox trigger queues per notification, so two in all.
    const queued = await env.DB.prepare(
      `SELECT count(DISTINCT json_extract(payload, '$.notification_id')) AS n FROM outbox
       WHERE user_id = ? AND json_extract(payload, '$.title') IN ('Ride cancelled', 'Seat cancelled')`,
    )
      .bind(other.id)
      .first<{ n: number }>();
    expect(queued?.n).toBe(2);
  });

  it("needs the password and DELETE; a wrong one changes nothing", async () => {
    const { me } = await world();
    for (const fields of [
      { password: "wrong-password", confirm: "DELETE" },
      { password: PASSWORD, confirm: "delete please" },
      { password: PASSWORD },
    ] as Record<string, string>[]) {
      const before = await dbChecksum();
      const res = await postForm("/dashboard/delete-account", fields, { cookie: me.cookie });
      expect(res.status).toBe(400);
      expect(changedTables(before, await dbChecksum())).toEqual([]);
    }
  });

  it("closes the account at once, erases every personal field everywhere, cancels future rides with notice, keeps others' history", async () => {
    const { me, other, myRide, theirRide, done } = await world();
    const myCommuteCells = () =>
      env.DB.prepare(
        "SELECT count(*) AS n FROM commute_route_cells WHERE commute_id IN (SELECT id FROM commutes WHERE driver_id = ?)",
      )
        .bind(me.id)
        .first<{ n: number }>();
    expect((await myCommuteCells())!.n).toBeGreaterThan(0);
    // Someone else's notification naming me (a request I made).
    await createNotification(
      { db: db() },
      { userId: other.id, title: "New ride request", message: `${me.marks.name} requested 1 seat on your ride.` },
    );
    const res = await postForm(
      "/dashboard/delete-account",
      { password: PASSWORD, confirm: "DELETE" },
      { cookie: me.cookie },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/");
    expect(toastOf(res)?.title).toBe("Your account was deleted");
    // Signed out everywhere.
    expect((await get("/dashboard", { cookie: me.cookie })).headers.get("Location")).toMatch(/^\/login/);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(me.id).first()).toEqual({
      n: 0,
    });
    // My saved searches (and their lookup rows) are gone; the other's stays.
    expect(
      await env.DB.prepare("SELECT user_id FROM saved_searches")
        .all()
        .then((r) => r.results),
    ).toEqual([{ user_id: other.id }]);
    expect(
      await env.DB.prepare(
        "SELECT count(*) AS n FROM saved_search_spots WHERE search_id NOT IN (SELECT id FROM saved_searches)",
      ).first(),
    ).toEqual({ n: 0 });
    // My cancelled ride leaves the corridor index (ADR 0049: ride ids only, no member data).
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM ride_route_cells WHERE ride_id = ?").bind(myRide.id).first(),
    ).toEqual({ n: 0 });
    // My ended commute leaves the commutes' corridor index too (migration 0050: ids only).
    expect((await myCommuteCells())!.n).toBe(0);

    // No personal field of mine anywhere (every text column of every table).
    expect(
      await textColumnsContaining(
        ...Object.values(me.marks),
        "MY-RIDE-NOTE",
        "MY-REQUEST-NOTE",
        "MY-REPORT-DETAILS",
        "Smooth drive",
      ),
    ).toEqual([]);
    // The other person's data is untouched.
    expect(await textColumnsContaining(other.marks.emergency)).toEqual(["user_profiles.emergency_contact"]);
    // Issue 16: the other's work address stays where it was (their membership, code and mail).
    expect((await textColumnsContaining(other.marks.workEmail)).sort()).toEqual([
      "community_email_codes.email",
      "community_members.verified_email",
      "mail_sink.to_address",
    ]);

    // Future rides cancelled with notice, both ways.
    const ride = (id: string) => env.DB.prepare("SELECT status, booked_seats FROM rides WHERE id = ?").bind(id).first();
    expect(await ride(myRide.id)).toEqual({ status: "cancelled", booked_seats: 0 });
    expect(await ride(theirRide.id)).toEqual({ status: "active", booked_seats: 0 });
    const told = (await notificationsFor(other.id, ["title", "message"])).map((n) => n.title);
    expect(told).toEqual(expect.arrayContaining(["Ride cancelled", "Seat cancelled"]));
    expect((await notificationsFor(other.id, ["message"])).map((n) => n.message)).toContain(
      "Deleted user requested 1 seat on your ride.",
    );

    // History stays, de-identified: payments, the completed ride's request, messages from "Deleted user".
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE ride_id = ? AND payer_id = ?")
        .bind(done.id, me.id)
        .first(),
    ).toEqual({ n: 1 });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE sender_id = ?").bind(me.id).first()).toEqual({
      n: 1,
    });
    const chat = await get(`/dashboard/messages?c=${conversationIdFor(me.id, other.id)}`, { cookie: other.cookie });
    const html = await chat.text();
    expect(html).toContain("Deleted user");
    expect(html).toContain("See you at 8");
    // The deleted account cannot be found or reported.
    expect((await get(`/people/${me.id}`, { cookie: other.cookie })).status).toBe(404);
    // And cannot sign in again.
    const login = await postForm("/login", { identifier: me.marks.email, password: PASSWORD });
    expect(login.status).toBe(400);
  });
});
