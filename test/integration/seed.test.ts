import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD, DEMO_USERS, isDatabaseEmpty, seedDemo } from "../../db/seed";
import { verifyPassword } from "~/utils/password.server";
import { createSession } from "~/models/sessions.server";
import { serializeSessionCookie } from "~/utils/auth.server";
import { violationCountSql } from "../support/invariant-sql";
import { BASE, db, get } from "../support/worker";
import { createUser } from "../../db/factories";
import { COMMON_LOCALITIES, MAIN_TECH_PARKS } from "../../db/seed-city";
import { discoverRides } from "~/models/ride-discovery.server";
import { discoverFiltersSchema } from "~/schemas/ride-search";
import { parseNearSearch } from "~/utils/near-search.server";
import { addDays, istDate } from "~/domain/time";

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
});
