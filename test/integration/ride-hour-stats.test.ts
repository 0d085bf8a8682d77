// The Discover banner reads ride_hour_stats, which triggers keep in step with rides. The
// table must equal the aggregate of active PUBLIC rides after every kind of change: rides
// shared with a community are for its members only (finding 9) and are never counted.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addDays, istDate } from "~/domain/time";
import { createCommunity, createRide, createRideRequest, createUser } from "../../db/factories";
import { discoverRides } from "~/models/ride-discovery.server";
import { db, postForm, signedInUser } from "../support/worker";

async function mismatches() {
  const out = [];
  for (const [table, key, width] of [
    ["ride_hour_stats", "hour", 3600000],
    ["ride_day_stats", "day", 86400000],
  ] as const) {
    const { results } = await env.DB.prepare(
      `WITH truth AS (SELECT (departs_at + 19800000) / ${width} AS k, count(*) AS rides, sum(seats) AS seats, sum(booked_seats) AS booked FROM rides WHERE status = 'active' AND community_id IS NULL GROUP BY 1)
       SELECT '${table}' AS t, s.${key} AS k, s.rides, s.seats, s.booked_seats, t.rides AS t_rides, t.seats AS t_seats, t.booked AS t_booked
       FROM ${table} s LEFT JOIN truth t ON t.k = s.${key}
       WHERE s.rides <> coalesce(t.rides, 0) OR s.seats <> coalesce(t.seats, 0) OR s.booked_seats <> coalesce(t.booked, 0)
       UNION ALL
       SELECT '${table}', t.k, NULL, NULL, NULL, t.rides, t.seats, t.booked FROM truth t WHERE t.k NOT IN (SELECT ${key} FROM ${table})`,
    ).all();
    out.push(...results);
  }
  return out;
}

describe("ride_hour_stats and ride_day_stats (triggers)", () => {
  it("matches the active public rides after creating, booking, accepting, cancelling, completing, rescheduling, sharing and deleting", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await createRide(
        { db: db() },
        { driverId: driver.id, date: addDays(istDate(), 1 + (i % 3)), time: `0${i}:30`, seats: 2 + (i % 3) },
      );
      ids.push(r.id);
    }
    const community = await createCommunity({ db: db() }, { createdBy: driver.id });
    const shared = await createRide(
      { db: db() },
      { driverId: driver.id, communityId: community.id, date: addDays(istDate(), 1), time: "00:30", seats: 4 },
    );
    expect(await mismatches()).toEqual([]);
    // Accept through the app: booked seats rise in the same batch.
    const reqRes = await postForm(`/rides/${ids[0]}/book`, { seats: "1", notes: "" }, { cookie: rider.cookie });
    expect(reqRes.status).toBe(302);
    const request = await env.DB.prepare("SELECT id FROM ride_requests WHERE ride_id = ?")
      .bind(ids[0])
      .first<{ id: string }>();
    const acc = await postForm(
      "/dashboard/rides?tab=manage",
      { intent: "accept", requestId: request!.id },
      { cookie: driver.cookie },
    );
    expect(acc.status).toBe(302);
    expect(
      (await env.DB.prepare("SELECT booked_seats FROM rides WHERE id = ?")
        .bind(ids[0])
        .first<{ booked_seats: number }>())!.booked_seats,
    ).toBe(1);
    await createRideRequest(
      { db: db() },
      { rideId: ids[1], riderId: (await createUser({ db: db() })).id, status: "accepted", seats: 2 },
    );
    expect(await mismatches()).toEqual([]);
    await env.DB.batch([
      env.DB.prepare("UPDATE rides SET status = 'cancelled' WHERE id = ?").bind(ids[2]),
      env.DB.prepare("UPDATE rides SET status = 'completed' WHERE id = ?").bind(ids[3]),
      env.DB.prepare("UPDATE rides SET departs_at = departs_at + 7 * 3600000 WHERE id = ?").bind(ids[4]),
      env.DB.prepare("UPDATE rides SET status = 'active' WHERE id = ?").bind(ids[2]),
      env.DB.prepare("DELETE FROM ride_requests WHERE ride_id = ?").bind(ids[5]),
      env.DB.prepare("DELETE FROM rides WHERE id = ?").bind(ids[5]),
      // A community ride changing is not counted; one moved out of / into a community is.
      env.DB.prepare("UPDATE rides SET seats = 5, booked_seats = 1 WHERE id = ?").bind(shared.id),
      env.DB.prepare("UPDATE rides SET community_id = ? WHERE id = ?").bind(community.id, ids[0]),
      env.DB.prepare("UPDATE rides SET community_id = NULL WHERE id = ?").bind(ids[0]),
      env.DB.prepare("UPDATE rides SET community_id = ? WHERE id = ?").bind(community.id, ids[1]),
    ]);
    expect(await mismatches()).toEqual([]);
    for (const t of ["ride_hour_stats", "ride_day_stats"]) {
      const total = await env.DB.prepare(`SELECT sum(rides) AS n FROM ${t}`).first<{ n: number }>();
      expect(total!.n, t).toBe(3);
    }
    await env.DB.prepare("DELETE FROM rides WHERE id = ?").bind(shared.id).run();
    expect(await mismatches()).toEqual([]);
  });

  it("the Discover banner equals the exact aggregate of upcoming active public rides (this hour, later today, later days)", async () => {
    const driver = await signedInUser();
    const community = await createCommunity({ db: db() }, { createdBy: driver.id });
    const now = Date.now();
    const times = [-90, -20, 5, 25, 50, 70, 200, 600, 1500, 3000, 9000].map((m) => now + m * 60_000);
    for (const [i, t] of times.entries()) {
      const r = await createRide({ db: db() }, { driverId: driver.id, seats: 1 + (i % 4) });
      await env.DB.prepare("UPDATE rides SET departs_at = ?, booked_seats = ? WHERE id = ?")
        .bind(t, i % 2, r.id)
        .run();
      // The same times again on rides shared with a community: never in the banner.
      const c = await createRide({ db: db() }, { driverId: driver.id, communityId: community.id, seats: 3 });
      await env.DB.prepare("UPDATE rides SET departs_at = ?, booked_seats = 1 WHERE id = ?").bind(t, c.id).run();
    }
    const truth = await env.DB.prepare(
      "SELECT count(*) AS rides, sum(seats - booked_seats) AS open, sum(booked_seats) AS booked FROM rides WHERE status = 'active' AND community_id IS NULL AND departs_at >= ?",
    )
      .bind(now)
      .first<{ rides: number; open: number; booked: number }>();
    const { stats } = await discoverRides(
      { db: db() },
      "nobody",
      { q: "", maxCost: null, community: false, date: "", page: 1 },
      now,
    );
    expect(stats).toEqual({ rides: truth!.rides, seatsOpen: truth!.open, bookedSeats: truth!.booked });
    expect(stats.rides).toBe(9);
  });
});
