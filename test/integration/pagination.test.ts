// Keyset pagination of the lists that grow with data (issue 17, ADR 0025): each "Older"/"More"
// link is a plain <a href> carrying a (timestamp, id) cursor; following them shows every item
// exactly once, in order, also when many items share one timestamp; a bad cursor is the first page.
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
import { conversationIdFor } from "~/domain/conversation";
import { MESSAGES_PAGE } from "~/schemas/messages";
import { CONVERSATIONS_SHOWN } from "~/models/conversations.server";
import { BOOKED_PAGE, CREATED_PAGE, MANAGE_PAGE } from "~/models/my-rides.server";
import { NOTIFICATIONS_SHOWN } from "~/models/notifications.server";
import { addDays, istDate } from "~/domain/time";
import { MEMBERS_PAGE, REQUESTS_PAGE } from "~/models/communities.server";
import { db, get, signedInUser } from "../support/worker";
import { linkHref, walkPages } from "../support/pages";

/** The page lengths of `n` items at `size` a page. */
const sizes = (n: number, size: number) =>
  Array.from({ length: Math.ceil(n / size) }, (_, i) => Math.min(size, n - i * size));
const messageTexts = (html: string) =>
  [...html.matchAll(/data-testid="message"[^>]*>[\s\S]*?<p class="whitespace-pre-wrap[^>]*>([^<]*)<\/p>/g)].map(
    (m) => m[1],
  );
const partners = (html: string) =>
  [...html.matchAll(/data-testid="conversation" data-partner="([^"]*)"/g)].map((m) => m[1]);

async function neighbours() {
  const a = await signedInUser({ fullName: "Asha Rao" });
  const b = await signedInUser({ fullName: "Bharat Menon" });
  const community = await createCommunity({ db: db() }, { createdBy: a.id });
  await addMember({ db: db() }, { communityId: community.id, userId: b.id });
  return { a, b, conversationId: conversationIdFor(a.id, b.id) };
}

describe("a long chat", () => {
  it("shows the newest page; Older messages walks back through every message once, ties on the timestamp included", async () => {
    const { a, b, conversationId } = await neighbours();
    const t0 = Date.now() - 10 * 60_000;
    const total = MESSAGES_PAGE * 2 + 17;
    // Groups of 7 messages share one millisecond, so page boundaries fall inside ties.
    for (let i = 0; i < total; i += 25) {
      await Promise.all(
        Array.from({ length: Math.min(25, total - i) }, (_, j) =>
          createMessage(
            { db: db() },
            {
              senderId: (i + j) % 2 ? a.id : b.id,
              receiverId: (i + j) % 2 ? b.id : a.id,
              content: `msg #${i + j}#`,
              createdAt: t0 + Math.floor((i + j) / 7),
              read: true,
            },
          ),
        ),
      );
    }
    const { pages, paths } = await walkPages(
      `/dashboard/messages?c=${conversationId}`,
      a.cookie,
      "older-messages",
      messageTexts,
    );
    expect(pages.map((p) => p.length)).toEqual([MESSAGES_PAGE, MESSAGES_PAGE, 17]);
    // Pages go back in time; each is oldest-first inside.
    const all = pages.reverse().flat();
    expect(new Set(all).size).toBe(total);
    // Within a tie the order is the id's, so compare sets per timestamp group, and the order of groups.
    const group = (text: string) => Math.floor(Number(/#(\d+)#/.exec(text)![1]) / 7);
    expect(all.map(group)).toEqual([...all.map(group)].sort((x, y) => x - y));
    expect(paths[1]).toMatch(new RegExp(`^/dashboard/messages\\?c=${conversationId}&before=\\d+\\.`));
    // An older page links back to the newest messages and has no composer-only live list issue.
    const older = await (await get(paths[1], { cookie: a.cookie })).text();
    expect(linkHref(older, "newest-messages")).toBe(`/dashboard/messages?c=${conversationId}`);
    const first = await (await get(paths[0], { cookie: a.cookie })).text();
    expect(linkHref(first, "newest-messages")).toBeNull();
  });

  it("a bad cursor shows the newest page, never an error", async () => {
    const { a, b, conversationId } = await neighbours();
    for (let i = 0; i < 3; i++)
      await createMessage(
        { db: db() },
        { senderId: a.id, receiverId: b.id, content: `hello ${i}`, createdAt: Date.now() - 1000 + i },
      );
    for (const bad of ["x", "12", ".abc", "1.2.3", "99999999999999999999.a", "1.%27%20OR%201=1", "-5.abc", "1.a b"]) {
      const res = await get(`/dashboard/messages?c=${conversationId}&before=${bad}`, { cookie: a.cookie });
      expect(res.status, bad).toBe(200);
      expect(messageTexts(await res.text()), bad).toEqual(["hello 0", "hello 1", "hello 2"]);
    }
  });

  it("a cursor in someone else's conversation shows nothing of it", async () => {
    const { a, b, conversationId } = await neighbours();
    await createMessage(
      { db: db() },
      { senderId: a.id, receiverId: b.id, content: "private", createdAt: Date.now() - 1000 },
    );
    const outsider = await signedInUser();
    const res = await get(`/dashboard/messages?c=${conversationId}&before=${Date.now()}.zzz`, {
      cookie: outsider.cookie,
    });
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain("private");
  });
});

describe("the conversation list", () => {
  it("shows the most recent conversations; More conversations shows every other one once, ties included", async () => {
    const me = await signedInUser({ fullName: "Many Chats" });
    const community = await createCommunity({ db: db() }, { createdBy: me.id });
    const n = CONVERSATIONS_SHOWN * 2 + 3;
    const at = Date.now() - 60_000;
    const others = await Promise.all(Array.from({ length: n }, (_, i) => signedInUser({ fullName: `Partner ${i}` })));
    for (const o of others) await addMember({ db: db() }, { communityId: community.id, userId: o.id });
    // Pairs of conversations share their last message's time; half start from me, half to me
    // (so both sides of the pair index are paged).
    await Promise.all(
      others.map((o, i) =>
        createMessage(
          { db: db() },
          {
            senderId: i % 2 ? me.id : o.id,
            receiverId: i % 2 ? o.id : me.id,
            content: `hi ${i}`,
            createdAt: at + Math.floor(i / 2),
            read: true,
          },
        ),
      ),
    );
    const { pages } = await walkPages("/dashboard/messages", me.cookie, "more-conversations", partners);
    expect(pages.map((p) => p.length)).toEqual([CONVERSATIONS_SHOWN, CONVERSATIONS_SHOWN, 3]);
    const all = pages.flat();
    expect(new Set(all).size).toBe(n);
    const index = (name: string) => Number(name.split(" ")[1]);
    // Most recent first: the time groups descend.
    expect(all.map((p) => Math.floor(index(p) / 2))).toEqual(
      [...all.map((p) => Math.floor(index(p) / 2))].sort((x, y) => y - x),
    );
  });

  it("a bad list cursor is the first page", async () => {
    const { a, b } = await neighbours();
    await createMessage(
      { db: db() },
      { senderId: b.id, receiverId: a.id, content: "hey", createdAt: Date.now() - 1000 },
    );
    const res = await get("/dashboard/messages?chats=garbage", { cookie: a.cookie });
    expect(res.status).toBe(200);
    expect(partners(await res.text())).toEqual(["Bharat Menon"]);
  });
});

describe("Manage Bookings", () => {
  const notes = (html: string) =>
    [...html.matchAll(/<span class="font-semibold">Message: <\/span>(note \d+)</g)].map((m) => m[1]);

  it("shows the newest requests; More requests shows the rest once each, ties included, and keeps the filter", async () => {
    const driver = await signedInUser({ fullName: "Busy Driver" });
    const rides = await Promise.all(
      Array.from({ length: 8 }, () => createRide({ db: db() }, { driverId: driver.id, seats: 6 })),
    );
    const riders = await Promise.all(Array.from({ length: 6 }, () => signedInUser()));
    const at = Date.now() - 3600_000;
    let n = 0;
    // 48 requests, four at each millisecond; one in three rejected.
    for (const ride of rides)
      for (const rider of riders) {
        const i = n++;
        await createRideRequest(
          { db: db() },
          {
            rideId: ride.id,
            riderId: rider.id,
            notes: `note ${i}`,
            status: i % 3 === 2 ? "rejected" : "pending",
            createdAt: at + Math.floor(i / 4),
          },
        );
      }
    const { pages, paths } = await walkPages("/dashboard/rides?tab=manage", driver.cookie, "more-requests", notes);
    expect(pages.map((p) => p.length)).toEqual(sizes(48, MANAGE_PAGE));
    const all = pages.flat();
    expect(new Set(all).size).toBe(48);
    const group = (t: string) => Math.floor(Number(t.split(" ")[1]) / 4);
    expect(all.map(group)).toEqual([...all.map(group)].sort((x, y) => y - x));
    expect(paths[1]).toMatch(/^\/dashboard\/rides\?tab=manage&after=\d+\./);
    // The filter travels with the cursor: only the 16 rejected ones.
    const rejected = await walkPages(
      "/dashboard/rides?tab=manage&status=rejected",
      driver.cookie,
      "more-requests",
      notes,
    );
    expect(rejected.pages.map((p) => p.length)).toEqual(sizes(16, MANAGE_PAGE));
    const pending = await walkPages(
      "/dashboard/rides?tab=manage&status=pending",
      driver.cookie,
      "more-requests",
      notes,
    );
    expect(pending.paths[1]).toMatch(/status=pending&after=/);
    expect(pending.pages.flat().sort()).toEqual(all.filter((t) => Number(t.split(" ")[1]) % 3 !== 2).sort());
    // A bad cursor is the first page.
    const bad = await (await get("/dashboard/rides?tab=manage&after=1.x%27", { cookie: driver.cookie })).text();
    expect(notes(bad)).toEqual(pages[0]);
  });
});

describe("a community's members and requests", () => {
  const names = (testId: string) => (html: string) =>
    [
      ...html.matchAll(new RegExp(`data-testid="${testId}"[\\s\\S]*?<p class="truncate font-medium">([^<]*)<`, "g")),
    ].map((m) => m[1]);

  async function bigCommunity(approved: number, pending: number) {
    const admin = await signedInUser({ fullName: "Admin Person" });
    const community = await createCommunity({ db: db() }, { createdBy: admin.id });
    const at = Date.now() - 86_400_000;
    const people = await Promise.all(
      Array.from({ length: approved + pending }, (_, i) => createUser({ db: db() }, { fullName: `Person ${i}` })),
    );
    // Five members join in each millisecond: page boundaries fall inside ties.
    await Promise.all(
      people.map((p, i) =>
        addMember(
          { db: db() },
          {
            communityId: community.id,
            userId: p.id,
            status: i < approved ? "approved" : "pending",
            at: at + Math.floor(i / 5),
          },
        ),
      ),
    );
    return { admin, community };
  }

  it("members page in order of joining; More members shows each one once; a member sees the same pages", async () => {
    const { admin, community } = await bigCommunity(MEMBERS_PAGE * 2 + 4, 0);
    const { pages, paths } = await walkPages(
      `/communities/${community.id}`,
      admin.cookie,
      "more-members",
      names("member"),
    );
    // Person 0..N-1 joined a day ago, the admin (creator) now.
    expect(pages.map((p) => p.length)).toEqual([MEMBERS_PAGE, MEMBERS_PAGE, 5]);
    const all = pages.flat();
    expect(new Set(all).size).toBe(MEMBERS_PAGE * 2 + 5);
    const index = (n: string) => (n === "Admin Person" ? 1e6 : Number(n.split(" ")[1]));
    const group = (n: string) => Math.floor(index(n) / 5);
    expect(all.map(group)).toEqual([...all.map(group)].sort((x, y) => x - y));
    expect(paths[1]).toMatch(new RegExp(`^/communities/${community.id}\\?after=\\d+\\.`));
    const bad = await get(`/communities/${community.id}?after=nonsense`, { cookie: admin.cookie });
    expect(bad.status).toBe(200);
    expect(names("member")(await bad.text())).toEqual(pages[0]);
  });

  it("moderators page the pending requests; the tab and heading count all of them", async () => {
    const { admin, community } = await bigCommunity(3, REQUESTS_PAGE + 7);
    const { pages, paths } = await walkPages(
      `/communities/${community.id}?tab=moderation`,
      admin.cookie,
      "more-pending",
      names("pending-request"),
    );
    expect(pages.map((p) => p.length)).toEqual([REQUESTS_PAGE, 7]);
    expect(new Set(pages.flat()).size).toBe(REQUESTS_PAGE + 7);
    expect(paths[1]).toMatch(/\?tab=moderation&pending=\d+\./);
    const html = (await (await get(paths[1], { cookie: admin.cookie })).text()).replace(/<!-- -->/g, "");
    expect(html).toContain(`Pending Requests (${REQUESTS_PAGE + 7})`);
    expect(html).toContain(`Moderation (${REQUESTS_PAGE + 7})`);
  });

  it("a cursor shows an outsider nothing: the member list stays hidden", async () => {
    const { community } = await bigCommunity(5, 0);
    const outsider = await signedInUser();
    const res = await get(`/communities/${community.id}?after=0.a`, { cookie: outsider.cookie });
    expect(res.status).toBe(200);
    expect(names("member")(await res.text())).toEqual([]);
  });
});

describe("Booked Rides", () => {
  const routes = (html: string) =>
    [...html.matchAll(/data-testid="booked-ride"[\s\S]*?href="\/booking-confirmation\/([a-z0-9]+)"/g)].map((m) => m[1]);

  it("upcoming bookings first (soonest first), then past ones (latest first); More bookings shows every one once, ties included", async () => {
    const rider = await signedInUser({ fullName: "Frequent Rider" });
    const drivers = await Promise.all(Array.from({ length: 3 }, () => signedInUser()));
    const today = istDate();
    const up = BOOKED_PAGE + 7;
    const n = BOOKED_PAGE * 2 + 5;
    const ids: string[] = [];
    const rank = new Map<string, number>();
    for (let i = 0; i < n; i++) {
      // Three rides leave at each moment; the ones booked first leave last (booking order is not the list's).
      const upcoming = i < up;
      const days = upcoming ? 1 + Math.floor((up - 1 - i) / 3) : -1 - Math.floor((i - up) / 3);
      const ride = await createRide(
        { db: db() },
        { driverId: drivers[i % 3].id, date: addDays(today, days), status: upcoming ? "active" : "completed" },
      );
      const r = await createRideRequest(
        { db: db() },
        { rideId: ride.id, riderId: rider.id, status: i % 2 ? "rejected" : "pending" },
      );
      ids.push(r.id);
      rank.set(r.id, upcoming ? days : 1000 - days);
    }
    const { pages, paths } = await walkPages("/dashboard/rides?tab=booked", rider.cookie, "more-bookings", routes);
    expect(pages.map((p) => p.length)).toEqual(sizes(n, BOOKED_PAGE));
    const all = pages.flat();
    expect(new Set(all).size).toBe(n);
    expect(new Set(all)).toEqual(new Set(ids));
    expect(all.map((id) => rank.get(id))).toEqual([...all.map((id) => rank.get(id))].sort((x, y) => x! - y!));
    // Page 2 continues the upcoming bookings; page 3 the past ones.
    expect(paths[1]).toMatch(/^\/dashboard\/rides\?tab=booked&after=\d+\./);
    expect(paths[2]).toMatch(/^\/dashboard\/rides\?tab=booked&after=p\d+\./);
    const bad = await (await get("/dashboard/rides?tab=booked&after=zz", { cookie: rider.cookie })).text();
    expect(routes(bad)).toEqual(pages[0]);
  });
});

describe("Created Rides", () => {
  const rideIds = (html: string) =>
    [...html.matchAll(/data-testid="created-ride"[\s\S]*?href="\/rides\/([a-z0-9]+)"/g)].map((m) => m[1]);

  it("upcoming rides first (soonest first), then past ones (latest first); More rides shows every ride once, ties included", async () => {
    const driver = await signedInUser({ fullName: "Prolific Driver" });
    const today = istDate();
    // 25 upcoming rides, five departing at each moment; 22 past ones, four at each moment.
    const upcoming = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        createRide({ db: db() }, { driverId: driver.id, date: addDays(today, 1 + Math.floor(i / 5)) }),
      ),
    );
    const past = await Promise.all(
      Array.from({ length: 22 }, (_, i) =>
        createRide(
          { db: db() },
          { driverId: driver.id, date: addDays(today, -1 - Math.floor(i / 4)), status: "completed" },
        ),
      ),
    );
    const { pages, paths } = await walkPages("/dashboard/rides?tab=created", driver.cookie, "more-rides", rideIds);
    expect(pages.map((p) => p.length)).toEqual(sizes(47, CREATED_PAGE));
    const all = pages.flat();
    expect(new Set(all)).toEqual(new Set([...upcoming, ...past].map((r) => r.id)));
    expect(all).toHaveLength(47);
    // The rank of each ride's departure in the spec's order: upcoming ascending, then past descending.
    const rank = new Map([
      ...upcoming.map((r, i) => [r.id, Math.floor(i / 5)] as const),
      ...past.map((r, i) => [r.id, 100 + Math.floor(i / 4)] as const),
    ]);
    expect(all.map((id) => rank.get(id))).toEqual([...all.map((id) => rank.get(id))].sort((x, y) => x! - y!));
    // Page 2 continues the upcoming rides; page 3 the past ones.
    expect(paths[1]).toMatch(/^\/dashboard\/rides\?tab=created&after=\d+\./);
    expect(paths[2]).toMatch(/^\/dashboard\/rides\?tab=created&after=p\d+\./);
    // A bad cursor is the first page.
    for (const bad of ["zz", "p", "p1.x%27", "-1.a"]) {
      const res = await get(`/dashboard/rides?tab=created&after=${bad}`, { cookie: driver.cookie });
      expect(res.status, bad).toBe(200);
      expect(rideIds(await res.text()), bad).toEqual(pages[0]);
    }
  });

  it("a cursor shows no one else's rides", async () => {
    const driver = await signedInUser();
    await createRide({ db: db() }, { driverId: driver.id });
    const other = await signedInUser();
    for (const after of ["0.a", "p9999999999999.z"]) {
      const res = await get(`/dashboard/rides?tab=created&after=${after}`, { cookie: other.cookie });
      expect(res.status).toBe(200);
      expect(rideIds(await res.text())).toEqual([]);
    }
  });
});

describe("the dashboard's notifications", () => {
  const messages = (html: string) =>
    [...html.matchAll(/data-testid="notification"[\s\S]*?<p class="lr-muted text-sm">(note \d+)<\/p>/g)].map(
      (m) => m[1],
    );

  it("shows the newest; Older notifications shows every other one once, ties included; a bad cursor is the newest page", async () => {
    const me = await signedInUser();
    const someone = await signedInUser();
    const n = NOTIFICATIONS_SHOWN * 2 + 3;
    const at = Date.now() - 3600_000;
    // Three notifications in each millisecond; someone else's in between are never shown.
    await Promise.all(
      Array.from({ length: n }, (_, i) =>
        createNotification(
          { db: db() },
          { userId: me.id, message: `note ${i}`, read: i % 2 === 0, createdAt: at + Math.floor(i / 3) },
        ),
      ),
    );
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        createNotification({ db: db() }, { userId: someone.id, message: `note ${1000 + i}`, createdAt: at + i }),
      ),
    );
    const { pages, paths } = await walkPages("/dashboard", me.cookie, "older-notifications", messages);
    expect(pages.map((p) => p.length)).toEqual(sizes(n, NOTIFICATIONS_SHOWN));
    const all = pages.flat();
    expect(new Set(all)).toEqual(new Set(Array.from({ length: n }, (_, i) => `note ${i}`)));
    expect(all).toHaveLength(n);
    const group = (t: string) => Math.floor(Number(t.split(" ")[1]) / 3);
    expect(all.map(group)).toEqual([...all.map(group)].sort((x, y) => y - x));
    expect(paths[1]).toMatch(/^\/dashboard\?before=\d+\.[a-z0-9]+#notifications$/);
    for (const bad of ["zz", "1.x%27", "-1.a"]) {
      const res = await get(`/dashboard?before=${bad}`, { cookie: me.cookie });
      expect(res.status, bad).toBe(200);
      expect(messages(await res.text()), bad).toEqual(pages[0]);
    }
    // A cursor never shows someone else's: their page is theirs alone.
    expect(
      messages(await (await get(`/dashboard?before=${Date.now()}.zzz`, { cookie: someone.cookie })).text()),
    ).toEqual(Array.from({ length: 5 }, (_, i) => `note ${1004 - i}`));
  });
});
