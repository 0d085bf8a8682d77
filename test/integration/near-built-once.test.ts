// ADR 0068: a distance search's statement (and Discover's first page with a fixed filter) is
// built once per search and isolate; each request binds its own viewer and clock to the same
// text, and only the latest searches stay built.
import { beforeEach, describe, expect, it } from "vitest";
import { createCommutePattern, createRide, createUser } from "../../db/factories";
import { WEEKDAYS } from "~/domain/commutes";
import { addDays, istDate } from "~/domain/time";
import { topUpCommutes } from "~/models/commutes.server";
import {
  discoverReads,
  discoverRides,
  NEAR_SHAPES_KEPT,
  type NearSearch,
  nearShapeKey,
} from "~/models/ride-discovery.server";
import { forgetBuiltStatements, isBuiltOnce, runReads } from "~/models/statements.server";
import { discoverFiltersSchema } from "~/schemas/ride-search";
import { parseNearSearch } from "~/utils/near-search.server";
import { db } from "../support/worker";

const ctx = () => ({ db: db() });
const HOUR = 3_600_000;
const filters = discoverFiltersSchema.parse({});
const day = () => addDays(istDate(), 1);

function parsed(params: Record<string, string>, weekdays = false): NearSearch {
  const q = new URLSearchParams(weekdays ? { mode: "weekdays", ...params } : { date: day(), ...params });
  if (weekdays) for (const d of WEEKDAYS.slice(0, 5)) q.append("weekdays", d.key);
  const { search, form } = parseNearSearch(q);
  expect(form?.errors ?? {}).toEqual({});
  return search!;
}

// Whitefield -> Electronic City Phase 1, searched from Bellandur (mid-route): the narrow and the
// wide (score-bound) path, on a date and on weekdays.
const bellandur = { from: "Bellandur", to: "Electronic City", time: "08:50", window: "30" };
const searches = () => [
  parsed({ ...bellandur, radius: "5" }),
  parsed({ ...bellandur, radius: "10", window: "60" }),
  parsed({ ...bellandur, radius: "5" }, true),
  parsed({ ...bellandur, radius: "10", window: "60" }, true),
];

/** Two drivers, each with a ride and a daily commute on the route: each sees only the other's. */
async function world() {
  const [a, b] = await Promise.all(
    ["Asha Driver", "Bala Driver"].map((fullName) =>
      createUser(ctx(), { fullName, profile: { maxDetourMinutes: 15 } }),
    ),
  );
  const trip = { fromLocation: "Whitefield", toLocation: "Electronic City Phase 1", vias: ["Marathahalli"] };
  const rides = [];
  for (const driver of [a, b]) {
    rides.push(await createRide(ctx(), { driverId: driver.id, ...trip, date: day(), time: "08:30" }));
    await createCommutePattern(ctx(), { driverId: driver.id, ...trip, weekdays: 127, time: "08:30" });
  }
  await topUpCommutes(ctx());
  return { a, b, rides };
}

const ids = (page: Awaited<ReturnType<typeof discoverRides>>) =>
  page.rides.map((r) => ({ driver: r.driverId, commute: r.commuteId !== null }));

describe("a distance search's statement built once (ADR 0068)", () => {
  beforeEach(() => forgetBuiltStatements());

  it("binds each viewer's own id and clock: two riders in a row get their own results, as a fresh build", async () => {
    const { a, b } = await world();
    const now = Date.now();
    for (const s of searches()) {
      // Learned from the other driver, an hour later (every window's start moved by the clock)...
      await discoverRides(ctx(), b.id, filters, now + HOUR, s);
      expect(isBuiltOnce(nearShapeKey(s, filters)), nearShapeKey(s, filters)).toBe(true);
      const forA = await discoverRides(ctx(), a.id, filters, now, s);
      const forB = await discoverRides(ctx(), b.id, filters, now, s);
      // ...each sees the other's ride (or commute), never their own.
      expect(ids(forA).length, nearShapeKey(s, filters)).toBeGreaterThan(0);
      expect(new Set(ids(forA).map((r) => r.driver))).toEqual(new Set([b.id]));
      expect(new Set(ids(forB).map((r) => r.driver))).toEqual(new Set([a.id]));
      // And what drizzle builds for these very values reads the same.
      forgetBuiltStatements();
      expect(await discoverRides(ctx(), a.id, filters, now, s)).toEqual(forA);
      forgetBuiltStatements();
      expect(await discoverRides(ctx(), b.id, filters, now, s)).toEqual(forB);
    }
  });

  it("keeps an 'Any metro station' search and a search with a cost cap built too", async () => {
    const { a } = await world();
    const metro = parsed({
      from: "Any metro station",
      to: "Electronic City",
      time: "08:50",
      radius: "2",
      window: "30",
    });
    const capped = discoverFiltersSchema.parse({ upto: "200", community: "1" });
    await discoverRides(ctx(), a.id, filters, Date.now(), metro);
    await discoverRides(ctx(), a.id, capped, Date.now(), searches()[1]);
    expect(isBuiltOnce(nearShapeKey(metro, filters))).toBe(true);
    expect(isBuiltOnce(nearShapeKey(searches()[1], capped))).toBe(true);
  });

  it("keeps the latest searches built, not every search ever asked", async () => {
    const { a } = await world();
    const now = Date.now();
    const times = Array.from({ length: NEAR_SHAPES_KEPT + 1 }, (_, i) => {
      const t = 6 * 60 + i;
      return `${String(Math.floor(t / 60)).padStart(2, "0")}:${String(t % 60).padStart(2, "0")}`;
    });
    const keys: string[] = [];
    for (const time of times) {
      const s = parsed({ ...bellandur, radius: "5", time });
      keys.push(nearShapeKey(s, filters));
      await discoverRides(ctx(), a.id, filters, now, s);
    }
    expect(new Set(keys).size).toBe(times.length);
    expect(isBuiltOnce(keys[0])).toBe(false);
    expect(keys.slice(1).every(isBuiltOnce)).toBe(true);
  });
});

describe("Discover's first page with a fixed filter, built once (ADR 0068)", () => {
  beforeEach(() => forgetBuiltStatements());

  const pageKey = (f: typeof filters) => `discover:page:user:${JSON.stringify(f)}`;
  const page = async (viewerId: string, f: typeof filters, now: number) =>
    (await runReads(db(), discoverReads(db(), { userId: viewerId }, f, now)))[0] as { driverId: string }[];

  it("a cost cap of the form's choices, Community rides only, women-only seats: each viewer's own rows", async () => {
    const { a, b } = await world();
    const now = Date.now();
    for (const params of [{ upto: "500" }, { upto: "0" }, { community: "1" }, { women: "1", upto: "300" }]) {
      const f = discoverFiltersSchema.parse(params);
      await page(b.id, f, now + HOUR);
      expect(isBuiltOnce(pageKey(f)), JSON.stringify(params)).toBe(true);
      const forA = await page(a.id, f, now);
      const forB = await page(b.id, f, now);
      if (params.upto === "500") {
        // Their rides and commute days: each sees only the other's.
        expect(new Set(forA.map((r) => r.driverId))).toEqual(new Set([b.id]));
        expect(new Set(forB.map((r) => r.driverId))).toEqual(new Set([a.id]));
      }
      forgetBuiltStatements();
      expect(await page(a.id, f, now)).toEqual(forA);
      expect(await page(b.id, f, now)).toEqual(forB);
    }
  });

  it("a typed cap off the form's steps, a date or a text is built per call", async () => {
    const { a } = await world();
    for (const params of [{ upto: "23" }, { date: day() }, { q: "Whitefield" }]) {
      const f = discoverFiltersSchema.parse(params);
      await page(a.id, f, Date.now());
      expect(isBuiltOnce(pageKey(f)), JSON.stringify(params)).toBe(false);
    }
  });
});
