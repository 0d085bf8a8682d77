import { SQLiteDialect } from "drizzle-orm/sqlite-core";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { addMember, createCommunity, createMessage, createRide, createRideRequest } from "../../db/factories";
import type { Db } from "~/models/db.server";
import { getCommunityDetail } from "~/models/communities.server";
import { conversationListQueries } from "~/models/conversations.server";
import { type ChatPageReads, getChat } from "~/models/messages.server";
import { manageBookingsRead } from "~/models/my-rides.server";
import { rideContactsQuery } from "~/models/ride-contacts.server";
import { getRideDetail, type RidePageReads } from "~/models/rides.server";
import { rideDriverReliabilityQueries } from "~/models/reliability.server";
import type { Viewer } from "~/models/sessions.server";
import { builtKeys, forgetBuiltStatements, type Read, runReads } from "~/models/statements.server";
import { tripDayQueries } from "~/models/trip.server";
import { BASE, db, signedInUser } from "../support/worker";
import { debugFetch } from "../support/worker-fetch";

// ADR 0069: Manage Bookings and the ride page build their statements once per isolate, and
// Manage Bookings reads in the session's own round trip. A later request binds its own values.

const DAY = 86_400_000;

function d1Queries(res: Response) {
  const m = /d1;(?:dur=[\d.]+;)?desc="([^"]*)"/.exec(res.headers.get("Server-Timing") ?? "");
  return Number(/queries=(\d+)/.exec(m?.[1] ?? "")?.[1]);
}

/** Two drivers, each with a ride and a rider of their own (one pending, one accepted). */
async function world() {
  const car = { profile: { vehicleInfo: { has_car: true, car_type: "petrol" as const } } };
  const [anil, bela] = [await signedInUser({ ...car, fullName: "Anil Gowda" }), await signedInUser(car)];
  const [ravi, sita] = [await signedInUser({ fullName: "Ravi Kumar" }), await signedInUser({ fullName: "Sita Menon" })];
  const anilRide = await createRide({ db: db() }, { driverId: anil.id, fromLocation: "HSR Layout" });
  const belaRide = await createRide({ db: db() }, { driverId: bela.id, fromLocation: "Whitefield ITPL" });
  await createRideRequest({ db: db() }, { rideId: anilRide.id, riderId: ravi.id });
  await createRideRequest({ db: db() }, { rideId: belaRide.id, riderId: sita.id, status: "accepted" });
  return { anil, bela, ravi, sita, anilRide, belaRide };
}

const text = (reads: Read[]) => reads.map((r) => ({ sql: r.sql, params: r.params }));

/** The ride page's other reads, as its route lists them. */
const ridePage = (d: Db): RidePageReads => ({
  key: "test-ride-page",
  make: (v) => [
    ...tripDayQueries({ db: d }, v.viewerId, v.rideId, v.now, v.today),
    rideContactsQuery(d, v.viewerId, v.rideId, v.now),
    ...rideDriverReliabilityQueries(d, v.rideId),
  ],
});

describe("Manage Bookings built once, in the session's round trip (ADR 0069)", () => {
  beforeEach(() => forgetBuiltStatements());

  it("is one round trip, and two drivers in a row each see their own requests", async () => {
    const { anil, bela } = await world();
    const first = await debugFetch(`${BASE}/dashboard/rides?tab=manage`, { headers: { Cookie: anil.cookie } });
    const second = await debugFetch(`${BASE}/dashboard/rides?tab=manage`, { headers: { Cookie: bela.cookie } });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect([d1Queries(first), d1Queries(second)]).toEqual([1, 1]);
    const [a, b] = [await first.text(), await second.text()];
    expect(a).toContain("Ravi Kumar");
    expect(a).not.toContain("Sita Menon");
    expect(b).toContain("Sita Menon");
    expect(b).not.toContain("Ravi Kumar");
  });

  it("binds a later viewer's values to the text drizzle builds for them, and reads the same rows", async () => {
    const { anil, bela } = await world();
    const now = Date.now();
    manageBookingsRead(db(), { sessionId: bela.sessionId, now: now + 9 * DAY }, now + 9 * DAY + 17);
    manageBookingsRead(db(), { userId: bela.id }, now + 9 * DAY);
    for (const viewer of [{ userId: anil.id }, { sessionId: anil.sessionId, now }] as Viewer[]) {
      const kept = [manageBookingsRead(db(), viewer, now)];
      const keptRows = await runReads(db(), kept);
      forgetBuiltStatements();
      const fresh = [manageBookingsRead(db(), viewer, now)];
      expect(text(kept)).toEqual(text(fresh));
      expect(keptRows).toEqual(await runReads(db(), fresh));
      expect(keptRows[0].map((r) => r.riderName)).toEqual(["Ravi Kumar"]);
    }
    expect(builtKeys()).toContain("manage-bookings:session");
  });

  it("an expired session reads no one's requests and goes to sign in", async () => {
    const { anil } = await world();
    await db().$client.prepare("UPDATE sessions SET expires_at = 1 WHERE id = ?").bind(anil.sessionId).run();
    const res = await debugFetch(`${BASE}/dashboard/rides?tab=manage`, { headers: { Cookie: anil.cookie } });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/login\?redirectTo=/);
    const [rows] = await runReads(db(), [manageBookingsRead(db(), { sessionId: anil.sessionId, now: Date.now() }, 0)]);
    expect(rows).toEqual([]);
  });
});

describe("the ride page's statements built once (ADR 0069)", () => {
  beforeEach(() => forgetBuiltStatements());

  it("a later viewer, ride and instant get what drizzle's own build gives them", async () => {
    const { anil, bela, ravi, anilRide, belaRide } = await world();
    const now = Date.now();
    // Learned from another viewer, ride and day...
    await getRideDetail({ db: db() }, bela.id, belaRide.id, now + 11 * DAY, ridePage(db()));
    for (const [viewer, ride] of [
      [anil, anilRide],
      [ravi, anilRide],
    ] as const) {
      const kept = await getRideDetail({ db: db() }, viewer.id, ride.id, now, ridePage(db()));
      forgetBuiltStatements();
      const fresh = await getRideDetail({ db: db() }, viewer.id, ride.id, now, ridePage(db()));
      expect(kept).toEqual(fresh);
      expect(kept.ride.id).toBe(ride.id);
    }
    const driver = await getRideDetail({ db: db() }, anil.id, anilRide.id, now, ridePage(db()));
    expect(driver.requests.map((r) => r.riderName)).toEqual(["Ravi Kumar"]);
    const rider = await getRideDetail({ db: db() }, ravi.id, anilRide.id, now, ridePage(db()));
    expect([rider.isDriver, rider.myRequest?.riderId]).toEqual([false, ravi.id]);
  });

  it("builds on a later request only the statement whose parameters follow the clock", async () => {
    const { anil, ravi, anilRide } = await world();
    const now = Date.now();
    await getRideDetail({ db: db() }, anil.id, anilRide.id, now, ridePage(db()));
    // The ride's four reads, the trip's four and the reliability record's five are kept; the
    // day's contacts (#8) are not: their IST dates are computed from the clock (contactDates).
    const kept = builtKeys().filter((k) => k.startsWith("ride-detail:test-ride-page#"));
    expect(kept).toEqual([...Array(14).keys()].filter((i) => i !== 8).map((i) => `ride-detail:test-ride-page#${i}`));
    const toSql = vi.spyOn(SQLiteDialect.prototype, "sqlToQuery");
    const detail = await getRideDetail({ db: db() }, ravi.id, anilRide.id, now + 1, ridePage(db()));
    expect(toSql).toHaveBeenCalledTimes(1);
    toSql.mockRestore();
    expect(detail.myRequest?.riderId).toBe(ravi.id);
  });

  it("the page shows each viewer their own ride: the driver the requests, the rider their own", async () => {
    const { anil, ravi, sita, anilRide } = await world();
    const driver = await debugFetch(`${BASE}/rides/${anilRide.id}`, { headers: { Cookie: anil.cookie } });
    const rider = await debugFetch(`${BASE}/rides/${anilRide.id}`, { headers: { Cookie: ravi.cookie } });
    const stranger = await debugFetch(`${BASE}/rides/${anilRide.id}`, { headers: { Cookie: sita.cookie } });
    expect([driver.status, rider.status, stranger.status]).toEqual([200, 200, 200]);
    const [d, r, s] = [await driver.text(), await rider.text(), await stranger.text()];
    expect(d).toContain("Ravi Kumar");
    expect(r).toContain("The driver will respond soon.");
    expect(s).not.toContain("The driver will respond soon.");
  });
});

/** The messages page's list, as its route makes it: its cursor is among the bound values. */
const chatList = (d: Db, chats: { at: number; id: string } | null): ChatPageReads => ({
  key: `test-list:${chats ? "more" : "first"}`,
  values: { listAt: chats?.at ?? 0, listId: chats?.id ?? "" },
  make: (v) => conversationListQueries(d, v.userId, chats && { at: Number(v.listAt), id: String(v.listId) }),
});

describe("the messages page's statements built once (ADR 0069)", () => {
  beforeEach(() => forgetBuiltStatements());

  /** Two pairs, each with a chat of 40 messages a minute apart (two pages of 30). */
  async function chats() {
    const [asha, ravi, sita, tara] = [
      await signedInUser({ fullName: "Asha Rao" }),
      await signedInUser({ fullName: "Ravi Kumar" }),
      await signedInUser({ fullName: "Sita Menon" }),
      await signedInUser({ fullName: "Tara Shetty" }),
    ];
    const start = Date.now() - 2 * DAY;
    let ashaChat = "";
    let sitaChat = "";
    for (let i = 0; i < 40; i++) {
      const at = start + i * 60_000;
      ashaChat = (
        await createMessage(
          { db: db() },
          { senderId: ravi.id, receiverId: asha.id, content: `to Asha ${i}`, createdAt: at },
        )
      ).conversationId;
      sitaChat = (
        await createMessage(
          { db: db() },
          { senderId: tara.id, receiverId: sita.id, content: `to Sita ${i}`, createdAt: at },
        )
      ).conversationId;
    }
    return { asha, ravi, sita, tara, ashaChat, sitaChat, start };
  }

  it("a later user, chat, page and list cursor get what drizzle's own build gives them", async () => {
    const { asha, sita, ashaChat, sitaChat, start } = await chats();
    const now = Date.now();
    const older = { at: start + 35 * 60_000, id: "zzzz" };
    const list = { at: now, id: "zzzz" };
    // Learned from the other pair, another page and another instant...
    for (const [before, cursor] of [
      [null, null],
      [older, list],
    ] as const) {
      await getChat(
        { db: db() },
        sita.id,
        sitaChat,
        before && { at: before.at - 60_000, id: "a" },
        null,
        now + 9 * DAY,
        chatList(db(), cursor && { at: 1, id: "b" }),
      );
      const kept = await getChat({ db: db() }, asha.id, ashaChat, before, null, now, chatList(db(), cursor));
      forgetBuiltStatements();
      const fresh = await getChat({ db: db() }, asha.id, ashaChat, before, null, now, chatList(db(), cursor));
      expect(kept).toEqual(fresh);
      expect(kept.messages.every((m) => m.content.startsWith("to Asha"))).toBe(true);
      expect(kept.messages.length).toBe(30);
      expect(kept.messages.at(-1)?.content).toBe(before ? "to Asha 35" : "to Asha 39");
    }
    // Kept: all seven, the two messaging facts too (the partner is one of the bound values).
    expect(builtKeys().filter((k) => k.startsWith("chat:older:test-list:more#"))).toEqual(
      [0, 1, 2, 3, 4, 5, 6].map((i) => `chat:older:test-list:more#${i}`),
    );
  });

  it("a chat first asked for by someone outside it does not fix the partner of later chats", async () => {
    const { asha, sita, tara, sitaChat } = await chats();
    // Sita and Tara share a community, so Sita may write to Tara.
    const community = await createCommunity({ db: db() }, { createdBy: sita.id });
    await addMember({ db: db() }, { communityId: community.id, userId: tara.id });
    const now = Date.now();
    // Asha is not in Sita's chat: her partner there is "", as is the absent ride's id.
    await expect(getChat({ db: db() }, asha.id, sitaChat, null, null, now, chatList(db(), null))).rejects.toThrow();
    const kept = await getChat({ db: db() }, sita.id, sitaChat, null, null, now, chatList(db(), null));
    forgetBuiltStatements();
    const fresh = await getChat({ db: db() }, sita.id, sitaChat, null, null, now, chatList(db(), null));
    expect(kept).toEqual(fresh);
    expect(kept.partner.fullName).toBe("Tara Shetty");
    expect(kept.access.allowed).toBe(true);
  });

  it("two users in a row each open their own chat, and not the other's", async () => {
    const { asha, sita, ashaChat, sitaChat } = await chats();
    const mine = await debugFetch(`${BASE}/dashboard/messages?c=${ashaChat}`, { headers: { Cookie: asha.cookie } });
    const hers = await debugFetch(`${BASE}/dashboard/messages?c=${sitaChat}`, { headers: { Cookie: sita.cookie } });
    const theirs = await debugFetch(`${BASE}/dashboard/messages?c=${sitaChat}`, { headers: { Cookie: asha.cookie } });
    expect([mine.status, hers.status, theirs.status]).toEqual([200, 200, 404]);
    const [a, b] = [await mine.text(), await hers.text()];
    expect(a).toContain("to Asha 39");
    expect(a).not.toContain("to Sita");
    expect(b).toContain("to Sita 39");
    expect(b).not.toContain("to Asha");
  });
});

describe("the community page's statements built once (ADR 0069)", () => {
  beforeEach(() => forgetBuiltStatements());

  /** Two communities, each with its admin, 25 approved members and a pending request. */
  async function communities() {
    const [asha, sita] = [await signedInUser({ fullName: "Asha Rao" }), await signedInUser({ fullName: "Sita Menon" })];
    const made = [];
    for (const [admin, name] of [
      [asha, "Koramangala"],
      [sita, "Whitefield"],
    ] as const) {
      const community = await createCommunity({ db: db() }, { createdBy: admin.id, name: `${name} carpool` });
      for (let i = 0; i < 25; i++) {
        const member = await signedInUser({ fullName: `${name} member ${String(i).padStart(2, "0")}` });
        await addMember({ db: db() }, { communityId: community.id, userId: member.id, at: 1_700_000_000_000 + i });
      }
      const asking = await signedInUser({ fullName: `${name} asking` });
      await addMember({ db: db() }, { communityId: community.id, userId: asking.id, status: "pending" });
      made.push(community);
    }
    return { asha, sita, kora: made[0], white: made[1] };
  }

  it("a later viewer, community, cursor and tab get what drizzle's own build gives them", async () => {
    const { asha, sita, kora, white } = await communities();
    const other = { key: "none", make: () => [] };
    for (const pages of [{}, { moderation: true }, { members: { at: 1_700_000_000_010, id: "zzzz" } }]) {
      // Learned from the other admin, community and cursor...
      const theirs = "members" in pages ? { members: { at: 1_700_000_000_003, id: "a" } } : pages;
      await getCommunityDetail({ db: db() }, sita.id, white.id, theirs, other);
      const kept = await getCommunityDetail({ db: db() }, asha.id, kora.id, pages, other);
      forgetBuiltStatements();
      const fresh = await getCommunityDetail({ db: db() }, asha.id, kora.id, pages, other);
      expect(kept).toEqual(fresh);
      expect(kept.members.every((m) => m.fullName?.startsWith("Koramangala") || m.userId === asha.id)).toBe(true);
      if ("members" in pages) expect(kept.members[0].fullName).toBe("Koramangala member 11");
    }
    expect(builtKeys().filter((k) => k.startsWith("community:1000:none#")).length).toBe(8);
  });

  it("two admins in a row each see their own community's members", async () => {
    const { asha, sita, kora, white } = await communities();
    const mine = await debugFetch(`${BASE}/communities/${kora.id}`, { headers: { Cookie: asha.cookie } });
    const hers = await debugFetch(`${BASE}/communities/${white.id}`, { headers: { Cookie: sita.cookie } });
    const theirs = await debugFetch(`${BASE}/communities/${white.id}`, { headers: { Cookie: asha.cookie } });
    expect([mine.status, hers.status, theirs.status]).toEqual([200, 200, 200]);
    const [a, b, c] = [await mine.text(), await hers.text(), await theirs.text()];
    expect(a).toContain("Koramangala member 00");
    expect(a).not.toContain("Whitefield member");
    expect(b).toContain("Whitefield member 00");
    // Not a member: the card only, no one's membership.
    expect(c).not.toContain("Whitefield member");
  });
});
