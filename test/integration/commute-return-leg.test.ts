import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addDays, istDate } from "~/domain/time";
import { topUpCommutes } from "~/models/commutes.server";
import { WOMEN_ONLY_REFUSED } from "~/models/permissions.server";
import { toastOf } from "../support/rides";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";

// Issue 35, item 4 (ADR 0048): a commute may have a return leg. Publishing one creates both
// directions; booking covers one or both legs, each under the single path's rules; the
// weekday search can ask "and back"; ending the commute ends both legs.

const DAY = 86_400_000;
const ctx = () => ({ db: db() });
const ALL_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

const commuteForm = (over: Record<string, string | string[]> = {}) => ({
  fromLocation: "HSR Layout",
  toLocation: "Manyata Tech Park",
  weekdays: ALL_DAYS,
  time: "08:30",
  returnTime: "18:00",
  startDate: addDays(istDate(), 1),
  endDate: "",
  seats: "3",
  tripCost: "300",
  notes: "Gate 2, blue Swift",
  communityId: "",
  ...over,
});

type Leg = Record<string, unknown> & { id: string };

/** Publishes through the real form post; returns the outward commute and its return. */
async function publish(cookie: string, over: Record<string, string | string[]> = {}) {
  const res = await postForm("/commutes/new", commuteForm(over), { cookie });
  expect(res.status).toBe(302);
  const id = res.headers.get("Location")!.split("/").pop()!;
  const out = await env.DB.prepare("SELECT * FROM commutes WHERE id = ?").bind(id).first<Leg>();
  const back = await env.DB.prepare("SELECT * FROM commutes WHERE return_of = ?").bind(id).first<Leg>();
  return { res, out: out!, back };
}

const days = async (commuteId: string) =>
  (
    await env.DB.prepare("SELECT id, date, time FROM rides WHERE commute_id = ? ORDER BY date")
      .bind(commuteId)
      .all<{ id: string; date: string; time: string }>()
  ).results;

/** The rider's live requests on a commute, by date. */
const liveDays = async (riderId: string, commuteId: string) =>
  (
    await env.DB.prepare(
      `SELECT o.date, q.status FROM ride_requests q JOIN rides o ON o.id = q.ride_id
       WHERE q.rider_id = ? AND o.commute_id = ? AND q.status IN ('pending', 'accepted') ORDER BY o.date`,
    )
      .bind(riderId, commuteId)
      .all<{ date: string; status: string }>()
  ).results;

const bookings = async (riderId: string) =>
  (
    await env.DB.prepare("SELECT commute_id, status FROM commute_bookings WHERE rider_id = ? ORDER BY commute_id")
      .bind(riderId)
      .all<{ commute_id: string; status: string }>()
  ).results;

const book = (commuteId: string, cookie: string, legs?: string) =>
  postForm(
    `/commutes/${commuteId}`,
    { intent: "book-all", weekdays: ALL_DAYS, seats: "1", ...(legs ? { legs } : {}) },
    { cookie },
  );

describe("publishing a commute with a return", () => {
  it("creates both legs, linked: the return goes back from the drop at the return time, same days, seats, price and notes", async () => {
    const driver = await signedInUser({ fullName: "Deepa Driver" });
    const { res, out, back } = await publish(driver.cookie);
    expect(toastOf(res)?.description).toContain("(both ways)");
    expect(back).toMatchObject({
      driver_id: driver.id,
      from_location: "Manyata Tech Park",
      to_location: "HSR Layout",
      from_place_id: out.to_place_id,
      to_place_id: out.from_place_id,
      from_cell: out.to_cell,
      to_cell: out.from_cell,
      time: "18:00",
      weekdays: out.weekdays,
      seats: out.seats,
      trip_cost_paise: out.trip_cost_paise,
      notes: "Gate 2, blue Swift",
      community_id: null,
      start_date: out.start_date,
      end_date: null,
      status: "active",
      return_of: out.id,
    });
    expect(out.return_of).toBeNull();
    const outDays = await days(out.id);
    const backDays = await days(back!.id);
    expect(outDays.length).toBeGreaterThan(0);
    expect(backDays.map((d) => d.date)).toEqual(outDays.map((d) => d.date));
    expect(new Set(backDays.map((d) => d.time))).toEqual(new Set(["18:00"]));

    // Shown together on each leg's page.
    const outPage = await (await get(`/commutes/${out.id}`, { cookie: driver.cookie })).text();
    expect(outPage).toContain("Return: leaves Manyata Tech Park at 6:00 PM");
    expect(outPage).toContain(`href="/commutes/${back!.id}"`);
    const backPage = await (await get(`/commutes/${back!.id}`, { cookie: driver.cookie })).text();
    expect(backPage).toContain("Morning: leaves HSR Layout at 8:30 AM");
    expect(backPage).toContain(`href="/commutes/${out.id}"`);
  });

  it("without a return time publishes one direction; a return before the departure is refused on the form", async () => {
    const driver = await signedInUser();
    const { back } = await publish(driver.cookie, { returnTime: "" });
    expect(back).toBeNull();
    const before = await env.DB.prepare("SELECT count(*) AS n FROM commutes").first<{ n: number }>();
    for (const returnTime of ["08:00", "08:30", "25:00"]) {
      const res = await postForm("/commutes/new", commuteForm({ returnTime }), { cookie: driver.cookie });
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(
        returnTime === "25:00" ? "Please select a valid return time" : "The return must leave after the departure time",
      );
    }
    expect(await env.DB.prepare("SELECT count(*) AS n FROM commutes").first<{ n: number }>()).toEqual(before);
  });
});

describe("booking one or both legs", () => {
  it("Morning only, Return only and Both book exactly those legs, from either leg's page, each with its standing booking", async () => {
    const driver = await signedInUser();
    const { out, back } = await publish(driver.cookie);
    const n = (await days(out.id)).length;
    const cases = [
      { page: out.id, legs: "both", want: [out.id, back!.id] },
      { page: out.id, legs: "morning", want: [out.id] },
      { page: out.id, legs: "return", want: [back!.id] },
      { page: back!.id, legs: "morning", want: [out.id] },
      { page: back!.id, legs: undefined, want: [back!.id] },
    ];
    for (const c of cases) {
      const rider = await signedInUser({ fullName: "Priya Rider" });
      const res = await book(c.page, rider.cookie, c.legs);
      expect(toastOf(res)).toMatchObject({
        title: "Requests sent",
        description: `You asked for ${n * c.want.length} days of this commute.`,
      });
      for (const leg of [out.id, back!.id])
        expect((await liveDays(rider.id, leg)).length, `${c.legs} from ${c.page}`).toBe(c.want.includes(leg) ? n : 0);
      expect((await bookings(rider.id)).map((b) => b.commute_id).sort()).toEqual([...c.want].sort());
    }
  });

  it("a blocked rider can book neither leg, and nothing is written", async () => {
    const driver = await signedInUser();
    const { out, back } = await publish(driver.cookie);
    const rider = await signedInUser();
    await env.DB.prepare("INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
      .bind(driver.id, rider.id, Date.now())
      .run();
    for (const [page, legs] of [
      [out.id, "both"],
      [back!.id, "both"],
      [out.id, "return"],
    ]) {
      const res = await book(page, rider.cookie, legs);
      expect(res.status).toBe(404);
    }
    expect(await liveDays(rider.id, out.id)).toEqual([]);
    expect(await liveDays(rider.id, back!.id)).toEqual([]);
    expect(await bookings(rider.id)).toEqual([]);
  });

  it("the rule applies per leg: a women-only return refuses a man the return and keeps his morning, saying why", async () => {
    const driver = await signedInUser({ profile: { gender: "female" } });
    const { out, back } = await publish(driver.cookie);
    await env.DB.prepare("UPDATE rides SET women_only = 1 WHERE commute_id = ?").bind(back!.id).run();
    const man = await signedInUser({ profile: { gender: "male" } });
    const res = await book(out.id, man.cookie, "both");
    const n = (await days(out.id)).length;
    expect(toastOf(res)).toMatchObject({
      title: "Requests sent",
      description: `You asked for ${n} days of this commute. Not booked: Return: ${WOMEN_ONLY_REFUSED}`,
    });
    expect((await liveDays(man.id, out.id)).length).toBe(n);
    expect(await liveDays(man.id, back!.id)).toEqual([]);
    expect((await bookings(man.id)).map((b) => b.commute_id)).toEqual([out.id]);
    // Only the return: refused outright, with the rule's own words.
    const other = await signedInUser({ profile: { gender: "male" } });
    const refused = await book(out.id, other.cookie, "return");
    expect(toastOf(refused)).toMatchObject({ title: "Could not request those days", description: WOMEN_ONLY_REFUSED });
    expect(await bookings(other.id)).toEqual([]);
    // A woman gets both.
    const woman = await signedInUser({ profile: { gender: "female" } });
    await book(out.id, woman.cookie, "both");
    expect((await liveDays(woman.id, back!.id)).length).toBe(n);
  });

  it("a commute without a return refuses Return only, and the form does not offer it", async () => {
    const driver = await signedInUser();
    const { out } = await publish(driver.cookie, { returnTime: "" });
    const rider = await signedInUser();
    const page = await (await get(`/commutes/${out.id}`, { cookie: rider.cookie })).text();
    expect(page).not.toContain('name="legs"');
    const res = await book(out.id, rider.cookie, "return");
    expect(toastOf(res)).toMatchObject({ description: "This commute has no return." });
    expect(await bookings(rider.id)).toEqual([]);
    const withReturn = await publish(driver.cookie);
    const page2 = await (await get(`/commutes/${withReturn.out.id}`, { cookie: rider.cookie })).text();
    for (const label of ["Morning only", "Return only", "Both"]) expect(page2).toContain(label);
  });

  it("the top-up keeps the rider booked on both legs' new days once the driver accepted each", async () => {
    const driver = await signedInUser();
    const { out, back } = await publish(driver.cookie);
    const rider = await signedInUser();
    await book(out.id, rider.cookie, "both");
    for (const leg of [out.id, back!.id]) {
      const res = await postForm(
        `/commutes/${leg}`,
        { intent: "accept-all", riderId: rider.id },
        { cookie: driver.cookie },
      );
      expect(toastOf(res)?.title).toMatch(/^Accepted \d+ requests$/);
    }
    const before = (await days(out.id)).length;
    await topUpCommutes(ctx(), Date.now() + 7 * DAY);
    for (const leg of [out.id, back!.id]) {
      const mine = await liveDays(rider.id, leg);
      expect(mine).toHaveLength(before + 7);
      expect(new Set(mine.map((d) => d.status))).toEqual(new Set(["accepted"]));
    }
  });
});

describe("ending a commute with a return", () => {
  it("ends both legs from either page; the riders of each leg are told and their bookings end", async () => {
    for (const from of ["out", "back"] as const) {
      const driver = await signedInUser();
      const { out, back } = await publish(driver.cookie);
      const morning = await signedInUser();
      const evening = await signedInUser();
      await book(out.id, morning.cookie, "morning");
      await book(out.id, evening.cookie, "return");
      const page = from === "out" ? out.id : back!.id;
      const res = await postForm(
        `/commutes/${page}`,
        { intent: "end", lastDate: addDays(istDate(), -1) },
        { cookie: driver.cookie },
      );
      expect(toastOf(res)).toMatchObject({
        title: "Commute ended",
        description: "Both ways: the return ends with it.",
      });
      for (const leg of [out.id, back!.id]) {
        const row = await env.DB.prepare("SELECT status FROM commutes WHERE id = ?").bind(leg).first();
        expect(row).toEqual({ status: "ended" });
        const open = await env.DB.prepare(
          "SELECT count(*) AS n FROM rides WHERE commute_id = ? AND status = 'active' AND departs_at > ?",
        )
          .bind(leg, Date.now())
          .first<{ n: number }>();
        expect(open?.n).toBe(0);
      }
      for (const rider of [morning, evening]) {
        expect(await bookings(rider.id)).toEqual([expect.objectContaining({ status: "ended" })]);
        const told = await notificationsFor(rider.id);
        expect(told.filter((t) => t.title === "Commute ended")).toHaveLength(1);
      }
    }
  });
});

describe('the weekday search "and back"', () => {
  const search = (cookie: string, extra: string) =>
    get(
      `/rides?from=HSR+Layout&to=Manyata+Tech+Park&time=08:30&window=30&mode=weekdays&${ALL_DAYS.map((d) => `weekdays=${d}`).join("&")}${extra}`,
      { cookie },
    );

  it("finds only commutes with a return around the time back; without it, both", async () => {
    const driver = await signedInUser();
    const withReturn = await publish(driver.cookie, { returnTime: "18:00" });
    const oneWay = await publish(driver.cookie, { returnTime: "" });
    const lateReturn = await publish(driver.cookie, { returnTime: "21:00" });
    const rider = await signedInUser();
    const first = async (commuteId: string) => `/rides/${(await days(commuteId))[0].id}`;
    const [a, b, c] = [await first(withReturn.out.id), await first(oneWay.out.id), await first(lateReturn.out.id)];

    const plain = await (await search(rider.cookie, "")).text();
    for (const link of [a, b, c]) expect(plain).toContain(link);

    const back = await search(rider.cookie, "&back=1&backTime=18:15");
    expect(back.status).toBe(200);
    const html = await back.text();
    expect(html).toContain(a);
    expect(html).not.toContain(b);
    expect(html).not.toContain(c);
    // The return legs themselves go the other way, and are not results of this search.
    expect(html).not.toContain(await first(withReturn.back!.id));
  });

  it('"and back" without a time back says so instead of searching', async () => {
    const rider = await signedInUser();
    const res = await search(rider.cookie, "&back=1");
    expect(await res.text()).toContain("Please pick the time back");
  });
});
