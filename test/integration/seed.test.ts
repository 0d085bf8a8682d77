import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD, DEMO_USERS, isDatabaseEmpty, seedDemo } from "../../db/seed";
import { verifyPassword } from "~/utils/password.server";
import { createSession } from "~/models/sessions.server";
import { serializeSessionCookie } from "~/utils/auth.server";
import { violationCountSql } from "../support/invariant-sql";
import { appTables } from "../support/db-checksum";
import { BASE, db, get } from "../support/worker";
import { createUser } from "../../db/factories";
import { COMMON_LOCALITIES, MAIN_TECH_PARKS } from "../../db/seed-city";
import { discoverRides } from "~/models/ride-discovery.server";
import { discoverFiltersSchema } from "~/schemas/ride-search";
import { parseNearSearch } from "~/utils/near-search.server";
import { addDays, istDate } from "~/domain/time";
import { costPerSeatPaise, priceBand, type PriceBand } from "~/domain/rides";
import { fairSeatPaise, type FairCostFacts } from "~/domain/trip-cost";

describe("demo seed", () => {
  it("fills every area with Bengaluru data, requests in each state and exact member counts", async () => {
    expect(await isDatabaseEmpty({ db: db() })).toBe(true);
    await seedDemo({ db: db() }, { pepper: env.PASSWORD_PEPPER! });
    expect(await isDatabaseEmpty({ db: db() })).toBe(false);

    const n = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
    // The demo users (README) keep their addresses, beside the city's members.
    const demo = await env.DB.prepare(
      "SELECT email FROM users WHERE email LIKE '%@demo.loopride.in' ORDER BY email",
    ).all<{
      email: string;
    }>();
    expect(demo.results.map((r) => r.email)).toEqual(DEMO_USERS.map((d) => d.email).sort());
    expect(await n("SELECT count(DISTINCT type) AS n FROM communities")).toBe(3);
    const states = await env.DB.prepare("SELECT DISTINCT status FROM ride_requests ORDER BY status").all<{
      status: string;
    }>();
    expect(states.results.map((r) => r.status)).toEqual(["accepted", "cancelled", "pending", "rejected"]);
    // Nothing bookable in the past: past rides are completed ones (the demo history).
    expect(
      await n("SELECT count(*) AS n FROM rides WHERE status = 'active' AND date < date('now', '+330 minutes')"),
    ).toBe(0);
    // member_count equals the approved rows everywhere.
    expect(await n(violationCountSql("community member_count equals its approved members"))).toBe(0);
    // booked_seats equals the accepted seats everywhere.
    expect(
      await n(violationCountSql("ride booked_seats equals the sum of accepted request seats and fits the ride")),
    ).toBe(0);

    const stored = await env.DB.prepare(
      "SELECT hash FROM passwords p JOIN users u ON u.id = p.user_id WHERE u.email = ?",
    )
      .bind(DEMO_USERS[0].email)
      .first<{ hash: string }>();
    expect(await verifyPassword(DEMO_PASSWORD, stored!.hash, env.PASSWORD_PEPPER!)).toBe(true);
  });

  it("is a lived-in city: Priya's dashboard shows rides, co-passengers, traffic hours and a savings chart with bars; receipts work", async () => {
    await seedDemo({ db: db() }, { pepper: env.PASSWORD_PEPPER! });
    const n = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
    // Completed rides in the last 8 weeks, none in the future, with payments and ratings.
    expect(
      await n(
        "SELECT count(*) AS n FROM rides WHERE status = 'completed' AND departs_at > " + (Date.now() - 56 * 86400000),
      ),
    ).toBeGreaterThanOrEqual(16);
    expect(await n("SELECT count(*) AS n FROM rides WHERE status = 'completed' AND departs_at > " + Date.now())).toBe(
      0,
    );
    expect(await n("SELECT count(*) AS n FROM payments WHERE status = 'received'")).toBeGreaterThan(10);
    expect(await n("SELECT count(*) AS n FROM ride_ratings")).toBeGreaterThan(10);
    // One payment per accepted rider of every completed ride, the amounts summing to at most the trip cost.
    expect(
      await n(`SELECT count(*) AS n FROM ride_requests q JOIN rides r ON r.id = q.ride_id
        WHERE r.status = 'completed' AND q.status = 'accepted' AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.ride_id = r.id AND p.payer_id = q.rider_id AND p.seats = q.seats)`),
    ).toBe(0);
    expect(
      await n(
        "SELECT count(*) AS n FROM rides r WHERE status = 'completed' AND (SELECT sum(amount_paise) FROM payments p WHERE p.ride_id = r.id) > trip_cost_paise",
      ),
    ).toBe(0);
    // Trigger-maintained discover stats (public rides only, migration 0006) still agree with the rides.
    expect(
      await n(`SELECT count(*) AS n FROM (SELECT (departs_at + 19800000) / 86400000 AS day, count(*) AS rides, sum(booked_seats) AS booked FROM rides WHERE status = 'active' AND community_id IS NULL GROUP BY 1) a
        FULL OUTER JOIN (SELECT day, rides, booked_seats FROM ride_day_stats WHERE rides <> 0) s ON s.day = a.day
        WHERE a.rides IS NOT s.rides OR a.booked IS NOT s.booked_seats`),
    ).toBe(0);

    const priya = await env.DB.prepare("SELECT id FROM users WHERE email = ?")
      .bind("priya@demo.loopride.in")
      .first<{ id: string }>();
    const cookie = (
      await serializeSessionCookie(new Request(BASE), env, await createSession({ db: db() }, priya!.id))
    ).split(";")[0];
    const html = (await (await get("/dashboard", { cookie })).text()).replaceAll("<!-- -->", "");
    const stat = (id: string) => Number(new RegExp(`data-testid="${id}"[^>]*>([^<]*)<`).exec(html)?.[1]);
    expect(stat("stat-total-rides")).toBeGreaterThan(0);
    expect(stat("stat-co-passengers")).toBeGreaterThan(0);
    expect(stat("stat-traffic-hours")).toBeGreaterThan(0);
    const chart = /<svg[^>]*aria-labelledby="chart-money-title"[\s\S]*?<\/svg>/.exec(html)?.[0] ?? "";
    const bars = [...chart.matchAll(/<rect[^>]*height="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(bars).toHaveLength(8);
    expect(bars.filter((h) => h > 0).length).toBeGreaterThanOrEqual(6);
    expect(html).not.toContain("Share a ride to start saving.");

    // A receipt of one of her completed rides sums to its trip cost.
    const ride = await env.DB.prepare(
      "SELECT id FROM rides WHERE driver_id = ? AND status = 'completed' ORDER BY departs_at DESC LIMIT 1",
    )
      .bind(priya!.id)
      .first<{ id: string }>();
    const receipt = await get(`/rides/${ride!.id}/receipt`, { cookie });
    expect(receipt.status).toBe(200);
    expect(await receipt.text()).toContain("Covered by the driver");
  });

  // Issue 38, item 1: a city a newcomer can search, seeded fast.
  it("is a living city: a newcomer from any of 20 common localities finds a ride within 3 km to each main tech park at 9:00 on a weekday", async () => {
    const started = performance.now();
    await seedDemo({ db: db() }, { pepper: env.PASSWORD_PEPPER! });
    const seconds = (performance.now() - started) / 1000;
    expect(seconds).toBeLessThan(20);

    const n = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
    const now = Date.now();
    expect(await n("SELECT count(*) AS n FROM users")).toBeGreaterThanOrEqual(300);
    expect(await n("SELECT count(DISTINCT residential_area) AS n FROM user_profiles")).toBeGreaterThanOrEqual(60);
    for (const type of ["residential", "workplace", "interest"])
      expect(await n(`SELECT count(*) AS n FROM communities WHERE type = '${type}'`)).toBeGreaterThanOrEqual(40);
    expect(await n("SELECT count(*) AS n FROM commutes WHERE status = 'active'")).toBeGreaterThanOrEqual(60);
    const upcoming = `FROM rides WHERE status = 'active' AND commute_id IS NULL AND departs_at > ${now}`;
    const oneOff = await n(`SELECT count(*) AS n ${upcoming}`);
    expect(oneOff).toBeGreaterThanOrEqual(200);
    // Through both peaks, with a realistic share kept to a community or to women.
    expect(await n(`SELECT count(*) AS n ${upcoming} AND time BETWEEN '07:30' AND '10:00'`)).toBeGreaterThan(
      oneOff / 2,
    );
    expect(await n(`SELECT count(*) AS n ${upcoming} AND time BETWEEN '17:30' AND '20:00'`)).toBeGreaterThan(30);
    const community = await n(`SELECT count(*) AS n ${upcoming} AND community_id IS NOT NULL`);
    const women = await n(`SELECT count(*) AS n ${upcoming} AND women_only = 1`);
    expect(community / oneOff).toBeGreaterThan(0.05);
    expect(community / oneOff).toBeLessThan(0.4);
    expect(women / oneOff).toBeGreaterThan(0.03);
    expect(women / oneOff).toBeLessThan(0.3);
    // Commutes run: their occurrences of the next two weeks exist.
    expect(
      await n(`SELECT count(*) AS n FROM rides WHERE commute_id IS NOT NULL AND departs_at > ${now}`),
    ).toBeGreaterThan(500);
    expect(await n("SELECT count(DISTINCT conversation_id) AS n FROM messages")).toBeGreaterThanOrEqual(50);
    expect(await n("SELECT count(*) AS n FROM notifications")).toBeGreaterThanOrEqual(200);
    expect(await n("SELECT count(*) AS n FROM rides WHERE status = 'completed'")).toBeGreaterThanOrEqual(80);
    expect(await n("SELECT count(*) AS n FROM ride_ratings")).toBeGreaterThanOrEqual(150);
    // The city's past is not news: nothing of it waits in the outbox.
    expect(await n("SELECT count(*) AS n FROM outbox")).toBeLessThan(20);
    // The database's invariants hold over the whole city.
    expect(await n(violationCountSql("community member_count equals its approved members"))).toBe(0);
    expect(
      await n(violationCountSql("ride booked_seats equals the sum of accepted request seats and fits the ride")),
    ).toBe(0);

    // A newcomer (in no community, no gender given) searches the next weekday at 9:00 within 3 km.
    const newcomer = await createUser({ db: db() }, { fullName: "Nisha Newcomer" });
    let date = addDays(istDate(now), 1);
    while ([0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay())) date = addDays(date, 1);
    const misses: string[] = [];
    for (const from of COMMON_LOCALITIES)
      for (const to of MAIN_TECH_PARKS) {
        // As Discover reads its query string (the default window, 15 minutes either way).
        const { search } = parseNearSearch(new URLSearchParams({ from, to, date, time: "09:00", radius: "3" }));
        const found = await discoverRides({ db: db() }, newcomer.id, discoverFiltersSchema.parse({}), now, search);
        const near = found.rides.filter((r) => r.match && r.match.pickupKm <= 3 && r.match.dropKm <= 3);
        if (near.length === 0) misses.push(`${from} → ${to}`);
      }
    expect(misses).toEqual([]);
  });

  // Issue 38, item 2: the city's prices come from the app's own fair cost, with a spread, so
  // a newcomer sees every label (ADR 0054) and not Premium everywhere.
  it("prices the city's upcoming rides around the fair share: most Fair, some Budget, some Premium", async () => {
    await seedDemo({ db: db() }, { pepper: env.PASSWORD_PEPPER! });
    const rows = await env.DB.prepare(
      `SELECT r.trip_cost_paise AS cost, r.seats, r.from_lat AS fromLat, r.from_lng AS fromLng, r.to_lat AS toLat,
        r.to_lng AS toLng, r.vehicle_type AS vehicleType, r.commute_id AS commuteId
       FROM rides r JOIN users u ON u.id = r.driver_id
       WHERE r.status = 'active' AND u.email LIKE '%@city.loopride.in'`,
    ).all<FairCostFacts & { cost: number; commuteId: string | null }>();
    const mix = (list: typeof rows.results) => {
      const out: Record<PriceBand | "none", number> = { Budget: 0, Fair: 0, Premium: 0, none: 0 };
      for (const r of list) {
        const fair = fairSeatPaise(r);
        out[fair ? priceBand(costPerSeatPaise(r.cost, r.seats), fair) : "none"]++;
      }
      return out;
    };
    for (const list of [rows.results.filter((r) => !r.commuteId), rows.results.filter((r) => r.commuteId)]) {
      const m = mix(list);
      expect(m.none).toBe(0);
      expect(m.Fair / list.length).toBeGreaterThan(0.5);
      expect(m.Budget / list.length).toBeGreaterThan(0.08);
      expect(m.Premium / list.length).toBeGreaterThan(0.05);
      expect(m.Premium / list.length).toBeLessThan(0.3);
    }
  });

  // Issue 38: "deterministic". Every row of the second run equals the first's, with two
  // exceptions that must differ: password hashes (a random salt each time they are hashed), pickup
  // codes (random digits per booking, ADR 0058), and
  // the ids the app's own SQL makes (randomblob): the commute days of the top-up (as the daily
  // cron makes them) and the outbox rows of the notifications trigger. Those rows are compared
  // by their natural keys instead (commute and date; the outbox's idempotency key).
  it("seeding twice writes the same rows", async () => {
    const now = Date.now();
    const tables = await appTables();
    const snapshot = async () => {
      const results = await env.DB.batch(tables.map((t) => env.DB.prepare(`SELECT * FROM "${t}" ORDER BY rowid`)));
      const rows = Object.fromEntries(tables.map((t, i) => [t, results[i]!.results as Record<string, unknown>[]]));
      const dayIds = new Map([
        ...rows.rides!.filter((r) => r.commute_id).map((r) => [String(r.id), `day of ${r.commute_id} on ${r.date}`]),
        ...rows.outbox!.map((r) => [String(r.id), `outbox ${r.idempotency_key}`]),
      ] as [string, string][]);
      const canonical = (v: unknown) => {
        if (typeof v !== "string") return v;
        const exact = dayIds.get(v);
        if (exact) return exact;
        // Inside JSON (a notification's data): the same ids.
        return v.includes('"') ? v.replace(/[0-9a-f]{16}/g, (id) => dayIds.get(id) ?? id) : v;
      };
      // Secrets drawn at random by design: a password's salted hash, a booking's pickup code (ADR 0058).
      const random = (t: string, k: string) =>
        (t === "passwords" && k === "hash") || (t === "ride_requests" && k === "pickup_code");
      for (const [t, list] of Object.entries(rows))
        rows[t] = list.map((r) =>
          Object.fromEntries(
            Object.entries(r).map(([k, v]) => [k, random(t, k) ? `(random: ${typeof v})` : canonical(v)]),
          ),
        );
      return rows;
    };
    const wipe = async () => {
      const stmts = [
        env.DB.prepare("PRAGMA defer_foreign_keys = on"),
        ...tables.map((t) => env.DB.prepare(`DELETE FROM "${t}"`)),
        env.DB.prepare("DELETE FROM sqlite_sequence"),
      ];
      // Twice: a trigger of one table's DELETE may write a row into a table already emptied.
      await env.DB.batch(stmts);
      await env.DB.batch(stmts);
    };

    await seedDemo({ db: db() }, { pepper: env.PASSWORD_PEPPER!, now });
    const first = await snapshot();
    await wipe();
    expect(await isDatabaseEmpty({ db: db() })).toBe(true);
    await seedDemo({ db: db() }, { pepper: env.PASSWORD_PEPPER!, now });
    const second = await snapshot();

    expect(first.users!.length).toBeGreaterThanOrEqual(300);
    expect(first.rides!.filter((r) => String(r.id).startsWith("day of ")).length).toBeGreaterThan(500);
    expect(first.passwords!.length).toBeGreaterThanOrEqual(300);
    const differences: string[] = [];
    for (const t of tables) {
      const [a, b] = [first[t]!, second[t]!];
      if (a.length !== b.length) differences.push(`${t}: ${a.length} rows, then ${b.length}`);
      else {
        const i = a.findIndex((row, k) => JSON.stringify(row) !== JSON.stringify(b[k]));
        if (i >= 0) {
          const cols = Object.keys(a[i]!).filter((c) => a[i]![c] !== b[i]![c]);
          differences.push(`${t} row ${i}: ${cols.join(", ")}`);
        }
      }
    }
    expect(differences).toEqual([]);
  });
});
