import { env } from "../support/env";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createCommuteBooking, createUser } from "../../db/factories";
import { dayOfWeek } from "~/domain/commutes";
import { addDays, formatWeekdayDate, istDate } from "~/domain/time";
import { bookCommute, COMMUTE_TOP_UP_CRON, createCommute, listDays, topUpCommutes } from "~/models/commutes.server";
import { weekdayDateSql } from "~/models/notifications.server";
import { decideRequest } from "~/models/ride-requests.server";
import { ConflictError } from "~/models/errors.server";
import { deleteMyAccount } from "~/models/own-data.server";
import { toastOf } from "../support/rides";
import { postTestClock, PRODUCTION_ENV, runScheduled } from "../support/test-clock";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";

// Issue 35, item 2: a standing booking keeps a rider booked as the daily top-up adds days;
// item 7: a rider cancelling many days tells the driver once, naming them.

const DAY = 86_400_000;
const ctx = () => ({ db: db() });
const ROUTE = "HSR Layout → Manyata Tech Park";

async function publish(driverId: string, seats = 3, now = Date.now()) {
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
      seats,
      tripCost: 30000,
      notes: null,
      communityId: null,
    },
    now,
  );
  return c.id;
}

type Day = { id: string; date: string; seats: number; booked_seats: number; created_at: number };
async function days(commuteId: string) {
  const r = await env.DB.prepare(
    "SELECT id, date, seats, booked_seats, created_at FROM rides WHERE commute_id = ? ORDER BY date",
  )
    .bind(commuteId)
    .all<Day>();
  return r.results;
}

/** The rider's requests on the commute, by date: status per day. */
async function requestsOf(riderId: string, commuteId: string) {
  const r = await env.DB.prepare(
    `SELECT o.date, q.status FROM ride_requests q JOIN rides o ON o.id = q.ride_id
     WHERE q.rider_id = ? AND o.commute_id = ? ORDER BY o.date, q.created_at`,
  )
    .bind(riderId, commuteId)
    .all<{ date: string; status: string }>();
  return r.results;
}

const live = async (riderId: string, commuteId: string) =>
  (await requestsOf(riderId, commuteId)).filter((r) => r.status === "pending" || r.status === "accepted");

async function booking(commuteId: string, riderId: string) {
  return env.DB.prepare(
    "SELECT status, accepted_at, paused_from, paused_until FROM commute_bookings WHERE commute_id = ? AND rider_id = ? ORDER BY created_at DESC",
  )
    .bind(commuteId, riderId)
    .first<{ status: string; accepted_at: number | null; paused_from: string | null; paused_until: string | null }>();
}

/** Every day of the commute: booked_seats is the accepted seats, and within the seats. */
async function expectSeatsHold(commuteId: string) {
  const r = await env.DB.prepare(
    `SELECT r.seats, r.booked_seats, (SELECT coalesce(sum(seats), 0) FROM ride_requests q
       WHERE q.ride_id = r.id AND q.status = 'accepted') AS accepted,
       (SELECT count(*) FROM ride_requests q WHERE q.ride_id = r.id AND q.status IN ('pending', 'accepted')
       GROUP BY q.rider_id ORDER BY count(*) DESC LIMIT 1) AS most
     FROM rides r WHERE r.commute_id = ?`,
  )
    .bind(commuteId)
    .all<{ seats: number; booked_seats: number; accepted: number; most: number | null }>();
  expect(r.results.length).toBeGreaterThan(0);
  for (const d of r.results) {
    expect(d.booked_seats).toBe(d.accepted);
    expect(d.accepted).toBeLessThanOrEqual(d.seats);
    expect(d.most ?? 0).toBeLessThanOrEqual(1);
  }
}

describe("a standing booking outlives the 14 days", () => {
  it("book every day, the driver accepts all, and the top-up books the rider at once on the new days", async () => {
    const driver = await signedInUser({ fullName: "Deepa Driver" });
    const rider = await signedInUser({ fullName: "Priya Rider" });
    const id = await publish(driver.id);
    const first = await days(id);
    const booked = await postForm(
      `/commutes/${id}`,
      { intent: "book-all", weekdays: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], seats: "1" },
      { cookie: rider.cookie },
    );
    expect(toastOf(booked)?.title).toBe("Requests sent");
    expect(await booking(id, rider.id)).toMatchObject({ status: "active", accepted_at: null });
    const accepted = await postForm(
      `/commutes/${id}`,
      { intent: "accept-all", riderId: rider.id },
      { cookie: driver.cookie },
    );
    expect(toastOf(accepted)?.title).toBe(`Accepted ${first.length} requests`);
    expect((await booking(id, rider.id))?.accepted_at).not.toBeNull();

    // A week later the top-up adds seven days: the rider holds a seat on each, at once.
    const later = Date.now() + 7 * DAY;
    const created = await topUpCommutes(ctx(), later);
    expect(created).toHaveLength(7);
    const mine = await live(rider.id, id);
    expect(mine.map((r) => r.date)).toEqual((await days(id)).map((d) => d.date));
    expect(mine.every((r) => r.status === "accepted")).toBe(true);
    expect((await days(id)).every((d) => d.booked_seats === 1)).toBe(true);
    // A second run, and the run a day later from the worker's own scheduled handler, add no request twice.
    await topUpCommutes(ctx(), later);
    expect(await live(rider.id, id)).toHaveLength(first.length + 7);
    await expectSeatsHold(id);
  });

  it("runs from the worker's scheduled handler on the daily cron", async () => {
    const driver = await createUser(ctx());
    const rider = await createUser(ctx());
    const id = await publish(driver.id, 3, Date.now() - 3 * DAY);
    await createCommuteBooking(ctx(), { commuteId: id, riderId: rider.id, weekdays: 127, accepted: true });
    const before = (await days(id)).length;
    await runScheduled(COMMUTE_TOP_UP_CRON);
    const added = (await days(id)).slice(before);
    expect(added.length).toBeGreaterThan(0);
    const mine = await live(rider.id, id);
    expect(mine.map((r) => r.date)).toEqual(added.map((d) => d.date));
    expect(mine.every((r) => r.status === "accepted")).toBe(true);
  });

  it("a booking the driver has not accepted asks (pending); booking new weekdays asks the driver again", async () => {
    const driver = await createUser(ctx());
    const rider = await createUser(ctx());
    const id = await publish(driver.id);
    await bookCommute(ctx(), rider.id, id, { weekdays: 0b0111110, seats: 1, notes: null });
    const before = (await days(id)).length;
    await topUpCommutes(ctx(), Date.now() + 7 * DAY);
    const weekdays = (await days(id)).filter((d) => dayOfWeek(d.date) >= 1 && dayOfWeek(d.date) <= 5);
    const mine = await live(rider.id, id);
    expect(mine.map((r) => r.date)).toEqual(weekdays.map((d) => d.date));
    expect(mine.every((r) => r.status === "pending")).toBe(true);
    expect((await days(id)).length).toBe(before + 7);
    // Weekends too: the booking is one row, changed; the driver's answer is asked again.
    await env.DB.prepare("UPDATE commute_bookings SET accepted_at = 1 WHERE commute_id = ?").bind(id).run();
    await bookCommute(ctx(), rider.id, id, { weekdays: 127, seats: 1, notes: null });
    const rows = await env.DB.prepare("SELECT weekdays, accepted_at FROM commute_bookings WHERE commute_id = ?")
      .bind(id)
      .all<{ weekdays: number; accepted_at: number | null }>();
    expect(rows.results).toEqual([{ weekdays: 127, accepted_at: null }]);
  });

  it("a new day without a free seat is refused, oldest booking first, and the rider is told once per run naming the days", async () => {
    const driver = await createUser(ctx());
    const [a, b, c] = [await createUser(ctx()), await createUser(ctx()), await createUser(ctx())];
    const now = Date.now();
    const id = await publish(driver.id, 2, now);
    for (const [i, r] of [a, b, c].entries()) {
      await createCommuteBooking(ctx(), { commuteId: id, riderId: r.id, weekdays: 127, accepted: true });
      // Created one after another: the oldest booking is served first.
      await env.DB.prepare("UPDATE commute_bookings SET created_at = ? WHERE rider_id = ?")
        .bind(now + i, r.id)
        .run();
    }
    const before = (await days(id)).length;
    await topUpCommutes(ctx(), now + 3 * DAY);
    const added = (await days(id)).slice(before);
    expect(added).toHaveLength(3);
    expect((await live(a.id, id)).map((r) => r.status)).toEqual(["accepted", "accepted", "accepted"]);
    expect((await live(b.id, id)).map((r) => r.status)).toEqual(["accepted", "accepted", "accepted"]);
    expect(await live(c.id, id)).toEqual([]);
    expect(await notificationsFor(c.id, ["title", "message"])).toEqual([
      {
        title: "Not booked on new days",
        message: `Your standing booking of ${ROUTE} could not be extended to ${added.map((d) => formatWeekdayDate(d.date)).join("; ")}: the ride is full or not open to you then. Book those days yourself if seats free up.`,
      },
    ]);
    expect(await notificationsFor(a.id, ["title"])).toEqual([]);
    await expectSeatsHold(id);
  });

  it("never overbooks: two top-ups at once, and a top-up racing single accepts on its days", async () => {
    const driver = await createUser(ctx());
    const riders = await Promise.all([1, 2, 3].map(() => createUser(ctx())));
    const now = Date.now();
    const id = await publish(driver.id, 2, now);
    for (const r of riders)
      await createCommuteBooking(ctx(), { commuteId: id, riderId: r.id, weekdays: 127, accepted: true });
    const later = now + 2 * DAY;
    const runs = await Promise.all([
      topUpCommutes(ctx(), later),
      topUpCommutes(ctx(), later),
      topUpCommutes(ctx(), later + 1),
    ]);
    expect(runs.flat()).toHaveLength(2);
    await expectSeatsHold(id);
    const added = (await days(id)).slice(-2);
    for (const d of added) expect(d.booked_seats).toBe(2);

    // The top-up against single accepts: a rider asked for 2 seats on each existing day; the
    // days are handed to a top-up run as its own (created_at = its clock), and both go at once.
    const single = await createUser(ctx());
    const open = (await days(id)).slice(0, 5);
    for (const d of open) {
      await env.DB.prepare(
        "INSERT INTO ride_requests (id, ride_id, rider_id, seats, status, created_at) VALUES (?, ?, ?, 2, 'pending', ?)",
      )
        .bind(`${d.id}-s`, d.id, single.id, now)
        .run();
    }
    const clock = Date.now();
    await env.DB.prepare(`UPDATE rides SET created_at = ? WHERE id IN (${open.map(() => "?").join(", ")})`)
      .bind(clock, ...open.map((d) => d.id))
      .run();
    const settled = await Promise.allSettled([
      ...open.map((d) => decideRequest(ctx(), driver.id, `${d.id}-s`, "accepted")),
      topUpCommutes(ctx(), clock),
    ]);
    for (const s of settled) if (s.status === "rejected") expect(s.reason).toBeInstanceOf(ConflictError);
    await expectSeatsHold(id);
    for (const d of (await days(id)).slice(0, 5)) expect(d.booked_seats).toBe(2);
  });
});

describe("the rider's controls: skip a day, pause, resume, end", () => {
  async function world() {
    const driver = await signedInUser({ fullName: "Deepa Driver" });
    const rider = await signedInUser({ fullName: "Priya" });
    const id = await publish(driver.id);
    await bookCommute(ctx(), rider.id, id, { weekdays: 127, seats: 1, notes: null });
    const r = await postForm(`/commutes/${id}`, { intent: "accept-all", riderId: rider.id }, { cookie: driver.cookie });
    expect(r.status).toBe(302);
    const driverNotices = async () => notificationsFor(driver.id, ["title", "message"]);
    return { driver, rider, id, driverNotices, seen: (await driverNotices()).length };
  }

  it("skip one day: the single cancel, that day only", async () => {
    const w = await world();
    const [first, second] = await days(w.id);
    const req = await env.DB.prepare("SELECT id FROM ride_requests WHERE ride_id = ? AND rider_id = ?")
      .bind(first.id, w.rider.id)
      .first<{ id: string }>();
    const res = await postForm(
      `/commutes/${w.id}`,
      { intent: "skip-day", requestId: req!.id },
      { cookie: w.rider.cookie },
    );
    expect(toastOf(res)?.title).toBe("Day skipped");
    const mine = await requestsOf(w.rider.id, w.id);
    expect(mine.find((r) => r.date === first.date)?.status).toBe("cancelled");
    expect(mine.find((r) => r.date === second.date)?.status).toBe("accepted");
    expect((await booking(w.id, w.rider.id))?.status).toBe("active");
    await expectSeatsHold(w.id);
  });

  it("pause: the days in the window are cancelled (the driver told once), the top-up adds none there; resume books them again", async () => {
    const w = await world();
    const today = istDate();
    const [from, until] = [addDays(today, 3), addDays(today, 16)];
    const res = await postForm(`/commutes/${w.id}`, { intent: "pause", from, until }, { cookie: w.rider.cookie });
    expect(toastOf(res)?.title).toBe("Booking paused");
    const all = await days(w.id);
    const inWindow = all.filter((d) => d.date >= from && d.date <= until).map((d) => d.date);
    const mine = await live(w.rider.id, w.id);
    expect(mine.map((r) => r.date)).toEqual(all.map((d) => d.date).filter((d) => !inWindow.includes(d)));
    const notices = (await w.driverNotices()).slice(w.seen);
    expect(notices).toEqual([
      { title: "Days cancelled", message: `Priya cancelled ${listDays(inWindow)} of ${ROUTE}.` },
    ]);
    await expectSeatsHold(w.id);

    // Five days on: the new days inside the pause get nothing, the ones after it are booked.
    await topUpCommutes(ctx(), Date.now() + 5 * DAY);
    const after = (await days(w.id)).slice(all.length).map((d) => d.date);
    expect(after).toHaveLength(5);
    const now = (await live(w.rider.id, w.id)).map((r) => r.date);
    expect(after.filter((d) => now.includes(d))).toEqual(after.filter((d) => d > until));

    const resumed = await postForm(`/commutes/${w.id}`, { intent: "resume" }, { cookie: w.rider.cookie });
    expect(toastOf(resumed)?.title).toBe("Booking resumed");
    const back = await live(w.rider.id, w.id);
    expect(back.map((r) => r.date)).toEqual((await days(w.id)).map((d) => d.date));
    expect(back.every((r) => r.status === "accepted")).toBe(true);
    expect((await booking(w.id, w.rider.id))?.status).toBe("active");
    await expectSeatsHold(w.id);
  });

  it("a pause that ends before it starts is refused with a message and changes nothing", async () => {
    const w = await world();
    const today = istDate();
    const res = await postForm(
      `/commutes/${w.id}`,
      { intent: "pause", from: addDays(today, 5), until: addDays(today, 2) },
      { cookie: w.rider.cookie },
    );
    expect(toastOf(res)).toMatchObject({ type: "error", title: "Could not pause the booking" });
    expect((await booking(w.id, w.rider.id))?.status).toBe("active");
    const past = await postForm(
      `/commutes/${w.id}`,
      { intent: "pause", from: addDays(today, -1), until: today },
      { cookie: w.rider.cookie },
    );
    expect(toastOf(past)?.description).toBe("A pause cannot start in the past");
  });

  it("end: every upcoming day is cancelled and the driver is told ONCE, naming the days; no top-up books again", async () => {
    const w = await world();
    const dates = (await days(w.id)).map((d) => d.date);
    const res = await postForm(`/commutes/${w.id}`, { intent: "end-booking" }, { cookie: w.rider.cookie });
    expect(toastOf(res)).toMatchObject({
      title: "Standing booking ended",
      description: `${dates.length} days cancelled; the driver has been told.`,
    });
    expect(await live(w.rider.id, w.id)).toEqual([]);
    const notices = (await w.driverNotices()).slice(w.seen);
    expect(notices).toEqual([
      { title: "Standing booking ended", message: `Priya cancelled ${listDays(dates)} of ${ROUTE}.` },
    ]);
    expect((await booking(w.id, w.rider.id))?.status).toBe("ended");
    expect((await days(w.id)).every((d) => d.booked_seats === 0)).toBe(true);
    await topUpCommutes(ctx(), Date.now() + 3 * DAY);
    expect(await live(w.rider.id, w.id)).toEqual([]);
    // Ending again: nothing to end.
    const again = await postForm(`/commutes/${w.id}`, { intent: "end-booking" }, { cookie: w.rider.cookie });
    expect(toastOf(again)?.type).toBe("error");
  });

  it("the driver declines: the booking ends, pending days are declined, the rider told once", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const id = await publish(driver.id);
    await bookCommute(ctx(), rider.id, id, { weekdays: 127, seats: 1, notes: null });
    const res = await postForm(
      `/commutes/${id}`,
      { intent: "decline-booking", riderId: rider.id },
      { cookie: driver.cookie },
    );
    expect(toastOf(res)?.title).toBe("Standing booking declined");
    expect((await booking(id, rider.id))?.status).toBe("ended");
    expect((await requestsOf(rider.id, id)).every((r) => r.status === "rejected")).toBe(true);
    expect((await notificationsFor(rider.id, ["title"])).map((n) => n.title)).toEqual(["Standing booking declined"]);
    await topUpCommutes(ctx(), Date.now() + 3 * DAY);
    expect(await live(rider.id, id)).toEqual([]);
    // Only the driver declines: a rider's post is refused and changes nothing.
    const other = await signedInUser();
    await bookCommute(ctx(), other.id, id, { weekdays: 127, seats: 1, notes: null });
    const denied = await postForm(
      `/commutes/${id}`,
      { intent: "decline-booking", riderId: other.id },
      { cookie: other.cookie },
    );
    expect(denied.status).toBe(403);
    expect((await booking(id, other.id))?.status).toBe("active");
  });
});

describe("closing an account", () => {
  it("ends the rider's standing bookings: no top-up asks for them again", async () => {
    const driver = await createUser(ctx());
    const rider = await createUser(ctx());
    const id = await publish(driver.id);
    await bookCommute(ctx(), rider.id, id, { weekdays: 127, seats: 1, notes: null });
    await deleteMyAccount(ctx(), rider.id);
    expect((await booking(id, rider.id))?.status).toBe("ended");
    await topUpCommutes(ctx(), Date.now() + 3 * DAY);
    expect(await live(rider.id, id)).toEqual([]);
  });
});

describe("the journeys' clock (a test-only path)", () => {
  it("POST /__test/daily-top-up runs one commute's top-up as of a later time, only with LOOPRIDE_STAGE=test", async () => {
    const driver = await createUser(ctx());
    const rider = await createUser(ctx());
    const id = await publish(driver.id);
    await createCommuteBooking(ctx(), { commuteId: id, riderId: rider.id, weekdays: 127, accepted: true });
    const before = (await days(id)).length;
    const later = Date.now() + 15 * DAY;
    const call = (over: Record<string, unknown>) =>
      postTestClock(`/__test/daily-top-up?commute=${id}&time=${later}`, over);
    // Production (no stage marker, its secrets set): the catch-all page refuses the POST (405),
    // and nothing runs.
    const production = await call(PRODUCTION_ENV);
    expect(production.status).toBe(405);
    expect(await days(id)).toHaveLength(before);
    const res = await call({});
    expect(res.status).toBe(200);
    const added = (await days(id)).slice(before);
    expect(added.length).toBeGreaterThanOrEqual(13);
    expect(await res.json()).toEqual({ days: added.length, requests: added.length });
    expect((await live(rider.id, id)).filter((r) => r.status === "accepted")).toHaveLength(added.length);
  });
});

describe("the commute page", () => {
  it("shows the driver each regular rider once, and the rider their booking with its controls", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser({ fullName: "Priya Regular" });
    const id = await publish(driver.id);
    await bookCommute(ctx(), rider.id, id, { weekdays: 127, seats: 2, notes: null });
    const page = await (await get(`/commutes/${id}`, { cookie: driver.cookie })).text();
    expect(page.match(/data-testid="commute-rider"/g)).toHaveLength(1);
    expect(page).toContain("Every day · 2 seats · asked");
    expect(page).toMatch(/Decline Priya Regular(&#x27;|&#39;|')s standing booking/);
    const mine = await (await get(`/commutes/${id}`, { cookie: rider.cookie })).text();
    expect(mine).toContain("Your standing booking");
    expect(mine).toContain("Pause for a week");
    expect(mine).toContain("End my standing booking");
  });
});

describe("notices name the days", () => {
  it("the SQL day name is formatWeekdayDate's, every day of a year", async () => {
    const start = istDate();
    const dates = Array.from({ length: 366 }, (_, i) => addDays(start, i));
    const got = await db().all<{ d: string }>(
      sql`SELECT ${weekdayDateSql(sql`value`)} AS d FROM json_each(${JSON.stringify(dates)})`,
    );
    expect(got.map((r) => r.d)).toEqual(dates.map(formatWeekdayDate));
    expect(listDays(["2026-12-02", "2026-12-03", "2026-12-04"])).toBe("Wed, Dec 2; Thu, Dec 3 and Fri, Dec 4");
  });
});
