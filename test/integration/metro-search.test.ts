// Issue 36, item 4: a search may start or end "at a metro station" (the last mile to a tech
// park). Any station will do: each ride is matched at the station that suits it best, by the
// one matching rule (ADR 0049, 0062).
import { describe, expect, it } from "vitest";
import { createCommutePattern, createUser } from "../../db/factories";
import { WEEKDAYS } from "~/domain/commutes";
import { METRO_STATIONS, metroStationNamed } from "~/domain/metro-stations";
import { straightLineKm } from "~/domain/places";
import { matchRide } from "~/domain/ride-match";
import { addDays, istDate, istToInstant } from "~/domain/time";
import { topUpCommutes } from "~/models/commutes.server";
import { placeByName } from "~/models/places.server";
import { discoverRides, nearMatchSearch } from "~/models/ride-discovery.server";
import { discoverFiltersSchema } from "~/schemas/ride-search";
import { parseNearSearch } from "~/utils/near-search.server";
import { createRide, toastOf } from "../support/rides";
import { db, get, postForm, signedInUser } from "../support/worker";

const ctx = () => ({ db: db() });
const day = () => addDays(istDate(), 1);
const filters = discoverFiltersSchema.parse({});
const P = (name: string) => placeByName(name)!;

function parsed(params: Record<string, string>) {
  return parseNearSearch(new URLSearchParams({ date: day(), ...params }));
}

async function search(viewerId: string, params: Record<string, string>) {
  const { search: s, form } = parsed(params);
  expect(form?.errors ?? {}).toEqual({});
  return discoverRides(ctx(), viewerId, filters, Date.now(), s);
}

async function rideOf(from: string, to: string, vias: string[] = [], time = "08:30") {
  const driver = await createUser(ctx(), { profile: { maxDetourMinutes: 10 } });
  return createRide(ctx(), { driverId: driver.id, fromLocation: from, toLocation: to, vias, date: day(), time });
}

const toManyata = { from: "Any metro station", to: "Manyata Tech Park", time: "08:30", radius: "1", window: "30" };

describe("Any metro station -> Manyata Tech Park", () => {
  it("finds a ride passing a station before Manyata, picked up there, the card naming the station and its line", async () => {
    const rider = await signedInUser();
    // Yeshwanthpur Junction is at Yeshwanthpur station (Green line); the ride then goes by Hebbal.
    const ride = await rideOf("Yeshwanthpur Junction", "Manyata Tech Park", ["Hebbal"]);
    const found = await search(rider.id, toManyata);
    expect(found.rides.map((r) => r.id)).toEqual([ride.id]);
    const m = found.rides[0].match!;
    expect(m.anyPoint).toBe("Yeshwanthpur");
    // The station is 50 m from the start: the driver stops at the station (a detour that
    // rounds to 0 minutes) rather than the rider walking 50 m, and at 8:30 still.
    expect(straightLineKm(P("Yeshwanthpur Junction"), metroStationNamed("Yeshwanthpur")!)).toBeLessThan(0.06);
    expect(m.pickup.routeIndex).toBe(-1);
    expect(m.pickupKm).toBe(0);
    expect(m.detourMinutes).toBe(0);
    expect(m.drop.routeIndex).toBe(2);
    expect(m.pickupAt).toBe(istToInstant(day(), "08:30"));
    // Without JavaScript: the page is a GET of the form's fields.
    const res = await get(
      `/rides?from=Any+metro+station&to=Manyata+Tech+Park&date=${day()}&time=08:30&radius=1&window=30`,
      { cookie: rider.cookie },
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    // At the station itself: its name and line, no walk to tell.
    expect(html).toContain("Picked up at Yeshwanthpur Metro Station (Green) around 8:30 AM");
    expect(html).not.toContain('data-testid="pickup-distance"');
    // Nor a "Nearest metro" line repeating the station the facts name (issue 40: page weight).
    expect(html).not.toContain('data-testid="nearest-metro"');
    expect(html).toContain("/rides/" + ride.id + "/book?pickup=Yeshwanthpur%20Metro%20Station");
    // "Any metro station" is searched only: an alert needs two points.
    expect(html).not.toContain("Save this search");
  });

  it("along the ORR from KR Puram: the station chosen is the one the matching rule scores best", async () => {
    const rider = await signedInUser();
    const ride = await rideOf("Whitefield ITPL", "Manyata Tech Park", ["KR Puram Metro Station"], "08:15");
    const found = await search(rider.id, { ...toManyata, time: "09:00" });
    expect(found.rides.map((r) => r.id)).toEqual([ride.id]);
    const m = found.rides[0].match!;
    // By brute force: every station as the rider's start, the same rule, the lowest score.
    const s = nearMatchSearch(parsed({ ...toManyata, time: "09:00" }).search!);
    const route = {
      from: P("Whitefield ITPL"),
      to: P("Manyata Tech Park"),
      vias: [P("KR Puram Metro Station")],
      departsAt: istToInstant(day(), "08:15"),
      maxDetourMinutes: 10,
    };
    const scored = METRO_STATIONS.map((st) => ({
      st,
      m: matchRide({ ...s, any: undefined, from: st }, route),
    })).filter((x) => x.m !== null);
    expect(scored.length).toBeGreaterThan(1);
    const best = scored.reduce((a, b) => (b.m!.score < a.m!.score ? b : a));
    expect(m.anyPoint).toBe(best.st.name);
    expect(m.pickupAt).toBe(best.m!.pickupAt);
    expect(metroStationNamed(m.anyPoint)!.lines).toContain("purple");
  });

  it("does not find the wrong direction, nor a ride passing no station within the walk", async () => {
    const rider = await signedInUser();
    const back = await rideOf("Manyata Tech Park", "Yeshwanthpur Junction", ["Hebbal"]);
    await rideOf("Hebbal", "Manyata Tech Park");
    expect((await search(rider.id, toManyata)).rides).toEqual([]);
    // The evening way back does end at a station: Manyata -> any metro station finds it.
    const home = await search(rider.id, { ...toManyata, from: "Manyata Tech Park", to: "any metro  station" });
    expect(home.rides.map((r) => r.id)).toEqual([back.id]);
    expect(home.rides[0].match!.anyPoint).toBe("Yeshwanthpur");
    expect(home.rides[0].match!.drop.routeIndex).toBe(-1);
    const page = await get(
      `/rides?from=Manyata+Tech+Park&to=Any+metro+station&date=${day()}&time=08:30&radius=1&window=30`,
      { cookie: rider.cookie },
    );
    expect(await page.text()).toContain("Dropped at Yeshwanthpur Metro Station (Green)");
  });

  it("the weekday search finds a commute from a station", async () => {
    const rider = await signedInUser();
    const driver = await createUser(ctx(), { profile: { maxDetourMinutes: 10 } });
    const commute = await createCommutePattern(ctx(), {
      driverId: driver.id,
      fromLocation: "Yeshwanthpur Junction",
      toLocation: "Manyata Tech Park",
      vias: ["Hebbal"],
      weekdays: 127,
      time: "08:30",
    });
    await topUpCommutes(ctx());
    const found = await search(rider.id, { ...toManyata, mode: "weekdays", weekdays: WEEKDAYS[1].key });
    expect(found.rides.map((r) => r.commuteId)).toEqual([commute.id]);
    expect(found.rides[0].match!.anyPoint).toBe("Yeshwanthpur");
  });
});

describe("the option and bad values", () => {
  it("the search form offers Any metro station in both place fields (a real option, no JavaScript)", async () => {
    const rider = await signedInUser();
    const html = await (await get("/rides", { cookie: rider.cookie })).text();
    for (const id of ["near-from-places", "near-to-places"])
      expect(html).toMatch(new RegExp(`<datalist id="${id}"><option value="Any metro station"`));
  });

  it("a station at both ends, or a misspelt option, is a clear message, never a 500", async () => {
    const rider = await signedInUser();
    const both = await get(`/rides?from=Any+metro+station&to=Any+metro+station&date=${day()}&time=08:30`, {
      cookie: rider.cookie,
    });
    expect(both.status).toBe(400);
    expect(await both.text()).toContain("Only one end can be &quot;Any metro station&quot;: please choose a place");
    const typo = await get(`/rides?from=Any+metro+statoin&to=Manyata+Tech+Park&date=${day()}&time=08:30`, {
      cookie: rider.cookie,
    });
    expect(typo.status).toBe(400);
    expect(await typo.text()).toMatch(/id="near-from-error"/);
    // A hand-made save of such a search is refused with a message, not stored.
    const save = await postForm(
      "/rides",
      {
        intent: "save-search",
        from: "Any metro station",
        to: "Manyata Tech Park",
        time: "09:00",
        weekdays: "mon",
        redirectTo: "/rides",
      },
      { cookie: rider.cookie },
    );
    expect(save.status).toBe(302);
    expect(toastOf(save)?.description).toContain("cannot be saved: please choose a place");
  });
});
