import { describe, expect, it } from "vitest";
import { createRide, createRideRequest } from "../../db/factories";
import { dashboardWindow, weeklySavings } from "~/domain/dashboard";
import { addDays, istDate, istToInstant } from "~/domain/time";
import { getDashboard } from "~/models/dashboard.server";
import { db, get, signedInUser } from "../support/worker";

const stat = (html: string, id: string) => Number(new RegExp(`data-testid="${id}">(\\d+)<`).exec(html)?.[1]);

describe("dashboard overview", () => {
  it("computes the four figures from the user's rides, with the 30-day window in Bengaluru time", async () => {
    const now = Date.now();
    const today = istDate(now);
    const me = await signedInUser({ fullName: "Meera Krishnan" });
    const [r1, r2, r3, r4, d] = await Promise.all(
      ["R One", "R Two", "R Three", "R Four", "Dinesh Driver"].map((n) => signedInUser({ fullName: n })),
    );

    // I drove: 23:30 IST exactly 30 days ago (in), 31 days ago (out), a cancelled one in the window (out).
    const in30 = await createRide(
      { db: db() },
      {
        driverId: me.id,
        date: addDays(today, -30),
        time: "23:30",
        seats: 3,
        tripCostPaise: 30000,
        status: "completed",
      },
    );
    await createRideRequest({ db: db() }, { rideId: in30.id, riderId: r1.id, seats: 2, status: "accepted" });
    const out31 = await createRide(
      { db: db() },
      {
        driverId: me.id,
        date: addDays(today, -31),
        time: "23:30",
        seats: 3,
        tripCostPaise: 30000,
        status: "completed",
      },
    );
    await createRideRequest({ db: db() }, { rideId: out31.id, riderId: r2.id, seats: 1, status: "accepted" });
    const cancelled = await createRide(
      { db: db() },
      { driverId: me.id, date: addDays(today, -3), status: "cancelled" },
    );
    await createRideRequest({ db: db() }, { rideId: cancelled.id, riderId: r4.id, status: "pending" });
    // I rode 5 days ago with a fellow rider; a pending request elsewhere does not count.
    const rode = await createRide(
      { db: db() },
      { driverId: d.id, date: addDays(today, -5), seats: 3, tripCostPaise: 24000, status: "completed" },
    );
    await createRideRequest({ db: db() }, { rideId: rode.id, riderId: me.id, seats: 1, status: "accepted" });
    await createRideRequest({ db: db() }, { rideId: rode.id, riderId: r3.id, seats: 1, status: "accepted" });
    const pendingRide = await createRide(
      { db: db() },
      { driverId: r4.id, date: addDays(today, -2), status: "completed" },
    );
    await createRideRequest({ db: db() }, { rideId: pendingRide.id, riderId: me.id, status: "pending" });
    // Upcoming: my active ride tomorrow, and an accepted seat on Dinesh's ride in 2 days.
    await createRide({ db: db() }, { driverId: me.id, date: addDays(today, 1) });
    const next = await createRide({ db: db() }, { driverId: d.id, date: addDays(today, 2) });
    await createRideRequest({ db: db() }, { rideId: next.id, riderId: me.id, status: "accepted" });

    const html = await (await get("/dashboard", { cookie: me.cookie })).text();
    expect(html).toContain("Welcome back, Meera");
    expect(stat(html, "stat-total-rides")).toBe(2); // in30 + rode
    expect(stat(html, "stat-co-passengers")).toBe(4); // r1, r2, Dinesh, r3
    expect(stat(html, "stat-upcoming-rides")).toBe(2);
    expect(stat(html, "stat-traffic-hours")).toBe(1); // round(2 × 0.5)

    // Savings over 8 weeks: in30 (2 seats × ₹100), out31 (1 × ₹100), rode (1 × ₹80); CO2 2.5 kg a seat.
    expect(html).toMatch(/data-testid="savings-money">₹380.00</);
    expect(html).toMatch(/data-testid="savings-co2">10 kg</);
    expect(html).toContain('data-testid="savings-table"');
    expect(html).toContain("Money saved per week");

    // Recent rides: at most 4 that have left, newest departure first, status capitalised and
    // coloured; the upcoming ones are the next rides at the top (issue 35).
    expect(html.match(/data-testid="recent-ride"/g)).toHaveLength(4);
    expect(html).toContain("View All Rides");
    expect(html).toContain('href="/dashboard/my-rides"');
    expect(html).toMatch(/bg-red-100[^>]*>Cancelled</);
    expect(html).toContain(`href="/dashboard/messages?to=${d.id}"`);
    expect(html).toContain("Message Dinesh Driver");
    expect(html.match(/data-testid="next-ride"/g)).toHaveLength(2);
    expect(html).toContain(`href="/dashboard/messages?to=${d.id}&amp;ride=${next.id}"`);
  });

  it("counts a ride at 23:30 IST 30 days ago but not 31 days ago, whatever the UTC date", async () => {
    const now = istToInstant("2026-03-31", "00:15"); // 2026-03-30 18:45 UTC
    const w = dashboardWindow(now);
    expect(istToInstant("2026-03-01", "23:30") >= w.start).toBe(true);
    expect(istToInstant("2026-02-28", "23:30") < w.start).toBe(true);
    expect(w.end).toBe(istToInstant("2026-04-01", "00:00"));
    const me = await signedInUser();
    await createRide({ db: db() }, { driverId: me.id, date: "2026-03-01", time: "23:30", status: "completed" });
    await createRide({ db: db() }, { driverId: me.id, date: "2026-02-28", time: "23:30", status: "completed" });
    const d = await getDashboard({ db: db() }, me.id, now);
    expect(d.stats.totalRides).toBe(1);
  });

  it("an empty dashboard: 'User' greeting without a name, zero figures, empty states", async () => {
    // A driver: a rider without a car is offered Find your commute instead (first-steps.test.ts).
    const me = await signedInUser({ fullName: null, profile: { vehicleInfo: { has_car: true, car_type: "petrol" } } });
    const html = await (await get("/dashboard", { cookie: me.cookie })).text();
    expect(html).toContain("Welcome back, User");
    for (const id of ["stat-total-rides", "stat-co-passengers", "stat-upcoming-rides", "stat-traffic-hours"])
      expect(stat(html, id)).toBe(0);
    expect(html).toContain("No rides yet");
    expect(html).toContain('href="/rides/create"');
    expect(html).toContain("Create your first ride");
    expect(html).toContain("No notifications yet");
  });

  it("shows relative dates (Today, Yesterday, N days ago) and never another user's rides", async () => {
    const me = await signedInUser();
    const today = istDate();
    await createRide({ db: db() }, { driverId: me.id, date: today, time: "00:00", status: "completed" });
    await createRide({ db: db() }, { driverId: me.id, date: addDays(today, -1), status: "completed" });
    await createRide({ db: db() }, { driverId: me.id, date: addDays(today, -3), status: "completed" });
    await createRide({ db: db() }, { driverId: me.id, date: "2025-01-05", status: "completed" });
    const html = await (await get("/dashboard", { cookie: me.cookie })).text();
    expect(html).toContain("Today");
    expect(html).toContain("Yesterday");
    expect(html).toContain("3 days ago");
    expect(html).toMatch(/bg-green-100[^>]*>Completed</);
    // Another user's rides never show.
    const other = await signedInUser();
    const theirs = await (await get("/dashboard", { cookie: other.cookie })).text();
    expect(theirs).toContain("No rides yet");
  });

  it("weekly savings put each past seat in its IST week", () => {
    const now = istToInstant("2026-03-31", "12:00");
    const weeks = weeklySavings(
      [
        { departsAt: istToInstant("2026-03-31", "08:00"), tripCostPaise: 30000, rideSeats: 3, seats: 1 },
        { departsAt: istToInstant("2026-03-25", "08:00"), tripCostPaise: 30000, rideSeats: 3, seats: 2 },
        { departsAt: istToInstant("2026-03-31", "18:00"), tripCostPaise: 30000, rideSeats: 3, seats: 1 }, // later today: not yet
        { departsAt: istToInstant("2026-01-01", "08:00"), tripCostPaise: 30000, rideSeats: 3, seats: 1 }, // before the 8 weeks
      ],
      now,
    );
    expect(weeks).toHaveLength(8);
    expect(weeks[7]).toEqual({ weekOf: "2026-03-25", moneyPaise: 30000, co2Kg: 7.5 });
    expect(weeks.slice(0, 7).every((w) => w.moneyPaise === 0)).toBe(true);
  });
});
