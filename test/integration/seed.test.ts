import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD, DEMO_USERS, isDatabaseEmpty, seedDemo } from "../../db/seed";
import { verifyPassword } from "~/utils/password.server";
import { createSession } from "~/models/sessions.server";
import { serializeSessionCookie } from "~/utils/auth.server";
import { violationCountSql } from "../support/invariant-sql";
import { BASE, db, get } from "../support/worker";

describe("demo seed", () => {
  it("fills every area with Bengaluru data, requests in each state and exact member counts", async () => {
    expect(await isDatabaseEmpty({ db: db() })).toBe(true);
    await seedDemo({ db: db() }, { pepper: env.PASSWORD_PEPPER! });
    expect(await isDatabaseEmpty({ db: db() })).toBe(false);

    const n = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
    expect(await n("SELECT count(*) AS n FROM users")).toBe(DEMO_USERS.length);
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
});
