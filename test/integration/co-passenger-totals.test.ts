// Issue 40 (ADR 0064): the dashboard's Co-Passengers is a count the database keeps with triggers
// (migrations/0048_co_passenger_totals.sql) instead of a read of the person's whole history. The
// kept pairs must always equal a recount from rides and requests, through every way a person
// joins or leaves a ride, and concurrent decisions must never count a ride twice.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createRide, createRideRequest } from "../../db/factories";
import { addDays, istDate, istToInstant } from "~/domain/time";
import { completeRide } from "~/models/completion.server";
import { getDashboard } from "~/models/dashboard.server";
import { deleteMyAccount } from "~/models/own-data.server";
import { cancelRide } from "~/models/ride-publishing.server";
import { cancelRequest, decideRequest } from "~/models/ride-requests.server";
import { db, signedInUser } from "../support/worker";

type Pair = { user_id: string; other_id: string; rides: number };

/** Pairs of people who shared a ride (not cancelled), both ways, counted from the history itself. */
const RECOUNT = `WITH m(ride_id, user_id) AS (
    SELECT id, driver_id FROM rides WHERE status <> 'cancelled'
    UNION ALL
    SELECT rr.ride_id, rr.rider_id FROM ride_requests rr JOIN rides r ON r.id = rr.ride_id
    WHERE rr.status = 'accepted' AND r.status <> 'cancelled')
  SELECT a.user_id, b.user_id AS other_id, count(*) AS rides FROM m a JOIN m b
    ON b.ride_id = a.ride_id AND b.user_id <> a.user_id
  WHERE a.user_id IN (SELECT value FROM json_each(?1))
  GROUP BY a.user_id, b.user_id ORDER BY 1, 2`;

const inList = (ids: string[]) => JSON.stringify(ids);

async function kept(ids: string[]) {
  const pairs = await env.DB.prepare(
    "SELECT user_id, other_id, rides FROM co_passengers WHERE user_id IN (SELECT value FROM json_each(?1)) ORDER BY 1, 2",
  )
    .bind(inList(ids))
    .all<Pair>();
  const counts = await env.DB.prepare(
    "SELECT user_id, people FROM co_passenger_counts WHERE user_id IN (SELECT value FROM json_each(?1)) AND people <> 0 ORDER BY 1",
  )
    .bind(inList(ids))
    .all<{ user_id: string; people: number }>();
  return { pairs: pairs.results, counts: counts.results };
}

/** The kept pairs and counts of `ids` are exactly what their history says, and the dashboard shows it. */
async function expectExact(ids: string[], step: string) {
  const recount = (await env.DB.prepare(RECOUNT).bind(inList(ids)).all<Pair>()).results;
  const people = new Map<string, number>();
  for (const p of recount) people.set(p.user_id, (people.get(p.user_id) ?? 0) + 1);
  const got = await kept(ids);
  expect(got.pairs, step).toEqual(recount);
  expect(got.counts, step).toEqual(
    [...people].sort(([a], [b]) => (a < b ? -1 : 1)).map(([user_id, n]) => ({ user_id, people: n })),
  );
  for (const id of ids) {
    const d = await getDashboard({ db: db() }, id);
    expect(d.stats.coPassengers, `${step}: ${id}`).toBe(people.get(id) ?? 0);
  }
}

describe("co-passenger totals kept by the database", () => {
  it("match a recount after accepting, a seat given up, a ride cancelled, a completion and an account deleted", async () => {
    const today = istDate();
    const [driver, a, b, c, d2] = await Promise.all(
      ["Deepa Driver", "Arun", "Bina", "Chetan", "Dev Second"].map((fullName) => signedInUser({ fullName })),
    );
    const ids = [driver.id, a.id, b.id, c.id, d2.id];
    const ctx = { db: db() };
    await expectExact(ids, "nothing shared yet");

    // Tomorrow's ride: three riders ask, the driver accepts two, one of them gives the seat up.
    const tomorrow = await createRide(ctx, { driverId: driver.id, date: addDays(today, 1), seats: 4 });
    const [qa, qb, qc] = await Promise.all(
      [a, b, c].map((r) => createRideRequest(ctx, { rideId: tomorrow.id, riderId: r.id, status: "pending" })),
    );
    await expectExact(ids, "pending requests share nothing");
    await decideRequest(ctx, driver.id, qa.id, "accepted");
    await decideRequest(ctx, driver.id, qb.id, "accepted");
    await decideRequest(ctx, driver.id, qc.id, "rejected");
    await expectExact(ids, "two accepted");
    expect((await getDashboard(ctx, a.id)).stats.coPassengers).toBe(2); // the driver and Bina
    await cancelRequest(ctx, b.id, qb.id);
    await expectExact(ids, "a seat given up");
    expect((await getDashboard(ctx, a.id)).stats.coPassengers).toBe(1);

    // Yesterday's ride with Arun and Chetan, completed; a ride with Dev, cancelled by its driver.
    const yesterday = await createRide(ctx, {
      driverId: driver.id,
      date: addDays(today, -1),
      time: "09:00",
      seats: 3,
    });
    await createRideRequest(ctx, { rideId: yesterday.id, riderId: a.id, status: "accepted" });
    await createRideRequest(ctx, { rideId: yesterday.id, riderId: c.id, status: "accepted" });
    await createRideRequest(ctx, { rideId: yesterday.id, riderId: d2.id, status: "pending" });
    await completeRide(ctx, driver.id, yesterday.id);
    await expectExact(ids, "a completion (the pending request expires, nobody joins)");
    // Arun shared two rides with the driver: one pair, two rides.
    expect((await kept([a.id])).pairs.find((p) => p.other_id === driver.id)?.rides).toBe(2);

    const later = await createRide(ctx, { driverId: driver.id, date: addDays(today, 3), seats: 3 });
    await createRideRequest(ctx, { rideId: later.id, riderId: d2.id, status: "accepted" });
    await createRideRequest(ctx, { rideId: later.id, riderId: b.id, status: "accepted" });
    await expectExact(ids, "two seats on a later ride");
    // Any statement that cancels a ride, even one leaving its requests accepted, and one that
    // brings it back (no path does today) keep the pairs exact.
    const direct = await createRide(ctx, { driverId: d2.id, date: addDays(today, 4), seats: 3 });
    await createRideRequest(ctx, { rideId: direct.id, riderId: a.id, status: "accepted" });
    await createRideRequest(ctx, { rideId: direct.id, riderId: b.id, status: "accepted" });
    await env.DB.prepare("UPDATE rides SET status = 'cancelled' WHERE id = ?").bind(direct.id).run();
    await expectExact(ids, "a ride cancelled with its requests left accepted");
    await env.DB.prepare("UPDATE rides SET status = 'active' WHERE id = ?").bind(direct.id).run();
    await expectExact(ids, "the ride brought back");
    await env.DB.prepare("UPDATE rides SET status = 'cancelled' WHERE id = ?").bind(direct.id).run();
    await cancelRide(ctx, driver.id, later.id, { reason: null });
    await expectExact(ids, "the later ride cancelled");
    expect((await getDashboard(ctx, d2.id)).stats.coPassengers).toBe(0);

    // Chetan rides again with Arun on another driver's ride, then deletes the account: the seat
    // ahead is given up, the ride that left stays shared, Chetan's own figures go.
    const next = await createRide(ctx, { driverId: d2.id, date: addDays(today, 2), seats: 3 });
    await createRideRequest(ctx, { rideId: next.id, riderId: c.id, status: "accepted" });
    await createRideRequest(ctx, { rideId: next.id, riderId: a.id, status: "accepted" });
    await expectExact(ids, "Chetan and Arun on Dev's ride");
    await deleteMyAccount(ctx, c.id);
    const others = ids.filter((id) => id !== c.id);
    await expectExact(others, "after Chetan deleted the account");
    expect(await kept([c.id])).toEqual({ pairs: [], counts: [] });
    // The driver still shared yesterday's ride with Chetan.
    expect((await kept([driver.id])).pairs.map((p) => p.other_id)).toContain(c.id);
  });

  it("never counts a ride twice: every request on a ride accepted twice at once, and the ride completed twice at once", async () => {
    const today = istDate();
    for (let round = 0; round < 5; round++) {
      const driver = await signedInUser();
      const riders = await Promise.all(Array.from({ length: 5 }, () => signedInUser()));
      const ids = [driver.id, ...riders.map((r) => r.id)];
      const ctx = { db: db() };
      const ride = await createRide(ctx, { driverId: driver.id, date: addDays(today, -1), time: "08:00", seats: 6 });
      const requests = await Promise.all(
        riders.map((r) => createRideRequest(ctx, { rideId: ride.id, riderId: r.id, status: "pending" })),
      );
      // Decided while the ride was still ahead (an hour before it left).
      const before = istToInstant(addDays(today, -1), "07:00");
      const decided = await Promise.allSettled(
        [...requests, ...requests].map((q) => decideRequest(ctx, driver.id, q.id, "accepted", before)),
      );
      expect(decided.filter((x) => x.status === "fulfilled").length, `round ${round}`).toBeGreaterThanOrEqual(5);
      await expectExact(ids, `round ${round}: accepted`);
      // Six members: each has five co-passengers, each pair one ride.
      const { pairs } = await kept(ids);
      expect(pairs, `round ${round}`).toHaveLength(30);
      expect(new Set(pairs.map((p) => p.rides)), `round ${round}`).toEqual(new Set([1]));
      await Promise.allSettled([completeRide(ctx, driver.id, ride.id), completeRide(ctx, driver.id, ride.id)]);
      await expectExact(ids, `round ${round}: completed`);
    }
  }, 120_000);
});
