import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD, DEMO_USERS, isDatabaseEmpty, seedDemo } from "../../db/seed";
import { verifyPassword } from "~/utils/password.server";
import { db } from "../helpers";

describe("demo seed", () => {
  it("fills every area with Bengaluru data, requests in each state and exact member counts", async () => {
    expect(await isDatabaseEmpty({ db: db() })).toBe(true);
    await seedDemo({ db: db() }, { pepper: env.PASSWORD_PEPPER! });
    expect(await isDatabaseEmpty({ db: db() })).toBe(false);

    const n = async (sql: string) => (await env.DB.prepare(sql).first<{ n: number }>())!.n;
    expect(await n("SELECT count(*) AS n FROM users")).toBe(DEMO_USERS.length);
    expect(await n("SELECT count(DISTINCT type) AS n FROM communities")).toBe(3);
    const states = await env.DB.prepare("SELECT DISTINCT status FROM ride_requests ORDER BY status").all<{ status: string }>();
    expect(states.results.map((r) => r.status)).toEqual(["accepted", "cancelled", "pending", "rejected"]);
    expect(await n("SELECT count(*) AS n FROM rides WHERE date < date('now', '+330 minutes')")).toBe(0);
    // member_count equals the approved rows everywhere.
    expect(
      await n("SELECT count(*) AS n FROM communities c WHERE member_count <> (SELECT count(*) FROM community_members m WHERE m.community_id = c.id AND m.status = 'approved')"),
    ).toBe(0);
    // booked_seats equals the accepted seats everywhere.
    expect(
      await n("SELECT count(*) AS n FROM rides r WHERE booked_seats <> (SELECT coalesce(sum(seats), 0) FROM ride_requests q WHERE q.ride_id = r.id AND q.status = 'accepted')"),
    ).toBe(0);

    const stored = await env.DB.prepare("SELECT hash FROM passwords p JOIN users u ON u.id = p.user_id WHERE u.email = ?").bind(DEMO_USERS[0].email).first<{ hash: string }>();
    expect(await verifyPassword(DEMO_PASSWORD, stored!.hash, env.PASSWORD_PEPPER!)).toBe(true);
  });
});
