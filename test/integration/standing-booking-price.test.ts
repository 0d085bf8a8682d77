// A standing booking keeps its price (issue 35, ADR 0055): the days the daily top-up adds
// later record the seat price the rider was shown when booking, so completion never asks
// more, even after the driver raised the commute's price; the rise reaches every standing
// rider as a change notice that names it.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { changePattern, createCommute, pauseBooking, topUpCommutes } from "~/models/commutes.server";
import { completeRide } from "~/models/completion.server";
import { toastOf } from "../support/rides";
import { db, notificationsFor, postForm, signedInUser } from "../support/worker";

const DAY = 86_400_000;
const ctx = () => ({ db: db() });
const EVERY_DAY = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

type Quote = { id: string; date: string; status: string; quoted_paise: number | null; trip_cost_paise: number };
async function requestsOf(riderId: string, commuteId: string) {
  const r = await env.DB.prepare(
    `SELECT o.id, o.date, q.status, q.quoted_paise, o.trip_cost_paise FROM ride_requests q
     JOIN rides o ON o.id = q.ride_id WHERE q.rider_id = ? AND o.commute_id = ? ORDER BY o.date`,
  )
    .bind(riderId, commuteId)
    .all<Quote>();
  return r.results;
}

/** A daily commute (₹300, 3 seats), the rider booked every day and accepted; in a community (equal split) if asked. */
async function commuteBookedEveryDay(inCommunity = false) {
  const driver = await signedInUser({ fullName: "Deepa Driver" });
  const rider = await signedInUser({ fullName: "Priya Rider" });
  const community = inCommunity
    ? await createCommunity(ctx(), {
        createdBy: driver.id,
        name: `Koramangala Block 5 ${crypto.randomUUID().slice(0, 8)}`,
      })
    : null;
  if (community) await addMember(ctx(), { communityId: community.id, userId: rider.id });
  const { id } = await createCommute(ctx(), driver.id, {
    fromLocation: "HSR Layout",
    toLocation: "Manyata Tech Park",
    weekdays: 127,
    time: "08:30",
    startDate: addDays(istDate(), 1),
    endDate: null,
    seats: 3,
    // ₹300 a trip, ₹100 a seat.
    tripCost: 30000,
    notes: null,
    communityId: community?.id ?? null,
  });
  const booked = await postForm(
    `/commutes/${id}`,
    { intent: "book-all", weekdays: EVERY_DAY, seats: "1" },
    { cookie: rider.cookie },
  );
  expect(toastOf(booked)?.title).toBe("Requests sent");
  await postForm(`/commutes/${id}`, { intent: "accept-all", riderId: rider.id }, { cookie: driver.cookie });
  return { driver, rider, id };
}

/** The driver sets a new trip cost from tomorrow; the top-up 15 days later adds days: the rider's new requests. */
async function repriceThenTopUp(driverId: string, riderId: string, commuteId: string, tripCost: number) {
  const before = await requestsOf(riderId, commuteId);
  await changePattern(ctx(), driverId, commuteId, {
    fromDate: addDays(istDate(), 1),
    time: "08:30",
    seats: 3,
    tripCost,
  });
  const created = await topUpCommutes(ctx(), Date.now() + 15 * DAY);
  return { created, added: (await requestsOf(riderId, commuteId)).slice(before.length) };
}

/** Completes a day an hour after it leaves: what the rider owes for it, and the day's pricing. */
async function owedFor(driverId: string, riderId: string, rideId: string) {
  const day = await env.DB.prepare("SELECT departs_at, pricing_mode FROM rides WHERE id = ?")
    .bind(rideId)
    .first<{ departs_at: number; pricing_mode: string | null }>();
  await completeRide(ctx(), driverId, rideId, day!.departs_at + 3_600_000);
  const owed = await env.DB.prepare("SELECT amount_paise FROM payments WHERE ride_id = ? AND payer_id = ?")
    .bind(rideId, riderId)
    .first<{ amount_paise: number }>();
  return { owed: owed?.amount_paise, pricingMode: day?.pricing_mode ?? null };
}

describe("a standing booking keeps the price it was booked at", () => {
  it("the booking records the seat price shown; after a price rise the top-up's new days owe no more", async () => {
    const { driver, rider, id } = await commuteBookedEveryDay();
    const quoted = await env.DB.prepare(
      "SELECT quoted_paise FROM commute_bookings WHERE commute_id = ? AND rider_id = ?",
    )
      .bind(id, rider.id)
      .first<{ quoted_paise: number }>();
    expect(quoted?.quoted_paise).toBe(10000);

    // The driver doubles the price from tomorrow (₹200 a seat); 15 days later the top-up adds
    // days at the new price, and the rider is booked on them at the old one.
    const { created, added } = await repriceThenTopUp(driver.id, rider.id, id, 60000);
    expect(created.length).toBeGreaterThanOrEqual(13);
    expect(added).toHaveLength(created.length);
    for (const r of added) {
      expect(r.status).toBe("accepted");
      expect(r.trip_cost_paise).toBe(60000);
      expect(r.quoted_paise).toBe(10000);
    }
    // Completion asks what was shown, not the new ₹200.
    expect((await owedFor(driver.id, rider.id, added[0].id)).owed).toBe(10000);
  });

  it("equal split (a community's default): a lone regular on a new day owes at most the booked ₹100, not half of ₹600", async () => {
    const { driver, rider, id } = await commuteBookedEveryDay(true);
    const { added } = await repriceThenTopUp(driver.id, rider.id, id, 60000);
    expect(added.length).toBeGreaterThan(0);
    const { owed, pricingMode } = await owedFor(driver.id, rider.id, added[0].id);
    expect(pricingMode ?? "equal").toBe("equal");
    expect(owed).toBe(10000);
  });

  it("a lower price on a new day is what it records (the booked price is a ceiling)", async () => {
    const { driver, rider, id } = await commuteBookedEveryDay();
    const { added } = await repriceThenTopUp(driver.id, rider.id, id, 15000);
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((r) => r.quoted_paise === 5000)).toBe(true);
  });

  it("the rise is a change notice naming the new and old seat price, to a paused standing rider too", async () => {
    const { driver, rider, id } = await commuteBookedEveryDay();
    // A second regular is away the whole horizon: no live day, but still a standing rider.
    const away = await signedInUser({ fullName: "Ravi Away" });
    await postForm(`/commutes/${id}`, { intent: "book-all", weekdays: EVERY_DAY, seats: "1" }, { cookie: away.cookie });
    await pauseBooking(ctx(), away.id, id, { from: istDate(), until: addDays(istDate(), 30) });
    const res = await changePattern(ctx(), driver.id, id, {
      fromDate: addDays(istDate(), 1),
      time: "08:30",
      seats: 3,
      tripCost: 60000,
    });
    expect(new Set(res.audience.notified)).toEqual(new Set([rider.id, away.id]));
    for (const who of [rider, away]) {
      const told = (await notificationsFor(who.id, ["title", "message", "data"])).filter(
        (n) => n.title === "Commute changed",
      );
      expect(told, who.id).toHaveLength(1);
      expect(told[0].message).toContain("A seat now costs ₹200.00 (was ₹100.00)");
      expect(told[0].message).toContain("the days your standing booking adds later, keep the price you booked at");
      expect(told[0].data).toMatchObject({ commute_id: id, change: "pattern" });
    }
    // E-mailed as every change notice is (migration 0031).
    const mailed = await env.DB.prepare("SELECT count(*) AS n FROM outbox WHERE user_id = ? AND channel = 'email'")
      .bind(away.id)
      .first<{ n: number }>();
    expect(mailed?.n).toBeGreaterThanOrEqual(1);
  });
});
