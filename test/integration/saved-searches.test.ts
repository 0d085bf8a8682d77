// Saved searches and their alerts (issue 14, item 4): saving from Discover's distance results,
// bad input, the per-user limit, pause / resume / delete and who may not; matching on publish
// (radius, window, weekday, visibility, blocks, women-only), one alert per search per IST day
// under concurrent publishes, commutes (on publish and from the daily Cron), the e-mail.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import worker from "../../server";
import { addMember, createCommunity, createCommutePattern, createUser } from "../../db/factories";
import { dayOfWeek, weekdayMask, WEEKDAYS } from "~/domain/commutes";
import { straightLineKm } from "~/domain/places";
import { routeSpots } from "~/domain/alert-spots";
import { addDays, istDate } from "~/domain/time";
import { COMMUTE_TOP_UP_CRON, createCommute } from "~/models/commutes.server";
import { loadDelivery } from "~/models/outbox/queue.server";
import { placeByName } from "~/models/places.server";
import { createRide } from "~/models/ride-publishing.server";
import {
  spotSearchesSql,
  ALERT_TITLE,
  MAX_SAVED_SEARCHES,
  saveSearch,
  setSavedSearchPaused,
  TOO_MANY_SEARCHES,
  type SaveSearch,
} from "~/models/saved-searches.server";
import { ConflictError } from "~/models/errors.server";
import { createDb } from "~/models/db.server";
import { instrumentD1, newD1Stats } from "~/utils/d1-stats.server";
import { renderMail } from "~/models/outbox/render.server";
import { dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";

const ctx = () => ({ db: db() });
const tomorrow = () => addDays(istDate(), 1);
const ALL_DAYS = 127;

const search = (over: Partial<SaveSearch> = {}): SaveSearch => ({
  from: "Koramangala",
  to: "Manyata Tech Park",
  time: "09:00",
  radiusKm: 2,
  windowMinutes: 15,
  weekdays: ALL_DAYS,
  ...over,
});

type RideOver = {
  fromLocation?: string;
  toLocation?: string;
  date?: string;
  time?: string;
  communityId?: string | null;
  womenOnly?: boolean;
};
const publish = (driverId: string, over: RideOver = {}) =>
  createRide(ctx(), driverId, {
    fromLocation: "Koramangala",
    toLocation: "Manyata Tech Park",
    date: tomorrow(),
    time: "09:05",
    seats: 3,
    tripCost: 20000,
    notes: null,
    communityId: null,
    womenOnly: false,
    ...over,
  });

const alertsOf = async (userId: string) => (await notificationsFor(userId)).filter((n) => n.title === ALERT_TITLE);
const savedCount = async (userId: string) =>
  (await env.DB.prepare("SELECT count(*) AS n FROM saved_searches WHERE user_id = ?")
    .bind(userId)
    .first<{ n: number }>())!.n;

const saveForm = (over: Record<string, string | string[]> = {}) => ({
  intent: "save-search",
  from: "Koramangala",
  to: "Manyata Tech Park",
  time: "09:00",
  radius: "2",
  window: "15",
  weekdays: ["mon", "tue", "wed", "thu", "fri"],
  redirectTo: "/rides?from=Koramangala&to=Manyata+Tech+Park&time=09:00",
  ...over,
});

describe("saving a search from Discover Rides", () => {
  it("the distance results offer 'Save this search'; saving keeps it with its cells and lists it", async () => {
    const rider = await signedInUser({ fullName: "Sana Rider" });
    const page = await get(`/rides?from=Koramangala&to=Manyata+Tech+Park&date=${tomorrow()}&time=09:00`, {
      cookie: rider.cookie,
    });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Save this search");
    const res = await postForm("/rides", saveForm(), { cookie: rider.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/rides?from=Koramangala&to=Manyata+Tech+Park&time=09:00");
    expect(toastOf(res)?.title).toBe("Search saved");
    const row = await env.DB.prepare("SELECT * FROM saved_searches WHERE user_id = ?")
      .bind(rider.id)
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({
      from_location: "Koramangala",
      to_location: "Manyata Tech Park",
      time: "09:00",
      minute: 540,
      radius_m: 2000,
      window_minutes: 15,
      weekdays: 0b0111110,
      status: "active",
    });
    const spots = await env.DB.prepare("SELECT klass, cell, minute FROM saved_search_spots WHERE search_id = ?")
      .bind(row!.id)
      .all<{ klass: number; cell: number; minute: number }>();
    // One lookup row: Koramangala's cell of the 2 km class's grid (the search grid's own).
    expect(spots.results).toEqual([{ klass: 0, cell: placeByName("Koramangala")!.cell, minute: 540 }]);
    const list = await (await get("/rides", { cookie: rider.cookie })).text();
    expect(list).toContain("Your saved searches");
    expect(list).toMatch(/Koramangala → Manyata Tech Park/);
  });

  it("bad input gets a clear message and saves nothing", async () => {
    const rider = await signedInUser();
    const cases: [Record<string, string | string[]>, RegExp][] = [
      [{ radius: "11" }, /distance must be between 0.5 and 10 km/],
      [{ radius: "0.2" }, /distance must be between 0.5 and 10 km/],
      [{ window: "90" }, /time window must be between 0 and 60 minutes/],
      [{ weekdays: [] }, /at least one weekday/],
      [{ from: "Atlantis" }, /We don't know "Atlantis"/],
      [{ time: "25:00" }, /pick a time/],
    ];
    for (const [over, message] of cases) {
      const before = await dbChecksum();
      const res = await postForm("/rides", saveForm(over), { cookie: rider.cookie });
      expect(res.status, JSON.stringify(over)).toBe(302);
      const toast = toastOf(res);
      expect(toast?.type).toBe("error");
      expect(toast?.description, JSON.stringify(over)).toMatch(message);
      expect(await dbChecksum()).toEqual(before);
    }
    const same = await postForm("/rides", saveForm({ to: "Koramangala" }), { cookie: rider.cookie });
    expect(toastOf(same)?.description).toMatch(/cannot be the same/);
    expect(await savedCount(rider.id)).toBe(0);
    // An unknown intent is a 400.
    expect((await postForm("/rides", { intent: "save-everything" }, { cookie: rider.cookie })).status).toBe(400);
  });

  it(`at most ${MAX_SAVED_SEARCHES} per user, also when saves race`, async () => {
    const rider = await createUser(ctx());
    const results = await Promise.allSettled(
      Array.from({ length: MAX_SAVED_SEARCHES + 4 }, (_, i) =>
        saveSearch(ctx(), rider.id, search({ time: `0${i % 10}:00` })),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_SAVED_SEARCHES);
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(ConflictError);
      expect((r as PromiseRejectedResult).reason.message).toBe(TOO_MANY_SEARCHES);
    }
    expect(await savedCount(rider.id)).toBe(MAX_SAVED_SEARCHES);
    // The refused ones left no lookup rows behind.
    const orphans = await env.DB.prepare(
      "SELECT count(*) AS n FROM saved_search_spots WHERE search_id NOT IN (SELECT id FROM saved_searches)",
    ).first<{ n: number }>();
    expect(orphans!.n).toBe(0);
  });

  it("pause, resume and delete are the owner's; anyone else gets a 404 and nothing changes", async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const { id } = await saveSearch(ctx(), owner.id, search());
    for (const intent of ["pause-search", "resume-search", "delete-search"]) {
      const before = await dbChecksum();
      const res = await postForm("/rides", { intent, searchId: id }, { cookie: other.cookie });
      expect(res.status, intent).toBe(404);
      expect(await dbChecksum()).toEqual(before);
    }
    const paused = await postForm("/rides", { intent: "pause-search", searchId: id }, { cookie: owner.cookie });
    expect(toastOf(paused)?.title).toBe("Alerts paused for this search");
    expect(
      (await env.DB.prepare("SELECT status FROM saved_searches WHERE id = ?").bind(id).first<{ status: string }>())!
        .status,
    ).toBe("paused");
    expect(await (await get("/rides", { cookie: owner.cookie })).text()).toContain("Paused");
    await postForm("/rides", { intent: "resume-search", searchId: id }, { cookie: owner.cookie });
    expect(
      (await env.DB.prepare("SELECT status FROM saved_searches WHERE id = ?").bind(id).first<{ status: string }>())!
        .status,
    ).toBe("active");
    const deleted = await postForm("/rides", { intent: "delete-search", searchId: id }, { cookie: owner.cookie });
    expect(toastOf(deleted)?.title).toBe("Saved search deleted");
    expect(await savedCount(owner.id)).toBe(0);
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM saved_search_spots WHERE search_id = ?")
        .bind(id)
        .first<{ n: number }>())!.n,
    ).toBe(0);
    // Deleting it again: not found.
    expect((await postForm("/rides", { intent: "delete-search", searchId: id }, { cookie: owner.cookie })).status).toBe(
      404,
    );
  });
});

describe("alerts when a matching ride is published", () => {
  it("a ride inside the radius and window on a chosen weekday alerts the owner, with a link to the ride", async () => {
    const driver = await createUser(ctx());
    const rider = await createUser(ctx());
    await saveSearch(ctx(), rider.id, search());
    const ride = await publish(driver.id);
    expect(ride.audience.notified).toEqual([rider.id]);
    const alerts = await alertsOf(rider.id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].type).toBe("ride_update");
    expect(alerts[0].data).toMatchObject({ ride_id: ride.id, from: "Koramangala", to: "Manyata Tech Park" });
    // The panel links it to the ride.
    const { notificationHref } = await import("~/domain/notifications");
    expect(notificationHref(alerts[0].type, alerts[0].data)).toBe(`/rides/${ride.id}`);
    // Never the driver's own search.
    expect(await alertsOf(driver.id)).toHaveLength(0);
  });

  it("radius: just inside alerts, just outside does not (hand-measured distance)", async () => {
    const driver = await createUser(ctx());
    const near = await createUser(ctx());
    const far = await createUser(ctx());
    const km = straightLineKm(placeByName("Koramangala")!, placeByName("BTM Layout")!);
    expect(km).toBeGreaterThan(2);
    expect(km).toBeLessThan(3);
    await saveSearch(ctx(), far.id, search({ radiusKm: 2 }));
    await saveSearch(ctx(), near.id, search({ radiusKm: 3 }));
    await publish(driver.id, { fromLocation: "BTM Layout" });
    expect(await alertsOf(near.id)).toHaveLength(1);
    expect(await alertsOf(far.id)).toHaveLength(0);
  });

  it("window and weekday: outside the window or on another weekday, no alert", async () => {
    const driver = await createUser(ctx());
    const inWindow = await createUser(ctx());
    const outWindow = await createUser(ctx());
    const otherDay = await createUser(ctx());
    const rideDay = dayOfWeek(tomorrow());
    const notThatDay = WEEKDAYS.filter((d) => d.bit !== rideDay).map((d) => d.key);
    await saveSearch(ctx(), inWindow.id, search({ time: "08:40", windowMinutes: 30 }));
    await saveSearch(ctx(), outWindow.id, search({ time: "08:40", windowMinutes: 15 }));
    await saveSearch(ctx(), otherDay.id, search({ weekdays: weekdayMask(notThatDay) }));
    await publish(driver.id, { time: "09:05" });
    expect(await alertsOf(inWindow.id)).toHaveLength(1);
    expect(await alertsOf(outWindow.id)).toHaveLength(0);
    expect(await alertsOf(otherDay.id)).toHaveLength(0);
  });

  it("never for a ride the owner may not see or book: another community's ride, a block, a women-only ride", async () => {
    const driver = await createUser(ctx(), { profile: { gender: "female" } });
    const member = await createUser(ctx());
    const outsider = await createUser(ctx());
    const blocked = await createUser(ctx());
    const man = await createUser(ctx(), { profile: { gender: "male" } });
    const woman = await createUser(ctx(), { profile: { gender: "female" } });
    const community = await createCommunity(ctx(), { createdBy: driver.id, name: "Koramangala Commuters" });
    await addMember(ctx(), { communityId: community.id, userId: member.id, status: "approved" });
    await env.DB.prepare("INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
      .bind(blocked.id, driver.id, Date.now())
      .run();
    for (const u of [member, outsider, blocked]) await saveSearch(ctx(), u.id, search());
    await publish(driver.id, { communityId: community.id });
    expect(await alertsOf(member.id)).toHaveLength(1);
    expect(await alertsOf(outsider.id)).toHaveLength(0);
    expect(await alertsOf(blocked.id)).toHaveLength(0);
    // A public ride: still never across the block.
    await publish(driver.id, { time: "09:10" });
    expect(await alertsOf(outsider.id)).toHaveLength(1);
    expect(await alertsOf(blocked.id)).toHaveLength(0);
    for (const u of [man, woman]) await saveSearch(ctx(), u.id, search());
    await publish(driver.id, { womenOnly: true, time: "08:55" });
    expect(await alertsOf(woman.id)).toHaveLength(1);
    expect(await alertsOf(man.id)).toHaveLength(0);
  });

  it("a paused search gets no alert; resumed, it does", async () => {
    const driver = await createUser(ctx());
    const rider = await signedInUser();
    const { id } = await saveSearch(ctx(), rider.id, search());
    await postForm("/rides", { intent: "pause-search", searchId: id }, { cookie: rider.cookie });
    await publish(driver.id);
    expect(await alertsOf(rider.id)).toHaveLength(0);
    await postForm("/rides", { intent: "resume-search", searchId: id }, { cookie: rider.cookie });
    await publish(driver.id, { time: "09:10" });
    expect(await alertsOf(rider.id)).toHaveLength(1);
  });

  it("at most one alert per search per IST day, even when matching rides are published at once", async () => {
    const drivers = await Promise.all(Array.from({ length: 6 }, () => createUser(ctx())));
    const rider = await createUser(ctx());
    const { id } = await saveSearch(ctx(), rider.id, search({ windowMinutes: 60 }));
    const published = await Promise.all(drivers.map((d, i) => publish(d.id, { time: `09:0${i}` })));
    expect(published.flatMap((p) => p.audience.notified)).toEqual([rider.id]);
    expect(await alertsOf(rider.id)).toHaveLength(1);
    const row = await env.DB.prepare("SELECT told_on FROM saved_search_spots WHERE search_id = ?")
      .bind(id)
      .first<{ told_on: string }>();
    expect(row!.told_on).toBe(istDate());
    // Later the same day: still one.
    await publish(drivers[0].id, { time: "09:30" });
    expect(await alertsOf(rider.id)).toHaveLength(1);
    // The next IST day it may alert again.
    await env.DB.prepare("UPDATE saved_search_spots SET told_on = ? WHERE search_id = ?")
      .bind(addDays(istDate(), -1), id)
      .run();
    await publish(drivers[1].id, { time: "09:45" });
    expect(await alertsOf(rider.id)).toHaveLength(2);
  });

  it("a search told today or paused is dropped by the lookup itself: a publish neither reads nor writes it", async () => {
    const [first, second] = [await createUser(ctx()), await createUser(ctx())];
    const [rider, resting] = [await createUser(ctx()), await createUser(ctx())];
    const { id } = await saveSearch(ctx(), rider.id, search());
    const paused = await saveSearch(ctx(), resting.id, search());
    await setSavedSearchPaused(ctx(), resting.id, paused.id, true);
    await publish(first.id);
    expect(await alertsOf(rider.id)).toHaveLength(1);
    const told = await env.DB.prepare("SELECT told_on FROM saved_search_spots WHERE search_id = ?")
      .bind(id)
      .first<{ told_on: string }>();
    expect(told!.told_on).toBe(istDate());
    // ADR 0049 (2026-11-29, told_on): not even turned away by the guarded UPDATE.
    const stats = newD1Stats({ perStatement: true });
    const again = await createRide({ db: createDb(instrumentD1(env.DB, stats)) }, second.id, {
      fromLocation: "Koramangala",
      toLocation: "Manyata Tech Park",
      date: tomorrow(),
      time: "09:10",
      seats: 3,
      tripCost: 30000,
      notes: null,
      communityId: null,
      womenOnly: false,
    });
    expect(again.audience.notified).toEqual([]);
    const sqls = stats.perStatement!.map((st) => st.sql);
    expect(sqls.some((q) => q.includes("saved_search_spots"))).toBe(true);
    expect(sqls.filter((q) => /update "saved_search_spots"|insert into "notifications"/.test(q))).toEqual([]);
    expect(await alertsOf(rider.id)).toHaveLength(1);
    expect(await alertsOf(resting.id)).toHaveLength(0);
  });

  it("a published commute alerts once for all its days; the daily Cron's new days alert too", async () => {
    const driver = await createUser(ctx());
    const rider = await createUser(ctx());
    await saveSearch(ctx(), rider.id, search());
    const c = await createCommute(ctx(), driver.id, {
      fromLocation: "Koramangala",
      toLocation: "Manyata Tech Park",
      weekdays: ALL_DAYS,
      time: "09:00",
      seats: 3,
      tripCost: 30000,
      notes: null,
      communityId: null,
      startDate: tomorrow(),
      endDate: null,
    });
    expect(c.occurrences).toBeGreaterThan(5);
    expect(c.audience.notified).toEqual([rider.id]);
    const alerts = await alertsOf(rider.id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].data).toMatchObject({ commute_id: c.id, date: tomorrow() });

    // The Cron: a pattern whose days do not exist yet gets them, and a fresh search hears of it.
    const other = await createUser(ctx());
    await saveSearch(ctx(), other.id, search({ from: "HSR Layout", time: "08:30" }));
    await createCommutePattern(ctx(), {
      driverId: driver.id,
      fromLocation: "HSR Layout",
      toLocation: "Manyata Tech Park",
      weekdays: ALL_DAYS,
      time: "08:30",
      startDate: tomorrow(),
    });
    const ec = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ cron: COMMUTE_TOP_UP_CRON, scheduledTime: Date.now() }),
      env,
      ec,
    );
    await waitOnExecutionContext(ec);
    expect(await alertsOf(other.id)).toHaveLength(1);
    expect(await alertsOf(rider.id)).toHaveLength(1);
  });

  it("an alert queues one e-mail (and one push) that reads well", async () => {
    const driver = await createUser(ctx(), { fullName: "Deepa Driver" });
    const rider = await createUser(ctx(), { fullName: "Sana Rider", emailVerifiedAt: Date.now() });
    await saveSearch(ctx(), rider.id, search());
    const ride = await publish(driver.id);
    const rows = await env.DB.prepare("SELECT * FROM outbox WHERE user_id = ? ORDER BY channel")
      .bind(rider.id)
      .all<Record<string, string | number>>();
    expect(rows.results.map((r) => r.channel)).toEqual(["email", "push"]);
    const row = rows.results[0];
    const outboxRow = {
      id: row.id,
      channel: row.channel,
      userId: row.user_id,
      kind: row.kind,
      payload: JSON.parse(String(row.payload)),
      attempts: row.attempts,
      createdAt: row.created_at,
    } as unknown as Parameters<typeof loadDelivery>[1];
    const delivery = await loadDelivery(ctx(), outboxRow);
    const mail = renderMail({
      row: outboxRow,
      delivery,
      origin: "https://loopride.example",
      links: { unsubscribe: "https://loopride.example/unsubscribe?t=x" },
    });
    expect(mail!.subject).toBe(`${ALERT_TITLE}: Koramangala → Manyata Tech Park`);
    expect(mail!.text).toContain("matches your saved search Koramangala → Manyata Tech Park around 9:00 AM");
    expect(mail!.text).toContain(`https://loopride.example/rides/${ride.id}`);
    expect(mail!.text).toContain("https://loopride.example/rides#saved-searches");
  });

  it("the lookup uses the spot index (EXPLAIN: no SCAN of saved_search_spots, one seek a route cell and reach)", async () => {
    const route = [placeByName("Koramangala")!, placeByName("Manyata Tech Park")!];
    const spots = routeSpots(route);
    const query = spotSearchesSql([{ route, minute: 540, weekdays: 127, spots }], istDate())!;
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query}`).all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail);
    expect(details.join("\n")).not.toMatch(/SCAN (saved_searches|saved_search_spots|ss)\b/);
    expect(details.join("\n")).toMatch(
      /SEARCH ss USING COVERING INDEX saved_search_spots_lookup_idx \(klass=\? AND cell=\? AND reach=\? AND minute>\? AND minute<\?\)/,
    );
  });
});
