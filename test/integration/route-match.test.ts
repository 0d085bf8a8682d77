// Issue 36, item 1: matching riders along the driver's way, with hand-made routes. The driver
// goes Whitefield -> Electronic City Phase 1 (straight through Bellandur) at 8:30 tomorrow.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../server";
import { env } from "../support/env";
import { createCommutePattern, createUser } from "../../db/factories";
import { WEEKDAYS } from "~/domain/commutes";
import { nearestMetroText } from "~/domain/metro-stations";
import { straightLineKm } from "~/domain/places";
import { CITY_KMH, matchRide } from "~/domain/ride-match";
import { ROAD_FACTOR } from "~/domain/ride-limits";
import { addDays, istDate, istToInstant } from "~/domain/time";
import { COMMUTE_TOP_UP_CRON, topUpCommutes } from "~/models/commutes.server";
import { placeByName } from "~/models/places.server";
import { discoverRides } from "~/models/ride-discovery.server";
import { createRide as publishRide } from "~/models/ride-publishing.server";
import { saveSearch } from "~/models/saved-searches.server";
import { ALERT_TITLE } from "~/models/saved-searches.server";
import { discoverFiltersSchema } from "~/schemas/ride-search";
import { parseNearSearch } from "~/utils/near-search.server";
import { createRide } from "../support/rides";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";
import { rideRequests } from "../../db/schema";
import { eq } from "drizzle-orm";

const ctx = () => ({ db: db() });
const day = () => addDays(istDate(), 1);
const filters = discoverFiltersSchema.parse({});
const P = (name: string) => placeByName(name)!;

async function search(viewerId: string, params: Record<string, string>) {
  const { search: s, form } = parseNearSearch(new URLSearchParams({ date: day(), ...params }));
  expect(form?.errors ?? {}).toEqual({});
  return discoverRides(ctx(), viewerId, filters, Date.now(), s);
}

/** A driver with a detour limit and their ride Whitefield -> Electronic City Phase 1 at 8:30. */
async function driverRide(maxDetourMinutes: number, vias: string[] = [], name = "Whitefield Driver") {
  const driver = await createUser(ctx(), { fullName: name, profile: { maxDetourMinutes } });
  return createRide(ctx(), {
    driverId: driver.id,
    fromLocation: "Whitefield",
    toLocation: "Electronic City Phase 1",
    vias,
    date: day(),
    time: "08:30",
  });
}

/** A driver (15-minute detour limit) and their daily commute Whitefield -> Electronic City Phase 1. */
async function driverCommute(time: string, vias: string[]) {
  const driver = await createUser(ctx(), { profile: { maxDetourMinutes: 15 } });
  return createCommutePattern(ctx(), {
    driverId: driver.id,
    fromLocation: "Whitefield",
    toLocation: "Electronic City Phase 1",
    vias,
    weekdays: 127,
    time,
  });
}

const bellandur = { from: "Bellandur", to: "Electronic City", time: "08:50", radius: "5", window: "30" };

describe("matching along the route", () => {
  it("finds a rider on the way (Bellandur), picked up there at the estimated time, with the driver's detour", async () => {
    const rider = await signedInUser();
    const ride = await driverRide(15);
    const found = await search(rider.id, bellandur);
    expect(found.rides.map((r) => r.id)).toEqual([ride.id]);
    const m = found.rides[0].match!;
    expect(m.pickup.routeIndex).toBe(-1); // the rider's own place, reached by a detour
    expect(m.pickupKm).toBe(0);
    // By hand (ADR 0049): Whitefield -> Bellandur is 8.3 km straight, x 1.4 road factor =
    // 11.7 km, at 20 km/h = 35 min: picked up at 9:05. The detour: Whitefield -> Bellandur ->
    // Electronic City less Whitefield -> Electronic City, x 1.4, at 20 km/h.
    const [w, b, e] = [P("Whitefield"), P("Bellandur"), P("Electronic City Phase 1")];
    expect([ROAD_FACTOR, CITY_KMH]).toEqual([1.4, 20]);
    expect(straightLineKm(w, b)).toBeCloseTo(8.3, 1);
    expect(m.pickupAt).toBe(istToInstant(day(), "09:05"));
    expect(m.minutesOff).toBe(15);
    const detourKm = (straightLineKm(w, b) + straightLineKm(b, e) - straightLineKm(w, e)) * ROAD_FACTOR;
    expect(m.detourMinutes).toBe(Math.round((detourKm / CITY_KMH) * 60));
    expect(m.detourMinutes).toBeGreaterThan(0);
    expect(m.detourMinutes).toBeLessThanOrEqual(15);
    // The page says so, without JavaScript.
    const html = await (
      await get(`/rides?from=Bellandur&to=Electronic+City&date=${day()}&time=08:50&radius=5&window=30`, {
        cookie: rider.cookie,
      })
    ).text();
    expect(html).toContain("Picked up at Bellandur around 9:05 AM");
    expect(html).toContain(`Driver&#x27;s detour ${m.detourMinutes} min`);
    expect(html).toContain("Pickup 15 min later");
    // The card names the station nearest where the rider boards, not the driver's start's.
    const [atPickup, atStart] = [nearestMetroText(b), nearestMetroText(w)];
    expect(atStart).not.toBeNull();
    expect(atPickup).not.toBe(atStart);
    expect(html).not.toContain(atStart);
    if (atPickup) expect(html).toContain(atPickup);
    else expect(html).not.toContain('data-testid="nearest-metro"');
  });

  it("does not find a rider whose detour exceeds the driver's limit, unless the route passes them (a via)", async () => {
    const rider = await signedInUser();
    const strict = await driverRide(2, [], "Strict Driver");
    expect((await search(rider.id, bellandur)).rides.map((r) => r.id)).not.toContain(strict.id);
    // Via Marathahalli the line passes Bellandur: a detour of under a minute, within any limit.
    const via = await driverRide(0, ["Marathahalli"], "Via Driver");
    const found = await search(rider.id, bellandur);
    expect(found.rides.map((r) => r.id)).toEqual([via.id]);
    expect(found.rides[0].match!.detourMinutes).toBe(0);
    expect(found.rides[0].vias).toEqual(["Marathahalli"]);
  });

  it("does not find a rider behind the start, or going the wrong way", async () => {
    const rider = await signedInUser();
    const ride = await driverRide(60);
    // Kadugodi is 3 km beyond Whitefield, away from Electronic City.
    const behind = await search(rider.id, { ...bellandur, from: "Kadugodi", radius: "2", window: "60" });
    expect(behind.rides.map((r) => r.id)).not.toContain(ride.id);
    // Electronic City -> Bellandur is the ride's way backwards.
    const wrong = await search(rider.id, {
      from: "Electronic City",
      to: "Bellandur",
      time: "09:30",
      radius: "5",
      window: "60",
    });
    expect(wrong.rides.map((r) => r.id)).not.toContain(ride.id);
  });

  it("ranks by walk, detour and minutes off: the via ride (no detour) before the detour ride", async () => {
    const rider = await signedInUser();
    const detour = await driverRide(15, [], "Detour Driver");
    const via = await driverRide(15, ["Marathahalli"], "Via Driver");
    const found = await search(rider.id, bellandur);
    expect(found.rides.map((r) => r.id)).toEqual([via.id, detour.id]);
    // The via ride's rider walks and the driver turns off nowhere; the detour ride's driver does.
    expect(found.rides[0].match!.detourMinutes).toBeLessThan(found.rides[1].match!.detourMinutes);
  });

  it("finds a rider whose pickup and drop both lie mid-route (Marathahalli -> Silk Board), through the corridor index", async () => {
    const rider = await signedInUser();
    // The Outer Ring Road way: Silk Board (the alias of BTM Layout) is a via, as the straight
    // line Marathahalli -> Electronic City passes 8 km east of it (a 31-minute detour).
    const ride = await driverRide(15, ["Marathahalli", "Silk Board"]);
    const midway = { from: "Marathahalli", to: "Silk Board", time: "08:50", radius: "2", window: "30" };
    const found = await search(rider.id, midway);
    expect(found.rides.map((r) => r.id)).toEqual([ride.id]);
    const m = found.rides[0].match!;
    // Picked up at the first via, dropped at the second: neither end of the ride is near.
    expect([m.pickup.routeIndex, m.drop.routeIndex]).toEqual([1, 2]);
    expect(m.pickupAt).toBe(istToInstant(day(), "08:53"));
    // On the straight way (via Marathahalli only), Marathahalli -> Bellandur lies mid-route too.
    const straight = await driverRide(15, ["Marathahalli"], "Straight Driver");
    const onTheWay = await search(rider.id, { ...midway, to: "Bellandur" });
    expect(onTheWay.rides.map((r) => r.id)).toContain(straight.id);
    // The route's cells are kept in ride_route_cells while the ride is active, and go with it.
    const cells = () =>
      env.DB.prepare("SELECT count(*) AS n FROM ride_route_cells WHERE ride_id = ?")
        .bind(ride.id)
        .first<{ n: number }>();
    expect((await cells())!.n).toBeGreaterThan(5);
    await env.DB.prepare("UPDATE rides SET status = 'cancelled' WHERE id = ?").bind(ride.id).run();
    expect((await cells())!.n).toBe(0);
    expect((await search(rider.id, midway)).rides).toEqual([]);
  });

  it("the weekday search finds a commute along its route", async () => {
    const rider = await signedInUser();
    const commute = await driverCommute("08:30", ["Marathahalli"]);
    await topUpCommutes(ctx());
    const found = await search(rider.id, { ...bellandur, mode: "weekdays", weekdays: WEEKDAYS[1].key });
    expect(found.rides.map((r) => r.commuteId)).toEqual([commute.id]);
    expect(found.rides[0].match!.pickup.routeIndex).toBe(-1);
  });

  it("the weekday search finds a commute whose pickup and drop both lie mid-route, at the time the driver passes, not the wrong way nor behind the start", async () => {
    const rider = await signedInUser();
    const commute = await driverCommute("08:30", ["Marathahalli", "Silk Board"]);
    await topUpCommutes(ctx());
    // Monday to Friday, as a rider ticks them (the form's repeated `weekdays`).
    const monFri = async (params: Record<string, string>) => {
      const q = new URLSearchParams({ mode: "weekdays", radius: "2", window: "30", ...params });
      for (const d of WEEKDAYS.slice(0, 5)) q.append("weekdays", d.key);
      const { search: s, form } = parseNearSearch(q);
      expect(form?.errors ?? {}).toEqual({});
      return discoverRides(ctx(), rider.id, filters, Date.now(), s);
    };
    // Neither end of the commute is within 2 km of Marathahalli or Silk Board (ADR 0049).
    const found = await monFri({ from: "Marathahalli", to: "Silk Board", time: "08:50" });
    expect(found.rides.map((r) => r.commuteId)).toEqual([commute.id]);
    const m = found.rides[0].match!;
    expect([m.pickup.routeIndex, m.drop.routeIndex]).toEqual([1, 2]);
    // As the date search measures it: 08:30 plus the road minutes to Marathahalli, on the
    // occurrence's own day.
    expect(m.pickupAt).toBe(istToInstant(found.rides[0].date, "08:53"));
    // The window applies to that time, not to the commute's 08:30.
    expect((await monFri({ from: "Marathahalli", to: "Silk Board", time: "08:20", window: "15" })).rides).toEqual([]);
    // Silk Board -> Marathahalli is the commute's way backwards; Kadugodi is 3 km behind Whitefield.
    expect((await monFri({ from: "Silk Board", to: "Marathahalli", time: "09:10" })).rides).toEqual([]);
    expect((await monFri({ from: "Kadugodi", to: "Silk Board", time: "08:30", window: "60" })).rides).toEqual([]);
    // The route's cells are kept in commute_route_cells while the commute is active.
    const cells = () =>
      env.DB.prepare("SELECT count(*) AS n FROM commute_route_cells WHERE commute_id = ?")
        .bind(commute.id)
        .first<{ n: number }>();
    expect((await cells())!.n).toBeGreaterThan(5);
    await env.DB.prepare("UPDATE commutes SET status = 'ended' WHERE id = ?").bind(commute.id).run();
    expect((await cells())!.n).toBe(0);
  });
});

describe("alerts and the search agree (one rule)", () => {
  it("a saved search is alerted of exactly the rides the search finds", async () => {
    const routes: { vias: string[]; maxDetour: number; from: string; to: string; time: string }[] = [
      { vias: [], maxDetour: 15, from: "Electronic City Phase 1", to: "Whitefield", time: "18:00" },
      { vias: [], maxDetour: 2, from: "Electronic City Phase 1", to: "Whitefield", time: "18:00" },
      { vias: ["Marathahalli"], maxDetour: 0, from: "Electronic City Phase 1", to: "Whitefield", time: "18:00" },
      { vias: [], maxDetour: 15, from: "Electronic City Phase 1", to: "HSR Layout", time: "18:00" },
      { vias: [], maxDetour: 15, from: "Electronic City Phase 1", to: "Whitefield", time: "16:00" },
      { vias: ["Agara"], maxDetour: 30, from: "Electronic City Phase 1", to: "Whitefield", time: "18:10" },
      { vias: [], maxDetour: 15, from: "Electronic City Phase 1", to: "Bellandur", time: "18:05" },
    ];
    const outcomes: [boolean, boolean][] = [];
    for (const r of routes) {
      // A fresh rider and driver each time: one alert a day per saved search.
      const rider = await createUser(ctx());
      await saveSearch(ctx(), rider.id, {
        from: "Electronic City Phase 1",
        to: "Bellandur",
        time: "18:00",
        radiusKm: 5,
        windowMinutes: 30,
        weekdays: 127,
      });
      const driver = await createUser(ctx(), { profile: { maxDetourMinutes: r.maxDetour } });
      const { id } = await publishRide(ctx(), driver.id, {
        fromLocation: r.from,
        toLocation: r.to,
        via1: r.vias[0] ?? null,
        date: day(),
        time: r.time,
        seats: 3,
        tripCost: 20000,
        notes: null,
        communityId: null,
        womenOnly: false,
      });
      const alerted = (await notificationsFor(rider.id)).some(
        (n) => n.title === ALERT_TITLE && (n.data as { ride_id?: string }).ride_id === id,
      );
      const found = (
        await search(rider.id, {
          from: "Electronic City Phase 1",
          to: "Bellandur",
          time: "18:00",
          radius: "5",
          window: "30",
        })
      ).rides.some((x) => x.id === id);
      outcomes.push([alerted, found]);
    }
    expect(outcomes.map(([a]) => a)).toEqual(outcomes.map(([, f]) => f));
    // Both kinds occur, along the route too: the differential is not vacuous.
    expect(outcomes[0]).toEqual([true, true]);
    expect(outcomes.map(([, f]) => f)).toContain(false);
  });
});

describe("alerts for a pickup mid-route (ADR 0049: saved searches by radius class)", () => {
  const saveBellandur = async () => {
    const rider = await createUser(ctx());
    await saveSearch(ctx(), rider.id, {
      from: "Bellandur",
      to: "Electronic City",
      time: "08:50",
      radiusKm: 5,
      windowMinutes: 30,
      weekdays: 127,
    });
    return rider;
  };
  const alertedOf = async (riderId: string) =>
    (await notificationsFor(riderId))
      .filter((n) => n.title === ALERT_TITLE)
      .map((n) => n.data as { ride_id?: string; commute_id?: string });

  it("Bellandur -> Electronic City is told of Whitefield -> Electronic City via Marathahalli, as the search finds it", async () => {
    const rider = await saveBellandur();
    const publish = async (time: string) => {
      const driver = await createUser(ctx(), { profile: { maxDetourMinutes: 15 } });
      const { id } = await publishRide(ctx(), driver.id, {
        fromLocation: "Whitefield",
        toLocation: "Electronic City Phase 1",
        via1: "Marathahalli",
        date: day(),
        time,
        seats: 3,
        tripCost: 20000,
        notes: null,
        communityId: null,
        womenOnly: false,
      });
      return id;
    };
    // Leaving at 7:30, it passes Bellandur about 50 minutes later: outside the window, untold.
    const early = await publish("07:30");
    expect(await alertedOf(rider.id)).toEqual([]);
    // At 8:15 it passes Bellandur within the window: neither its start (Whitefield, 8 km away)
    // nor its departure is near the search's, yet the rider is told, of the ride the search finds.
    const id = await publish("08:15");
    expect((await alertedOf(rider.id)).map((d) => d.ride_id)).toEqual([id]);
    const found = await search(rider.id, bellandur);
    expect(found.rides.map((r) => r.id)).toContain(id);
    expect(found.rides.map((r) => r.id)).not.toContain(early);
  });

  it("the Cron's new commute days alert it too (the same lookup)", async () => {
    const rider = await saveBellandur();
    const commute = await driverCommute("08:15", ["Marathahalli"]);
    // The Cron itself: its new days go through the same alert lookup as a publish.
    const ec = createExecutionContext();
    await worker.scheduled(
      createScheduledController({ cron: COMMUTE_TOP_UP_CRON, scheduledTime: Date.now() }),
      env,
      ec,
    );
    await waitOnExecutionContext(ec);
    expect((await alertedOf(rider.id)).map((d) => d.commute_id)).toEqual([commute.id]);
  });
});

it("matchRide without vias or a detour limit is the old rule: start and end within the radius", () => {
  const [k, m] = [P("Koramangala"), P("Manyata Tech Park")];
  const t = istToInstant(day(), "09:00");
  const s = { from: k, to: m, departsAt: t, radiusKm: 2, windowMinutes: 15 };
  expect(matchRide(s, { from: k, to: m, departsAt: t + 5 * 60_000 })).toMatchObject({ pickupKm: 0, minutesOff: 5 });
  expect(matchRide(s, { from: P("HSR Layout"), to: m, departsAt: t })).toBeNull();
});

describe("pickup points along the route (item 2)", () => {
  it("a rider books with a pickup point on the way; the driver's ride page lists the pickups in order", async () => {
    const driverUser = await signedInUser({ profile: { maxDetourMinutes: 15 } });
    const ride = await createRide(ctx(), {
      driverId: driverUser.id,
      fromLocation: "Whitefield",
      toLocation: "Electronic City Phase 1",
      vias: ["Marathahalli"],
      date: day(),
      time: "08:30",
    });
    const bella = await signedInUser({ fullName: "Bela Rider" });
    const early = await signedInUser({ fullName: "Anu Rider" });
    // The booking page offers the searched place, with its estimated time, without JavaScript.
    const page = await (await get(`/rides/${ride.id}/book?pickup=Bellandur`, { cookie: bella.cookie })).text();
    expect(page).toMatch(/<option value="Bellandur" selected="">Bellandur · around 9:0\d AM/);
    expect(page).toContain("Marathahalli · around");
    // A place the route does not pass within the driver's detour is refused, with a clear message.
    const off = await postForm(`/rides/${ride.id}/book`, { seats: "1", pickup: "Yelahanka" }, { cookie: bella.cookie });
    expect(off.status).toBe(409);
    expect(await off.text()).toContain("Please choose a pickup point along the ride&#x27;s route");
    const booked = await postForm(
      `/rides/${ride.id}/book`,
      { seats: "1", pickup: "Bellandur" },
      { cookie: bella.cookie },
    );
    expect(booked.status).toBe(302);
    // Anu is picked up at the start (no pickup chosen), so first.
    expect((await postForm(`/rides/${ride.id}/book`, { seats: "1" }, { cookie: early.cookie })).status).toBe(302);
    const rows = await db()
      .select({ riderId: rideRequests.riderId, pickup: rideRequests.pickupPlaceId })
      .from(rideRequests)
      .where(eq(rideRequests.rideId, ride.id));
    expect(Object.fromEntries(rows.map((r) => [r.riderId, r.pickup]))).toEqual({
      [bella.id]: "bellandur",
      [early.id]: null,
    });
    const html = await (await get(`/rides/${ride.id}`, { cookie: driverUser.cookie })).text();
    const stops = [...html.matchAll(/data-testid="pickup-stop">([^<]*)</g)].map((m) => m[1]);
    expect(stops).toEqual([
      "8:30 AM · Whitefield · Anu Rider (1 seat, pending)",
      expect.stringMatching(/^9:0\d AM · Bellandur · Bela Rider \(1 seat, pending\)$/),
    ]);
  });
});
