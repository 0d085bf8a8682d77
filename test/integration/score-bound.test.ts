// Issue 40 (ADR 0049, "the widest date search"): a wide date search reads only the rides whose
// score bound is lowest, so the bound D1 computes must never exceed the score the matching rule
// gives a ride, nor rule out a ride the rule matches, or a better ride could stay unread.
import { env } from "../support/env";
import { eq, type SQL } from "drizzle-orm";
import { SQLiteSyncDialect } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import { matchRide, type MatchSearch } from "~/domain/ride-match";
import { LARGEST_DETOUR, NO_MATCH_BOUND, scoreBound, scoreBoundColumns } from "~/models/ride-score-bound.server";
import { createDb } from "~/models/db.server";
import { createUser } from "../../db/factories";
import { userProfiles } from "../../db/schema";
import { PLACES, viaPlaces } from "~/models/places.server";

// A fixed pseudo-random walk (no Math.random: a failure must reproduce).
let seed = 40;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
const near = (p: { lat: number; lng: number }, km: number) => ({
  lat: p.lat + ((rand() - 0.5) * 2 * km) / 111,
  lng: p.lng + ((rand() - 0.5) * 2 * km) / 108,
});

type Case = {
  search: MatchSearch;
  ride: { from: { lat: number; lng: number }; to: { lat: number; lng: number }; departsAt: number };
  viaPlaceIds: string | null;
  maxDetourMinutes: number;
};

function makeCase(): Case {
  const at = Date.UTC(2026, 11, 2, 3, 0);
  const from = pick(PLACES);
  const to = pick(PLACES);
  // Rides around the search's places (so many match), some through up to three places.
  const vias = rand() < 0.2 ? Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(PLACES).id) : [];
  return {
    search: {
      from,
      to,
      departsAt: at,
      radiusKm: pick([2, 5, 7.5, 10, 10]),
      windowMinutes: pick([15, 30, 45, 60]),
    },
    ride: {
      from: rand() < 0.8 ? near(from, 6) : pick(PLACES),
      to: rand() < 0.8 ? near(to, 6) : pick(PLACES),
      departsAt: at + Math.round(-120 + rand() * 180) * 60_000,
    },
    viaPlaceIds: vias.length ? vias.join(" ") : null,
    maxDetourMinutes: pick([0, 5, 15, 30, 60]),
  };
}

const text = (q: SQL) => new SQLiteSyncDialect().sqlToQuery(q).sql;

/** The bound D1 computes for each case, one statement a case, in one batch. */
async function bounds(cases: Case[]) {
  const results = await env.DB.batch(
    // The bound with the case's own driver's limit as the largest any driver allows: the
    // tightest it may be (a search's is the largest of every profile, LARGEST_DETOUR).
    cases.map(({ search, ride, viaPlaceIds, maxDetourMinutes }) =>
      env.DB.prepare(
        `SELECT ${text(scoreBound(search, String(maxDetourMinutes)))} AS bound FROM (SELECT ${text(scoreBoundColumns("r", search))} FROM (SELECT ?1 AS from_lat, ?2 AS from_lng, ?3 AS to_lat, ?4 AS to_lng, ?5 AS via_place_ids, ?6 AS departs_at) AS r)`,
      ).bind(ride.from.lat, ride.from.lng, ride.to.lat, ride.to.lng, viaPlaceIds, ride.departsAt),
    ),
  );
  return results.map((r) => (r.results[0] as { bound: number }).bound);
}

describe("the wide search's score bound (issue 40)", () => {
  it("takes the largest detour any driver allows from one row of its index, whatever the profiles say", async () => {
    const db = createDb(env.DB);
    const driver = await createUser({ db });
    const largest = async () => {
      const r = await env.DB.prepare(`SELECT ${LARGEST_DETOUR} AS m`).all<{ m: number }>();
      return { minutes: r.results[0].m, rows: r.meta.rows_read };
    };
    for (const minutes of [55, 60, 15]) {
      await db.update(userProfiles).set({ maxDetourMinutes: minutes }).where(eq(userProfiles.userId, driver.id));
      const got = await largest();
      // Other profiles keep the default 15 minutes.
      expect(got.minutes).toBe(minutes);
      expect(got.rows).toBeLessThanOrEqual(2);
    }
  });

  it("is never above the score matchRide gives, and rules out only rides it does not match", async () => {
    const cases = Array.from({ length: 3000 }, makeCase);
    const got = await bounds(cases);
    let matched = 0;
    let close = 0;
    cases.forEach((c, i) => {
      const m = matchRide(c.search, {
        ...c.ride,
        vias: viaPlaces(c.viaPlaceIds),
        maxDetourMinutes: c.maxDetourMinutes,
      });
      const where = JSON.stringify(c);
      if (!m) return;
      matched++;
      expect(got[i], where).toBeLessThan(NO_MATCH_BOUND);
      expect(got[i], where).toBeLessThanOrEqual(m.score);
      if (!c.viaPlaceIds && m.score - got[i] <= 5) close++;
    });
    // Enough matches to mean something, and the bound is close for most plain rides: a bound of
    // 0 would pass the checks above and read rides at random.
    console.log(`${matched} matches, ${close} plain ones within 5 minutes of their bound`);
    expect(matched).toBeGreaterThan(300);
    expect(close / matched).toBeGreaterThan(0.2);
    // 3,000 cases through D1 take about 10 s alone, and past 30 s on a loaded 2-core machine.
  }, 120_000);
});
