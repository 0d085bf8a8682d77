// Issue 36, item 1: the standing bookings and the commute page use the matching of the single
// booking. A rider who found a commute through a mid-route pickup (Bellandur on Whitefield ->
// Electronic City Phase 1, reached by the driver's detour) books every day with that pickup;
// the top-up's requests carry it; the commute page shows it with its estimated time.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createUser } from "../../db/factories";
import { WEEKDAYS } from "~/domain/commutes";
import { addDays, istDate } from "~/domain/time";
import { bookCommute, createCommute, topUpCommutes } from "~/models/commutes.server";
import { PICKUP_OFF_ROUTE } from "~/models/ride-requests.server";
import { toastOf } from "../support/rides";
import { db, get, postForm, signedInUser } from "../support/worker";

const DAY = 86_400_000;
const ctx = () => ({ db: db() });
const ALL_DAYS = WEEKDAYS.map((d) => d.key);

/** Whitefield -> Electronic City Phase 1 every day at 8:30 from tomorrow, no vias. */
async function publish(driverId: string, now = Date.now()) {
  const c = await createCommute(
    ctx(),
    driverId,
    {
      fromLocation: "Whitefield",
      toLocation: "Electronic City Phase 1",
      weekdays: 127,
      time: "08:30",
      startDate: addDays(istDate(now), 1),
      endDate: null,
      seats: 3,
      tripCost: 30000,
      notes: null,
      communityId: null,
    },
    now,
  );
  return c.id;
}

/** The pickup point of each of the rider's live requests on the commute, by date. */
async function pickups(riderId: string, commuteId: string) {
  const r = await env.DB.prepare(
    `SELECT o.date, q.pickup_place_id AS pickup FROM ride_requests q JOIN rides o ON o.id = q.ride_id
     WHERE q.rider_id = ? AND o.commute_id = ? AND q.status IN ('pending', 'accepted') ORDER BY o.date`,
  )
    .bind(riderId, commuteId)
    .all<{ date: string; pickup: string | null }>();
  return r.results;
}

const bookingPickup = async (commuteId: string, riderId: string) =>
  (
    await env.DB.prepare(
      "SELECT pickup_place_id AS pickup, accepted_at FROM commute_bookings WHERE commute_id = ? AND rider_id = ?",
    )
      .bind(commuteId, riderId)
      .first<{ pickup: string | null; accepted_at: number | null }>()
  )?.pickup;

describe("a standing booking with a pickup point along the route", () => {
  it("the weekday search links the commute with the pickup found; booking every day keeps it on every day, new ones too", async () => {
    const driver = await signedInUser({ fullName: "Whitefield Driver", profile: { maxDetourMinutes: 15 } });
    const rider = await signedInUser({ fullName: "Bela Rider" });
    const id = await publish(driver.id);

    // The weekday search finds the commute at Bellandur and links its page with that pickup.
    const q = new URLSearchParams({
      from: "Bellandur",
      to: "Electronic City",
      time: "08:50",
      radius: "5",
      window: "30",
      mode: "weekdays",
      weekdays: WEEKDAYS[1].key,
      date: addDays(istDate(), 1),
    });
    const found = await (await get(`/rides?${q}`, { cookie: rider.cookie })).text();
    expect(found).toContain(`href="/commutes/${id}?pickup=Bellandur"`);

    // The commute page offers Bellandur, chosen, with its estimated time (9:05 by ADR 0049's model).
    const page = await (await get(`/commutes/${id}?pickup=Bellandur`, { cookie: rider.cookie })).text();
    expect(page).toMatch(/<option value="Bellandur" selected="">Bellandur · around 9:0\d AM/);

    const booked = await postForm(
      `/commutes/${id}`,
      { intent: "book-all", weekdays: ALL_DAYS, seats: "1", pickup: "Bellandur" },
      { cookie: rider.cookie },
    );
    expect(toastOf(booked)?.title).toBe("Requests sent");
    expect(await bookingPickup(id, rider.id)).toBe("bellandur");
    const first = await pickups(rider.id, id);
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((r) => r.pickup === "bellandur")).toBe(true);

    // The driver accepts the booking; a week later the top-up's requests carry the pickup too.
    await postForm(`/commutes/${id}`, { intent: "accept-all", riderId: rider.id }, { cookie: driver.cookie });
    await topUpCommutes(ctx(), Date.now() + 7 * DAY);
    const all = await pickups(rider.id, id);
    expect(all.length).toBe(first.length + 7);
    expect(all.every((r) => r.pickup === "bellandur")).toBe(true);

    // The commute page says where and around when, to the rider and to the driver.
    const mine = await (await get(`/commutes/${id}`, { cookie: rider.cookie })).text();
    expect(mine).toMatch(/data-testid="my-pickup">Picked up at Bellandur around 9:0\d AM</);
    // The rider's map marks the pickup, in its text alternative too.
    expect(mine).toMatch(/<span class="font-semibold">Pickup:<\/span> ?Bellandur/);
    const driverPage = await (await get(`/commutes/${id}`, { cookie: driver.cookie })).text();
    expect(driverPage).toMatch(/data-testid="standing-booking">[^<]* · Picked up at Bellandur around 9:0\d AM</);
  });

  it("a pickup the driver does not pass within their detour is refused with the single booking's message", async () => {
    const driver = await createUser(ctx(), { profile: { maxDetourMinutes: 15 } });
    const rider = await signedInUser();
    const id = await publish(driver.id);
    const refused = await postForm(
      `/commutes/${id}`,
      { intent: "book-all", weekdays: ALL_DAYS, seats: "1", pickup: "Yelahanka" },
      { cookie: rider.cookie },
    );
    expect(toastOf(refused)).toMatchObject({ title: "Could not request those days", description: PICKUP_OFF_ROUTE });
    expect(await pickups(rider.id, id)).toEqual([]);
    expect(await bookingPickup(id, rider.id)).toBeUndefined();
    // A driver who detours for no one passes Bellandur only by the line: refused as well.
    const strict = await createUser(ctx(), { profile: { maxDetourMinutes: 0 } });
    const other = await publish(strict.id);
    await expect(
      bookCommute(ctx(), rider.id, other, { weekdays: 127, seats: 1, notes: null, pickup: "Bellandur" }),
    ).rejects.toMatchObject({ message: PICKUP_OFF_ROUTE, field: "pickup" });
  });

  it("a new pickup point is the driver's to accept again; the start needs no pickup stored", async () => {
    const driver = await createUser(ctx(), { profile: { maxDetourMinutes: 15 } });
    const rider = await createUser(ctx());
    const id = await publish(driver.id);
    await bookCommute(ctx(), rider.id, id, { weekdays: 127, seats: 1, notes: null, pickup: "Whitefield" });
    expect(await bookingPickup(id, rider.id)).toBeNull();
    await env.DB.prepare("UPDATE commute_bookings SET accepted_at = 1 WHERE commute_id = ?").bind(id).run();
    // Asking again for the same days from Bellandur: the booking changes, and asks the driver again.
    await env.DB.prepare("UPDATE ride_requests SET status = 'cancelled' WHERE rider_id = ?").bind(rider.id).run();
    await bookCommute(ctx(), rider.id, id, { weekdays: 127, seats: 1, notes: null, pickup: "Bellandur" });
    const row = await env.DB.prepare(
      "SELECT pickup_place_id AS pickup, accepted_at FROM commute_bookings WHERE commute_id = ?",
    )
      .bind(id)
      .first();
    expect(row).toEqual({ pickup: "bellandur", accepted_at: null });
  });
});
