import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import worker from "../../server";
import { addMember, createCommunity, createCommutePattern, createUser } from "../../db/factories";
import { dayOfWeek, patternDates, weekdayMask } from "~/domain/commutes";
import { addDays, formatWeekdayDate, istDate } from "~/domain/time";
import {
  acceptAllFromRider,
  bookCommute,
  COMMUTE_TOP_UP_CRON,
  createCommute,
  endCommute,
  topUpCommutes,
} from "~/models/commutes.server";
import { decideRequest } from "~/models/ride-requests.server";
import { ConflictError, ForbiddenError } from "~/models/errors.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";

const DAY = 86_400_000;
const ctx = () => ({ db: db() });
const tomorrow = () => addDays(istDate(), 1);

const validCommute = (over: Record<string, string | string[]> = {}) => ({
  fromLocation: "HSR Layout",
  toLocation: "Manyata Tech Park",
  weekdays: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
  time: "08:30",
  startDate: tomorrow(),
  endDate: "",
  seats: "3",
  tripCost: "300",
  notes: "",
  communityId: "",
  ...over,
});

async function occurrences(commuteId: string) {
  const r = await env.DB.prepare(
    "SELECT id, date, time, seats, booked_seats, status FROM rides WHERE commute_id = ? ORDER BY date",
  )
    .bind(commuteId)
    .all<{
      id: string;
      date: string;
      time: string;
      seats: number;
      booked_seats: number;
      status: string;
    }>();
  return r.results;
}

/** A published commute (through the model, as the form does) and its occurrences. */
async function publish(driverId: string, over: Partial<Parameters<typeof createCommute>[2]> = {}, now = Date.now()) {
  const c = await createCommute(
    ctx(),
    driverId,
    {
      fromLocation: "HSR Layout",
      toLocation: "Manyata Tech Park",
      weekdays: 127,
      time: "08:30",
      startDate: addDays(istDate(now), 1),
      endDate: null,
      seats: 3,
      tripCost: 30000,
      notes: null,
      communityId: null,
      ...over,
    },
    now,
  );
  return { id: c.id, rides: await occurrences(c.id) };
}

async function requestOn(rideId: string, riderId: string, status = "pending", seats = 1) {
  const id = `${rideId}-${riderId}`.slice(0, 60);
  await env.DB.prepare(
    "INSERT INTO ride_requests (id, ride_id, rider_id, seats, status, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  )
    .bind(id, rideId, riderId, seats, status, Date.now())
    .run();
  if (status === "accepted") {
    await env.DB.prepare("UPDATE rides SET booked_seats = booked_seats + ? WHERE id = ?").bind(seats, rideId).run();
  }
  return id;
}

const titlesFor = async (userId: string) => (await notificationsFor(userId, ["title"])).map((n) => n.title);

describe("publishing a commute", () => {
  it("creates the pattern and exactly its occurrences for the next 14 days, then shows the commute page", async () => {
    const driver = await signedInUser();
    const res = await postForm("/commutes/new", validCommute({ weekdays: ["mon", "wed", "fri"] }), {
      cookie: driver.cookie,
    });
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    expect(location).toMatch(/^\/commutes\/[a-z0-9]+$/);
    expect(toastOf(res)?.title).toBe("Commute published!");
    const id = location.split("/").pop()!;
    const row = await env.DB.prepare("SELECT * FROM commutes WHERE id = ?").bind(id).first<Record<string, unknown>>();
    expect(row).toMatchObject({
      driver_id: driver.id,
      weekdays: weekdayMask(["mon", "wed", "fri"]),
      time: "08:30",
      seats: 3,
      trip_cost_paise: 30000,
      start_date: tomorrow(),
      end_date: null,
      status: "active",
    });
    const rides = await occurrences(id);
    const expected = patternDates(
      { weekdays: row!.weekdays as number, startDate: tomorrow(), endDate: null },
      istDate(),
    );
    expect(rides.map((r) => r.date)).toEqual(expected);
    expect(rides.every((r) => [1, 3, 5].includes(dayOfWeek(r.date)))).toBe(true);
    expect(rides.length).toBeGreaterThanOrEqual(5);
    const departs = await env.DB.prepare("SELECT departs_at FROM rides WHERE commute_id = ? AND date = ?")
      .bind(id, rides[0].date)
      .first<{ departs_at: number }>();
    expect(new Date(departs!.departs_at).toISOString()).toBe(`${rides[0].date}T03:00:00.000Z`);
    // Every occurrence carries the pattern's places, points and grid cells (the distance search's key).
    const placed = await env.DB.prepare(
      "SELECT DISTINCT from_place_id, to_place_id, from_cell, to_cell FROM rides WHERE commute_id = ?",
    )
      .bind(id)
      .all<Record<string, unknown>>();
    expect(placed.results).toHaveLength(1);
    expect(placed.results[0]).toMatchObject({
      from_place_id: row!.from_place_id,
      to_place_id: row!.to_place_id,
      from_cell: row!.from_cell,
      to_cell: row!.to_cell,
    });
    expect(row!.from_cell).not.toBeNull();
    expect(row!.to_place_id).not.toBeNull();
    const page = await (await get(location, { cookie: driver.cookie })).text();
    expect(page).toMatch(/Mon, Wed, Fri(<!-- -->)? at (<!-- -->)?8:30 AM/);
    // My Rides shows it as one card with its next days, not as single rides.
    const mine = await (await get("/dashboard/rides", { cookie: driver.cookie })).text();
    expect(mine.match(/data-testid="commute-card"/g)).toHaveLength(1);
    expect(mine).not.toContain('data-testid="created-ride"');
  });

  it.each([
    ["no weekdays", { weekdays: [] }, "Please choose at least one weekday"],
    ["an end before the start", { endDate: addDays(istDate(), 0) }, "The end date cannot be before the start date"],
    ["an unknown place", { fromLocation: "Atlantis" }, "Try a Bengaluru locality or landmark, like Koramangala."],
    ["a start in the past", { startDate: addDays(istDate(), -1) }, "The start date cannot be in the past"],
    ["too many seats", { seats: "7" }, "Number of seats must be between 1 and 6"],
  ])("refuses %s with a clear message and changes nothing", async (_name, over, message) => {
    const driver = await signedInUser();
    const before = await dbChecksum();
    const res = await postForm("/commutes/new", validCommute(over as Record<string, string | string[]>), {
      cookie: driver.cookie,
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(message);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
  });
});

describe("the daily top-up (Cron Trigger)", () => {
  it("creates exactly the missing occurrences; a second run, concurrent runs and skipped days create nothing twice", async () => {
    const driver = await createUser(ctx());
    const now = Date.now();
    const weekdays = weekdayMask(["mon", "tue", "wed", "thu", "fri"]);
    const c = await createCommutePattern(ctx(), {
      driverId: driver.id,
      weekdays,
      startDate: addDays(istDate(now), 1),
      time: "08:30",
    });
    const ended = await createCommutePattern(ctx(), {
      driverId: driver.id,
      weekdays: 127,
      status: "ended",
      startDate: addDays(istDate(now), 1),
    });
    const first = await topUpCommutes(ctx(), now);
    const expected = patternDates({ weekdays, startDate: addDays(istDate(now), 1), endDate: null }, istDate(now));
    expect(first.map((r) => r.commuteId).every((id) => id === c.id)).toBe(true);
    expect((await occurrences(c.id)).map((r) => r.date)).toEqual(expected);
    expect(await occurrences(ended.id)).toEqual([]);
    // Twice: nothing new.
    const before = await dbChecksum();
    expect(await topUpCommutes(ctx(), now)).toEqual([]);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    // A skipped day stays skipped.
    const skipped = (await occurrences(c.id))[0];
    await env.DB.prepare("UPDATE rides SET status = 'cancelled' WHERE id = ?").bind(skipped.id).run();
    // Three days later, five runs at once: exactly the new days of the moved horizon, once each.
    const later = now + 3 * DAY;
    const runs = await Promise.all(Array.from({ length: 5 }, () => topUpCommutes(ctx(), later)));
    const created = runs.flat();
    const laterExpected = patternDates(
      { weekdays, startDate: addDays(istDate(now), 1), endDate: null },
      istDate(later),
    );
    const newDays = laterExpected.filter((d) => !expected.includes(d));
    expect(created.length).toBe(newDays.length);
    const all = await occurrences(c.id);
    expect(new Set(all.map((r) => r.date)).size).toBe(all.length);
    expect(all.map((r) => r.date)).toEqual([...new Set([...expected, ...laterExpected])].sort());
    expect(all.find((r) => r.id === skipped.id)?.status).toBe("cancelled");
  });

  it("runs from the worker's scheduled handler on the daily cron, and respects the end date", async () => {
    const driver = await createUser(ctx());
    const endDate = addDays(istDate(), 4);
    const c = await createCommutePattern(ctx(), { driverId: driver.id, weekdays: 127, startDate: tomorrow(), endDate });
    const run = async () => {
      const ec = createExecutionContext();
      await worker.scheduled(
        createScheduledController({ cron: COMMUTE_TOP_UP_CRON, scheduledTime: Date.now() }),
        env,
        ec,
      );
      await waitOnExecutionContext(ec);
    };
    await run();
    expect((await occurrences(c.id)).map((r) => r.date)).toEqual([1, 2, 3, 4].map((n) => addDays(istDate(), n)));
    await run();
    expect(await occurrences(c.id)).toHaveLength(4);
  });
});

describe("a rider books every day of a commute", () => {
  it("one pending request per upcoming occurrence on the chosen weekdays; the driver is told once; a repeat changes nothing", async () => {
    const driver = await signedInUser({ fullName: "Deepa Driver" });
    const rider = await signedInUser({ fullName: "Ravi Rider" });
    const { id, rides } = await publish(driver.id);
    const res = await postForm(
      `/commutes/${id}`,
      { intent: "book-all", weekdays: ["mon", "tue", "wed"], seats: "1" },
      { cookie: rider.cookie },
    );
    expect(res.status).toBe(302);
    expect(toastOf(res)?.title).toBe("Requests sent");
    const mine = await env.DB.prepare(
      "SELECT r.date, q.status FROM ride_requests q JOIN rides r ON r.id = q.ride_id WHERE q.rider_id = ? ORDER BY r.date",
    )
      .bind(rider.id)
      .all<{ date: string; status: string }>();
    const monToWed = rides.filter((r) => [1, 2, 3].includes(dayOfWeek(r.date))).map((r) => r.date);
    expect(mine.results.map((r) => r.date)).toEqual(monToWed);
    expect(mine.results.every((r) => r.status === "pending")).toBe(true);
    expect(await notificationsFor(driver.id, ["title", "message"])).toEqual([
      {
        title: "New ride requests",
        message: `Ravi Rider requested ${monToWed.length} day(s) of your commute HSR Layout → Manyata Tech Park.`,
      },
    ]);
    const before = await dbChecksum();
    const again = await postForm(
      `/commutes/${id}`,
      { intent: "book-all", weekdays: ["mon", "tue", "wed"], seats: "1" },
      { cookie: rider.cookie },
    );
    expect(toastOf(again)?.type).toBe("error");
    const none = await postForm(`/commutes/${id}`, { intent: "book-all", seats: "1" }, { cookie: rider.cookie });
    expect(toastOf(none)?.description).toBe("Please choose at least one weekday");
    expect(changedTables(before, await dbChecksum())).toEqual([]);
  });
});

describe("accept all of a regular rider's requests", () => {
  it("accepts them at once and the rider is told once", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const { id, rides } = await publish(driver.id);
    await bookCommute(ctx(), rider.id, id, { weekdays: 127, seats: 2, notes: null });
    const res = await postForm(
      `/commutes/${id}`,
      { intent: "accept-all", riderId: rider.id },
      { cookie: driver.cookie },
    );
    expect(toastOf(res)?.title).toBe(`Accepted ${rides.length} requests`);
    expect((await occurrences(id)).every((r) => r.booked_seats === 2)).toBe(true);
    expect(await titlesFor(rider.id)).toEqual(["Requests accepted"]);
  });

  it("capacity holds when accept-all races single accepts across occurrences", async () => {
    const driver = await createUser(ctx());
    const riders = await Promise.all([createUser(ctx()), createUser(ctx()), createUser(ctx())]);
    const { id } = await publish(driver.id, { seats: 2, weekdays: weekdayMask(["mon", "tue", "wed", "thu", "fri"]) });
    for (const r of riders) await bookCommute(ctx(), r.id, id, { weekdays: 127, seats: 1, notes: null });
    const singles = await env.DB.prepare(
      "SELECT q.id FROM ride_requests q JOIN rides r ON r.id = q.ride_id WHERE r.commute_id = ? AND q.rider_id = ?",
    )
      .bind(id, riders[2].id)
      .all<{ id: string }>();
    const settled = await Promise.allSettled([
      acceptAllFromRider(ctx(), driver.id, id, riders[0].id),
      acceptAllFromRider(ctx(), driver.id, id, riders[1].id),
      ...singles.results.map((s) => decideRequest(ctx(), driver.id, s.id, "accepted")),
      acceptAllFromRider(ctx(), driver.id, id, riders[2].id),
    ]);
    for (const s of settled) if (s.status === "rejected") expect(s.reason).toBeInstanceOf(ConflictError);
    const check = await env.DB.prepare(
      `SELECT r.id, r.seats, r.booked_seats, (SELECT coalesce(sum(seats), 0) FROM ride_requests q WHERE q.ride_id = r.id AND q.status = 'accepted') AS accepted
       FROM rides r WHERE r.commute_id = ?`,
    )
      .bind(id)
      .all<{ seats: number; booked_seats: number; accepted: number }>();
    expect(check.results.length).toBeGreaterThan(0);
    for (const r of check.results) {
      expect(r.accepted).toBe(r.booked_seats);
      expect(r.accepted).toBe(2);
    }
  });
});

describe("the driver skips, changes and ends: exactly the riders with requests on affected days are told", () => {
  async function world() {
    const driver = await signedInUser();
    const [a, b, c, d] = await Promise.all([signedInUser(), signedInUser(), signedInUser(), signedInUser()]);
    const { id, rides } = await publish(driver.id);
    await requestOn(rides[0].id, a.id, "accepted");
    await requestOn(rides[1].id, b.id, "pending");
    await requestOn(rides[0].id, c.id, "cancelled");
    await requestOn(rides[5].id, d.id, "pending");
    return { driver, a, b, c, d, id, rides };
  }

  it("skip one day", async () => {
    const w = await world();
    const res = await postForm(
      `/commutes/${w.id}`,
      { intent: "skip", rideId: w.rides[0].id },
      { cookie: w.driver.cookie },
    );
    expect(toastOf(res)?.title).toBe("Day skipped");
    expect((await occurrences(w.id))[0].status).toBe("cancelled");
    expect([
      await titlesFor(w.a.id),
      await titlesFor(w.b.id),
      await titlesFor(w.c.id),
      await titlesFor(w.d.id),
    ]).toEqual([["Ride cancelled"], [], [], []]);
    // The top-up never brings a skipped day back.
    await topUpCommutes(ctx());
    expect((await occurrences(w.id))[0].status).toBe("cancelled");
  });

  it("change one day", async () => {
    const w = await world();
    const res = await postForm(
      `/commutes/${w.id}`,
      { intent: "change-occurrence", rideId: w.rides[1].id, time: "09:15", seats: "4" },
      { cookie: w.driver.cookie },
    );
    expect(toastOf(res)?.title).toBe("Day changed");
    const day = (await occurrences(w.id))[1];
    expect(day).toMatchObject({ time: "09:15", seats: 4 });
    expect([await titlesFor(w.a.id), await titlesFor(w.b.id), await titlesFor(w.d.id)]).toEqual([
      [],
      ["Ride changed"],
      [],
    ]);
  });

  it("every notice names the day (issue 35, item 7): a skipped day, a changed day, a changed pattern", async () => {
    const w = await world();
    const messages = async (userId: string) =>
      (
        await env.DB.prepare("SELECT message FROM notifications WHERE user_id = ? ORDER BY created_at")
          .bind(userId)
          .all<{ message: string }>()
      ).results.map((r) => r.message);
    await postForm(`/commutes/${w.id}`, { intent: "skip", rideId: w.rides[0].id }, { cookie: w.driver.cookie });
    expect((await messages(w.a.id)).at(-1)).toContain(
      ` on ${formatWeekdayDate(w.rides[0].date)} at 8:30 AM was cancelled by the driver`,
    );
    await postForm(
      `/commutes/${w.id}`,
      { intent: "change-occurrence", rideId: w.rides[1].id, time: "09:15", seats: "4" },
      { cookie: w.driver.cookie },
    );
    expect((await messages(w.b.id)).at(-1)).toBe(
      `${formatWeekdayDate(w.rides[1].date)}: the ride from HSR Layout to Manyata Tech Park now leaves at 9:15 AM, with 4 seats.`,
    );
    const from = w.rides[5].date;
    await postForm(
      `/commutes/${w.id}`,
      { intent: "change-pattern", fromDate: from, time: "08:10", seats: "3", tripCost: "300" },
      { cookie: w.driver.cookie },
    );
    expect((await messages(w.d.id)).at(-1)).toBe(
      `From ${formatWeekdayDate(from)} on, the commute HSR Layout → Manyata Tech Park leaves at 8:10 AM, with 3 seats, trip cost ₹300.00.`,
    );
  });

  it("a rider holding many days hears of each change once, in the app, by e-mail and by push (issue 35, item 7)", async () => {
    const w = await world();
    // Rider d also holds days 6 to 9 (with day 5: five days of this commute).
    for (const i of [6, 7, 8, 9]) await requestOn(w.rides[i].id, w.d.id, "accepted");
    const noticesOf = async (userId: string) =>
      (
        await env.DB.prepare(
          `SELECT n.title, n.data, (SELECT group_concat(o.channel, ',') FROM (SELECT channel FROM outbox o
             WHERE json_extract(o.payload, '$.notification_id') = n.id ORDER BY channel) o) AS channels
           FROM notifications n WHERE n.user_id = ? ORDER BY n.created_at`,
        )
          .bind(userId)
          .all<{ title: string; data: string; channels: string | null }>()
      ).results.map((r) => ({ title: r.title, link: JSON.parse(r.data).ride_id, channels: r.channels }));
    await postForm(
      `/commutes/${w.id}`,
      { intent: "change-pattern", fromDate: w.rides[1].date, time: "08:10", seats: "3", tripCost: "300" },
      { cookie: w.driver.cookie },
    );
    await postForm(
      `/commutes/${w.id}`,
      { intent: "change-occurrence", rideId: w.rides[7].id, time: "09:15", seats: "4" },
      { cookie: w.driver.cookie },
    );
    await postForm(`/commutes/${w.id}`, { intent: "end", lastDate: w.rides[2].date }, { cookie: w.driver.cookie });
    // One notice per change, linked to the first day it concerns, each mailed and pushed.
    expect(await noticesOf(w.d.id)).toEqual([
      { title: "Commute changed", link: w.rides[5].id, channels: "email,push" },
      { title: "Ride changed", link: w.rides[7].id, channels: "email,push" },
      { title: "Commute ended", link: w.rides[5].id, channels: "email,push" },
    ]);
  });

  it("change the pattern from a date on (fewer seats than booked is refused and changes nothing)", async () => {
    const w = await world();
    const from = w.rides[1].date;
    const res = await postForm(
      `/commutes/${w.id}`,
      { intent: "change-pattern", fromDate: from, time: "07:45", seats: "2", tripCost: "250" },
      { cookie: w.driver.cookie },
    );
    expect(toastOf(res)?.title).toBe("Commute changed");
    const after = await occurrences(w.id);
    expect(after[0]).toMatchObject({ time: "08:30", seats: 3 });
    expect(after.slice(1).every((r) => r.time === "07:45" && r.seats === 2)).toBe(true);
    expect([
      await titlesFor(w.a.id),
      await titlesFor(w.b.id),
      await titlesFor(w.c.id),
      await titlesFor(w.d.id),
    ]).toEqual([[], ["Commute changed"], [], ["Commute changed"]]);
    // Day 0 has one booked seat... give it two, then ask for one seat from day 0 on.
    await requestOn(w.rides[0].id, w.b.id, "accepted");
    const before = await dbChecksum();
    const refused = await postForm(
      `/commutes/${w.id}`,
      { intent: "change-pattern", fromDate: w.rides[0].date, time: "07:45", seats: "1", tripCost: "250" },
      { cookie: w.driver.cookie },
    );
    expect(toastOf(refused)?.description).toMatch(/already booked/);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
  });

  it("end the commute after a day", async () => {
    const w = await world();
    const res = await postForm(
      `/commutes/${w.id}`,
      { intent: "end", lastDate: w.rides[2].date },
      { cookie: w.driver.cookie },
    );
    expect(toastOf(res)?.title).toBe("Commute ended");
    const after = await occurrences(w.id);
    expect(after.slice(0, 3).every((r) => r.status === "active")).toBe(true);
    expect(after.slice(3).every((r) => r.status === "cancelled")).toBe(true);
    expect([await titlesFor(w.a.id), await titlesFor(w.b.id), await titlesFor(w.d.id)]).toEqual([
      [],
      [],
      ["Commute ended"],
    ]);
    const status = await env.DB.prepare("SELECT q.status FROM ride_requests q WHERE q.rider_id = ?")
      .bind(w.d.id)
      .first<{ status: string }>();
    expect(status?.status).toBe("cancelled");
    // Ending now: nothing left, and no top-up brings days back.
    await endCommute(ctx(), w.driver.id, w.id, { lastDate: addDays(istDate(), -1) });
    await topUpCommutes(ctx());
    expect((await occurrences(w.id)).every((r) => r.status === "cancelled")).toBe(true);
    expect(
      (await env.DB.prepare("SELECT status FROM commutes WHERE id = ?").bind(w.id).first<{ status: string }>())?.status,
    ).toBe("ended");
  });
});

describe("authorization", () => {
  it("only the driver edits; every denied call is 403 and changes nothing", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const { id, rides } = await publish(driver.id);
    await bookCommute(ctx(), rider.id, id, { weekdays: 127, seats: 1, notes: null });
    const other = await publish(rider.id);
    const before = await dbChecksum();
    const denied: Record<string, string>[] = [
      { intent: "accept-all", riderId: rider.id },
      { intent: "skip", rideId: rides[0].id },
      { intent: "change-occurrence", rideId: rides[0].id, time: "09:00", seats: "2" },
      { intent: "change-pattern", fromDate: rides[0].date, time: "09:00", seats: "2", tripCost: "100" },
      { intent: "end", lastDate: istDate() },
    ];
    for (const fields of denied) {
      const res = await postForm(`/commutes/${id}`, fields, { cookie: rider.cookie });
      expect(res.status, fields.intent).toBe(403);
    }
    // The driver cannot book their own commute; an unknown intent is a 400.
    expect(
      (
        await postForm(
          `/commutes/${id}`,
          { intent: "book-all", weekdays: "mon", seats: "1" },
          { cookie: driver.cookie },
        )
      ).status,
    ).toBe(403);
    expect((await postForm(`/commutes/${id}`, { intent: "explode" }, { cookie: driver.cookie })).status).toBe(400);
    // Another driver's occurrence through this commute's URL is not found.
    expect(
      (await postForm(`/commutes/${id}`, { intent: "skip", rideId: other.rides[0].id }, { cookie: driver.cookie }))
        .status,
    ).toBe(404);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
  });

  it("a community commute is not found for outsiders (page and booking), and the model refuses too", async () => {
    const driver = await signedInUser();
    const outsider = await signedInUser();
    const community = await createCommunity(ctx(), { createdBy: driver.id, name: "Agara Commuters" });
    const { id } = await publish(driver.id, { communityId: community.id });
    expect((await get(`/commutes/${id}`, { cookie: outsider.cookie })).status).toBe(404);
    const before = await dbChecksum();
    expect(
      (
        await postForm(
          `/commutes/${id}`,
          { intent: "book-all", weekdays: "mon", seats: "1" },
          { cookie: outsider.cookie },
        )
      ).status,
    ).toBe(404);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    const member = await signedInUser();
    await addMember(ctx(), { communityId: community.id, userId: member.id });
    expect((await get(`/commutes/${id}`, { cookie: member.cookie })).status).toBe(200);
    await expect(acceptAllFromRider(ctx(), member.id, id, outsider.id)).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe("the commute page's booking form (issue 35, item 8)", () => {
  it("offers a rider 1 to the commute's seats, no more", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const c = await publish(driver.id, { seats: 3 });
    const html = await (await get(`/commutes/${c.id}`, { cookie: rider.cookie })).text();
    const select = html.slice(
      html.indexOf('id="book-seats"'),
      html.indexOf("</select>", html.indexOf('id="book-seats"')),
    );
    expect([...select.matchAll(/<option value="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([1, 2, 3]);
  });
});
