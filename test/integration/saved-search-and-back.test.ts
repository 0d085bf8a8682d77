// Saved searches "and back" (issue 35, ADR 0055): saving the weekday search with its time
// back keeps the way back; its alerts fire for rides and commutes going the other way around
// that time, through the one matching rule; the list shows it, and pause / delete take both.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createUser } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { createCommute } from "~/models/commutes.server";
import { createRide } from "~/models/ride-publishing.server";
import { ALERT_TITLE, saveSearch, type SaveSearch } from "~/models/saved-searches.server";
import { RETURN_BEFORE_DEPARTURE } from "~/schemas/commutes";
import { dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";

const ctx = () => ({ db: db() });
const tomorrow = () => addDays(istDate(), 1);

const search = (over: Partial<SaveSearch> = {}): SaveSearch => ({
  from: "Koramangala",
  to: "Manyata Tech Park",
  time: "09:00",
  returnTime: "18:30",
  radiusKm: 2,
  windowMinutes: 15,
  weekdays: 127,
  ...over,
});

const ride = (driverId: string, over: { fromLocation: string; toLocation: string; time: string }) =>
  createRide(ctx(), driverId, {
    date: tomorrow(),
    seats: 3,
    tripCost: 20000,
    notes: null,
    communityId: null,
    womenOnly: false,
    ...over,
  });
const BACK = { fromLocation: "Manyata Tech Park", toLocation: "Koramangala", time: "18:35" };

const alertsOf = async (userId: string) =>
  (await notificationsFor(userId, ["type", "title", "message", "data"])).filter((n) => n.title === ALERT_TITLE);
const rowsOf = async (userId: string) =>
  (
    await env.DB.prepare(
      "SELECT id, from_location, to_location, time, status, return_of FROM saved_searches WHERE user_id = ? ORDER BY time",
    )
      .bind(userId)
      .all<{
        id: string;
        from_location: string;
        to_location: string;
        time: string;
        status: string;
        return_of: string;
      }>()
  ).results;
const spotsOf = async (ids: string[]) =>
  (await env.DB.prepare(
    `SELECT count(*) AS n FROM saved_search_spots WHERE search_id IN (${ids.map(() => "?").join(",")})`,
  )
    .bind(...ids)
    .first<{ n: number }>())!.n;

const form = (over: Record<string, string | string[]> = {}) => ({
  intent: "save-search",
  from: "Koramangala",
  to: "Manyata Tech Park",
  time: "09:00",
  radius: "2",
  window: "15",
  weekdays: ["mon", "tue", "wed", "thu", "fri"],
  back: "1",
  backTime: "18:30",
  redirectTo: "/rides",
  ...over,
});

describe("a saved search and back", () => {
  it("the weekday search's 'Save this search' keeps the time back; the list shows one search 'and back'", async () => {
    const rider = await signedInUser();
    const q = "from=Koramangala&to=Manyata+Tech+Park&time=09:00&mode=weekdays&weekdays=mon&back=1&backTime=18:30";
    const page = await (await get(`/rides?${q}`, { cookie: rider.cookie })).text();
    expect(page).toContain('name="backTime" value="18:30"');
    expect(page).toContain("and back around 6:30 PM");
    const res = await postForm("/rides", form(), { cookie: rider.cookie });
    expect(toastOf(res)?.title).toBe("Search saved");
    const [outward, back] = await rowsOf(rider.id);
    expect(outward).toMatchObject({ from_location: "Koramangala", to_location: "Manyata Tech Park", return_of: null });
    expect(back).toMatchObject({
      from_location: "Manyata Tech Park",
      to_location: "Koramangala",
      time: "18:30",
      return_of: outward.id,
    });
    // The way back is looked up from its own start (the drop of the way there), once.
    expect(await spotsOf([back.id])).toBe(1);
    const list = await (await get("/rides", { cookie: rider.cookie })).text();
    expect(list.match(/data-testid="saved-search"/g)).toHaveLength(1);
    expect(list).toMatch(/around 9:00 AM\s*(<!-- -->)?\s*and back around 6:30 PM/);
  });

  it("a time back before the time there is a clear message and saves nothing", async () => {
    const rider = await signedInUser();
    const before = await dbChecksum();
    const res = await postForm("/rides", form({ backTime: "08:00" }), { cookie: rider.cookie });
    expect(res.status).toBe(302);
    expect(toastOf(res)?.type).toBe("error");
    expect(toastOf(res)?.description).toContain(RETURN_BEFORE_DEPARTURE);
    expect(await dbChecksum()).toEqual(before);
  });

  it("a ride going back (destination to start, around the time back) alerts; the way there alerts too", async () => {
    const driver = await createUser(ctx());
    const rider = await createUser(ctx());
    await saveSearch(ctx(), rider.id, search());
    const back = await ride(driver.id, BACK);
    expect(back.audience.notified).toEqual([rider.id]);
    const alerts = await alertsOf(rider.id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].data).toMatchObject({ ride_id: back.id, from: "Manyata Tech Park", to: "Koramangala" });
    expect(alerts[0].message).toContain("the way back of your saved search Koramangala → Manyata Tech Park");
    // The way there is its own direction, alerted the same day.
    await ride(driver.id, { fromLocation: "Koramangala", toLocation: "Manyata Tech Park", time: "09:05" });
    expect(await alertsOf(rider.id)).toHaveLength(2);
  });

  it("the same ride without 'and back', or going back at another time, alerts nobody", async () => {
    const driver = await createUser(ctx());
    const oneWay = await createUser(ctx());
    const back = await createUser(ctx());
    await saveSearch(ctx(), oneWay.id, search({ returnTime: null }));
    await saveSearch(ctx(), back.id, search());
    await ride(driver.id, { ...BACK, time: "17:00" });
    await ride(driver.id, BACK);
    expect(await alertsOf(oneWay.id)).toHaveLength(0);
    expect(await alertsOf(back.id)).toHaveLength(1);
  });

  it("a commute's return leg alerts the way back", async () => {
    const driver = await createUser(ctx());
    const rider = await createUser(ctx());
    await saveSearch(ctx(), rider.id, search({ time: "07:00", returnTime: "19:00" }));
    // The way there leaves at 09:00 (outside 07:00 ± 15 min); only the return matches.
    await createCommute(ctx(), driver.id, {
      fromLocation: "Koramangala",
      toLocation: "Manyata Tech Park",
      weekdays: 127,
      time: "09:00",
      returnTime: "19:05",
      seats: 3,
      tripCost: 20000,
      notes: null,
      communityId: null,
      startDate: istDate(),
      endDate: null,
    });
    const alerts = await alertsOf(rider.id);
    expect(alerts).toHaveLength(1);
    expect(alerts[0].data).toMatchObject({ from: "Manyata Tech Park", to: "Koramangala", time: "19:05" });
  });

  it("pause and delete take the way back with it; another user's is not found", async () => {
    const driver = await createUser(ctx());
    const rider = await signedInUser();
    const other = await signedInUser();
    const { id } = await saveSearch(ctx(), rider.id, search());
    const back = (await rowsOf(rider.id)).find((r) => r.return_of === id)!;
    // The way back alone is never a listed search: it cannot be changed by its own id.
    expect(
      (await postForm("/rides", { intent: "delete-search", searchId: back.id }, { cookie: rider.cookie })).status,
    ).toBe(404);
    expect((await postForm("/rides", { intent: "delete-search", searchId: id }, { cookie: other.cookie })).status).toBe(
      404,
    );
    await postForm("/rides", { intent: "pause-search", searchId: id }, { cookie: rider.cookie });
    expect((await rowsOf(rider.id)).map((r) => r.status)).toEqual(["paused", "paused"]);
    await ride(driver.id, BACK);
    expect(await alertsOf(rider.id)).toHaveLength(0);
    const res = await postForm("/rides", { intent: "delete-search", searchId: id }, { cookie: rider.cookie });
    expect(toastOf(res)?.title).toBe("Saved search deleted");
    expect(await rowsOf(rider.id)).toEqual([]);
    expect(await spotsOf([id, back.id])).toBe(0);
  });

  it("the limit counts searches as listed: a search and back is one", async () => {
    const rider = await createUser(ctx());
    for (let i = 0; i < 10; i++) await saveSearch(ctx(), rider.id, search({ time: `0${i}:00` }));
    expect(await rowsOf(rider.id)).toHaveLength(20);
    await expect(saveSearch(ctx(), rider.id, search({ time: "10:00" }))).rejects.toThrow(/at most 10/);
  });
});
