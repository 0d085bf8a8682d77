import { describe, expect, it } from "vitest";
import { env } from "../support/env";
import { eq } from "drizzle-orm";
import { createCommutePattern, createRide, createRideRequest } from "../../db/factories";
import { rideRequests, rides, userBlocks } from "../../db/schema";
import { addDays, istDate } from "~/domain/time";
import { getDashboard, nextRideQueries } from "~/models/dashboard.server";
import { BASE, db, get, postForm, signedInUser } from "../support/worker";
import { debugFetch } from "../support/worker-fetch";

// Issue 35, item 3: the dashboard opens with the viewer's next ride or two.

const nextIds = async (userId: string) => (await getDashboard({ db: db() }, userId)).nextRides.map((r) => r.id);

describe("the next-ride read", () => {
  it("is the soonest one or two of the rides I drive and the seats I asked for, both roles, soonest first", async () => {
    const today = istDate();
    const me = await signedInUser({ fullName: "Meera Krishnan" });
    const dinesh = await signedInUser({ fullName: "Dinesh Driver" });
    const asha = await signedInUser({ fullName: "Asha Rider" });
    // Created in an order that is neither departure order nor its reverse.
    const later = await createRide({ db: db() }, { driverId: dinesh.id, date: addDays(today, 5) });
    await createRideRequest({ db: db() }, { rideId: later.id, riderId: me.id, status: "accepted" });
    const evening = await createRide({ db: db() }, { driverId: dinesh.id, date: addDays(today, 1), time: "18:00" });
    await createRideRequest({ db: db() }, { rideId: evening.id, riderId: me.id, status: "pending" });
    const morning = await createRide({ db: db() }, { driverId: me.id, date: addDays(today, 1), time: "08:00" });
    await createRideRequest({ db: db() }, { rideId: morning.id, riderId: asha.id, seats: 2, status: "accepted" });

    const d = await getDashboard({ db: db() }, me.id);
    expect(d.nextRides.map((r) => [r.id, r.role])).toEqual([
      [morning.id, "driver"],
      [evening.id, "rider"],
    ]);
    expect(d.nextRides[0].riders).toEqual([{ id: asha.id, fullName: "Asha Rider", seats: 2, status: "accepted" }]);
    expect(d.nextRides[1].driver).toEqual({ id: dinesh.id, fullName: "Dinesh Driver" });
    expect(d.nextRides[1].request?.status).toBe("pending");
    // ₹300 a trip over 3 seats.
    expect(d.nextRides.map((r) => r.seatPricePaise)).toEqual([10000, 10000]);

    // Dinesh's next ride is his own: the evening ride with my pending request on it.
    const his = await getDashboard({ db: db() }, dinesh.id);
    expect(his.nextRides.map((r) => [r.id, r.role])).toEqual([
      [evening.id, "driver"],
      [later.id, "driver"],
    ]);
    expect(his.nextRides[0].riders.map((x) => [x.id, x.status])).toEqual([[me.id, "pending"]]);
  });

  it("leaves out cancelled and departed rides, dead requests, other people's requests and rides hidden by a block", async () => {
    const today = istDate();
    const me = await signedInUser();
    const [d1, d2, stranger] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    // Rides I drive: cancelled, departed yesterday, completed.
    await createRide({ db: db() }, { driverId: me.id, date: addDays(today, 1), status: "cancelled" });
    await createRide({ db: db() }, { driverId: me.id, date: addDays(today, -1) });
    await createRide({ db: db() }, { driverId: me.id, date: addDays(today, -2), status: "completed" });
    // Seats on others' rides: a cancelled ride, a departed one, my cancelled and rejected requests.
    const cancelledRide = await createRide({ db: db() }, { driverId: d1.id, date: addDays(today, 2) });
    await createRideRequest({ db: db() }, { rideId: cancelledRide.id, riderId: me.id, status: "accepted" });
    await db().update(rides).set({ status: "cancelled" }).where(eq(rides.id, cancelledRide.id));
    const departed = await createRide({ db: db() }, { driverId: d1.id, date: addDays(today, -1) });
    await createRideRequest({ db: db() }, { rideId: departed.id, riderId: me.id, status: "accepted" });
    for (const status of ["cancelled", "rejected"] as const) {
      const r = await createRide({ db: db() }, { driverId: d1.id, date: addDays(today, 3) });
      await createRideRequest({ db: db() }, { rideId: r.id, riderId: me.id, status });
    }
    // Someone else's seat on a ride I have nothing to do with.
    const theirs = await createRide({ db: db() }, { driverId: d1.id, date: addDays(today, 1) });
    await createRideRequest({ db: db() }, { rideId: theirs.id, riderId: stranger.id, status: "accepted" });
    expect(await nextIds(me.id)).toEqual([]);

    // A pending request on the ride of a driver who then blocked me: the ride is hidden from me.
    const blocked = await createRide({ db: db() }, { driverId: d2.id, date: addDays(today, 1) });
    await createRideRequest({ db: db() }, { rideId: blocked.id, riderId: me.id, status: "pending" });
    expect(await nextIds(me.id)).toEqual([blocked.id]);
    await db().insert(userBlocks).values({ blockerId: d2.id, blockedId: me.id, createdAt: Date.now() });
    expect(await nextIds(me.id)).toEqual([]);
    // An accepted seat stays mine to see and cancel (maySeeRide), block or not.
    const held = await createRide({ db: db() }, { driverId: d2.id, date: addDays(today, 4) });
    await createRideRequest({ db: db() }, { rideId: held.id, riderId: me.id, status: "accepted" });
    expect(await nextIds(me.id)).toEqual([held.id]);
  });

  it("reads on indexes: the driver's rides by (driver, status, departs_at), the rider's by their requests", async () => {
    const me = await signedInUser();
    const plans: string[][] = [];
    for (const q of nextRideQueries(db(), me.id, Date.now())) {
      const { sql, params } = q.toSQL();
      const rows = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      plans.push(rows.results.map((r) => r.detail));
    }
    const [driven, riders, ridden] = plans;
    expect(driven.join("\n")).toMatch(
      /SEARCH rides USING INDEX rides_driver_status_idx \(driver_id=\? AND status=\? AND departs_at>\?\)/,
    );
    expect(driven.join("\n")).not.toMatch(/TEMP B-TREE/);
    expect(riders.join("\n")).toMatch(/SEARCH ride_requests USING INDEX ride_requests_ride_idx/);
    expect(ridden.join("\n")).toMatch(/SEARCH ride_requests USING INDEX ride_requests_rider_status_idx/);
    expect(ridden.join("\n")).toMatch(
      /SEARCH rides USING INDEX sqlite_autoindex_rides_1|SEARCH rides USING INTEGER PRIMARY KEY/,
    );
    for (const p of plans) expect(p.join("\n")).not.toMatch(/SCAN (rides|ride_requests)\b(?! USING)/);
  });
});

describe("the dashboard page opens with the next ride", () => {
  it("shows when, where, who, the seat price, the status and the actions, in at most 2 D1 round trips", async () => {
    const today = istDate();
    const date = addDays(today, 2);
    const me = await signedInUser({ fullName: "Meera Krishnan" });
    const dinesh = await signedInUser({ fullName: "Dinesh Driver" });
    const ride = await createRide(
      { db: db() },
      { driverId: dinesh.id, date, time: "18:45", seats: 3, tripCostPaise: 20000, fromLocation: "HSR Layout" },
    );
    const seat = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: me.id, status: "accepted" });

    const res = await debugFetch(`${BASE}/dashboard`, { headers: { Cookie: me.cookie } });
    expect(res.status).toBe(200);
    const timing = /d1;(?:dur=[\d.]+;)?desc="[^"]*queries=(\d+)/.exec(res.headers.get("Server-Timing") ?? "");
    expect(Number(timing?.[1])).toBeLessThanOrEqual(2);
    const html = await res.text();
    const card = /data-testid="next-ride"[\s\S]*?<\/li>/.exec(html)?.[0] ?? "";
    const [y, m, d] = date.split("-").map(Number);
    const weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
    expect(card).toContain(weekday);
    expect(card).toContain("6:45 PM");
    expect(card).toMatch(/Pickup: <span[^>]*>HSR Layout/);
    expect(card).toContain("Driver: Dinesh Driver");
    expect(card).toContain("₹66.66 a seat");
    expect(card).toContain("Seat confirmed");
    expect(card).toContain(`href="/dashboard/messages?to=${dinesh.id}&amp;ride=${ride.id}"`);
    expect(card).toContain(`href="/rides/${ride.id}/calendar.ics"`);
    expect(card).toMatch(new RegExp(`<form method="post" action="/rides/${ride.id}"`));
    expect(card).toContain(`name="requestId" value="${seat.id}"`);
    expect(card).toMatch(/name="intent" value="cancel-request"/);
    // The next ride comes before the stats and Recent Rides.
    expect(html.indexOf('data-testid="next-ride"')).toBeLessThan(html.indexOf('data-testid="stat-total-rides"'));

    // Cancel this day: the existing path, back to the dashboard with a toast, and the card is gone.
    const cancel = await postForm(
      `/rides/${ride.id}`,
      { intent: "cancel-request", requestId: seat.id, redirectTo: "/dashboard" },
      { cookie: me.cookie },
    );
    expect(cancel.status).toBe(302);
    expect(cancel.headers.get("Location")).toBe("/dashboard");
    const [row] = await db().select().from(rideRequests).where(eq(rideRequests.id, seat.id));
    expect(row.status).toBe("cancelled");
    const after = await (await get("/dashboard", { cookie: me.cookie })).text();
    expect(after).toContain('data-testid="no-next-ride"');
    expect(after).toContain("No upcoming rides.");
  });

  it("a driver's commute day: its riders, Message each, and Cancel this day skips the day on the commute page", async () => {
    const today = istDate();
    const me = await signedInUser({ fullName: "Divya Driver" });
    const rita = await signedInUser({ fullName: "Rita Rider" });
    const commute = await createCommutePattern({ db: db() }, { driverId: me.id });
    const day = await createRide({ db: db() }, { driverId: me.id, date: addDays(today, 1), time: "08:30" });
    await db().update(rides).set({ commuteId: commute.id }).where(eq(rides.id, day.id));
    await createRideRequest({ db: db() }, { rideId: day.id, riderId: rita.id, status: "accepted" });

    const html = await (await get("/dashboard", { cookie: me.cookie })).text();
    const card = /data-testid="next-ride" data-role="driver"[\s\S]*?<\/li>/.exec(html)?.[0] ?? "";
    expect(card).toContain("8:30 AM");
    expect(card).toContain("Riders: Rita Rider (1 seat)");
    expect(card).toContain("You drive · 1 of 3 booked");
    expect(card).toContain(`href="/dashboard/messages?to=${rita.id}&amp;ride=${day.id}"`);
    expect(card).toMatch(new RegExp(`action="/commutes/${commute.id}"`));
    expect(card).toMatch(/name="intent" value="skip"/);

    const skip = await postForm(
      `/commutes/${commute.id}`,
      { intent: "skip", rideId: day.id, redirectTo: "/dashboard" },
      { cookie: me.cookie },
    );
    expect(skip.status).toBe(302);
    expect(skip.headers.get("Location")).toBe("/dashboard");
    const [row] = await db().select({ status: rides.status }).from(rides).where(eq(rides.id, day.id));
    expect(row.status).toBe("cancelled");
    expect(await nextIds(me.id)).toEqual([]);
  });

  it("Recent Rides lists rides that have left, the latest first, never future ones", async () => {
    const today = istDate();
    const me = await signedInUser();
    const dinesh = await signedInUser();
    const ids: Record<string, string> = {};
    for (const [name, days] of [
      ["far future", 9],
      ["future", 3],
      ["two ago", -2],
      ["five ago", -5],
      ["one ago", -1],
      ["ten ago", -10],
      ["twenty ago", -20],
    ] as const)
      ids[name] = (await createRide({ db: db() }, { driverId: me.id, date: addDays(today, days) })).id;
    const rode = await createRide({ db: db() }, { driverId: dinesh.id, date: addDays(today, -3), status: "completed" });
    await createRideRequest({ db: db() }, { rideId: rode.id, riderId: me.id, status: "accepted" });
    const d = await getDashboard({ db: db() }, me.id);
    expect(d.recentRides.map((r) => r.id)).toEqual([ids["one ago"], ids["two ago"], rode.id, ids["five ago"]]);
    expect(d.nextRides.map((r) => r.id)).toEqual([ids.future, ids["far future"]]);
  });
});
