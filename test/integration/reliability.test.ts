// Issue 16, item 5: the reliability record. Facts counted from what happened (rides
// completed as driver and rider, the driver's late cancellations, no-shows marked by the
// driver and disputed once by the rider, the median response to requests), and ratings only
// between people who rode together, once.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createCompletedRide, createRide, createRideRequest } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { rateParticipant } from "~/models/completion.server";
import { disputeNoShow, getReliabilityRecord, markNoShow, median } from "~/models/reliability.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, postForm, signedInUser } from "../support/worker";

const ctx = () => ({ db: db() });
const yesterday = () => addDays(istDate(), -1);

async function completedWith(driverId: string, riderIds: string[], date = yesterday()) {
  return createCompletedRide(ctx(), { driverId, date, riders: riderIds.map((riderId) => ({ riderId })) });
}

const completion = (rideId: string, cookie: string, fields: Record<string, string>) =>
  postForm(`/rides/${rideId}/completion`, fields, { cookie });

describe("the record", () => {
  it("counts completed rides as driver and rider, late cancellations, no-shows (disputed) and the median response", async () => {
    const driver = await signedInUser({ fullName: "Divya Driver" });
    const rider = await signedInUser({ fullName: "Rahul Rider" });
    await completedWith(driver.id, [rider.id]);
    await completedWith(driver.id, [rider.id], addDays(istDate(), -2));
    const missed = await completedWith(driver.id, [rider.id], addDays(istDate(), -3));
    // Not counted: an active ride, a cancelled one (but its late flag counts for the driver).
    await createRide(ctx(), { driverId: driver.id, date: addDays(istDate(), 2) });
    const late = await createRide(ctx(), { driverId: driver.id, date: addDays(istDate(), 1) });
    await env.DB.prepare(
      "UPDATE rides SET status = 'cancelled', cancelled_late = 1, cancel_reason = 'Flat tyre' WHERE id = ?",
    )
      .bind(late.id)
      .run();
    // The rider on someone else's ride: the driver answered one request in 10 minutes, one in 30, one in 50.
    const other = await signedInUser();
    const ride = await createRide(ctx(), { driverId: driver.id, date: addDays(istDate(), 3), seats: 4 });
    for (const minutes of [10, 30, 50]) {
      const r = await createRideRequest(ctx(), {
        rideId: ride.id,
        riderId: (await signedInUser()).id,
        status: "rejected",
        createdAt: 1_000_000,
      });
      await env.DB.prepare("UPDATE ride_requests SET decided_at = ? WHERE id = ?")
        .bind(1_000_000 + minutes * 60_000, r.id)
        .run();
    }
    // The completed rides' requests were answered in 20 minutes each.
    await env.DB.prepare("UPDATE ride_requests SET decided_at = created_at + 1200000 WHERE rider_id = ?")
      .bind(rider.id)
      .run();
    // A pending request (not answered) does not count.
    await createRideRequest(ctx(), { rideId: ride.id, riderId: other.id, status: "pending" });

    await markNoShow(ctx(), driver.id, missed.id, rider.id);
    await disputeNoShow(ctx(), rider.id, missed.id);

    expect(await getReliabilityRecord(ctx(), driver.id)).toMatchObject({
      completedAsDriver: 3,
      completedAsRider: 0,
      lateCancellations: 1,
      noShows: 0,
      // 10, 20, 20, 20, 30, 50 minutes
      medianResponseMs: 20 * 60_000,
      decisions: 6,
    });
    expect(await getReliabilityRecord(ctx(), rider.id)).toMatchObject({
      completedAsDriver: 0,
      completedAsRider: 2,
      lateCancellations: 0,
      noShows: 1,
      disputedNoShows: 1,
      medianResponseMs: null,
    });
    const page = (await (await get("/dashboard/profile", { cookie: rider.cookie })).text()).replace(
      /<!-- -->|<[^>]+>/g,
      " ",
    );
    expect(page).toContain("Your reliability record");
    expect(page).toMatch(/Rides completed as rider\s+2/);
    expect(page).toMatch(/No-shows as a rider\s+1 \(1 disputed\)/);
    const driverPage = (await (await get("/dashboard/profile", { cookie: driver.cookie })).text()).replace(
      /<!-- -->|<[^>]+>/g,
      " ",
    );
    expect(driverPage).toMatch(/Rides completed as driver\s+3/);
    expect(driverPage).toMatch(/Driver cancellations within 2 hours of departure\s+1/);
    expect(driverPage).toMatch(/Median response to ride requests\s+20 min \(last 6\)/);
    // A rider looking at the driver's ride sees the same facts beside the stars.
    const ridePage = (await (await get(`/rides/${ride.id}`, { cookie: other.cookie })).text()).replace(
      /<!-- -->|<[^>]+>/g,
      " ",
    );
    expect(ridePage).toMatch(/Driver(&#x27;|')s reliability record/);
    expect(ridePage).toMatch(/Rides completed as driver\s+3/);
    expect(ridePage).toMatch(/Driver cancellations within 2 hours of departure\s+1/);
  });

  it("median of an even count is the mean of the middle two; none is null", () => {
    expect(median([])).toBeNull();
    expect(median([5])).toBe(5);
    expect(median([40, 10, 30, 20])).toBe(25);
  });
});

describe("no-shows", () => {
  it("the driver marks an accepted rider of the completed ride; the rider is told and disputes once; the driver is told", async () => {
    const driver = await signedInUser({ fullName: "Divya Driver" });
    const rider = await signedInUser({ fullName: "Rahul Rider" });
    const ride = await completedWith(driver.id, [rider.id]);
    const page = await (await get(`/rides/${ride.id}/completion`, { cookie: driver.cookie })).text();
    expect(page).toContain("Mark no-show: Rahul Rider");

    const res = await completion(ride.id, driver.cookie, { intent: "no-show", riderId: rider.id });
    expect(toastOf(res)?.title).toBe("Marked as a no-show");
    const told = await env.DB.prepare("SELECT title FROM notifications WHERE user_id = ?")
      .bind(rider.id)
      .all<{ title: string }>();
    expect(told.results.map((r) => r.title)).toEqual(["Marked as a no-show"]);
    const riderPage = await (await get(`/rides/${ride.id}/completion`, { cookie: rider.cookie })).text();
    expect(riderPage).toContain("Dispute no-show");

    // Twice is refused, and changes nothing.
    let before = await dbChecksum();
    expect(
      toastOf(await completion(ride.id, driver.cookie, { intent: "no-show", riderId: rider.id }))?.description,
    ).toBe("This rider is already marked as a no-show.");
    expect(changedTables(before, await dbChecksum())).toEqual([]);

    const dispute = await completion(ride.id, rider.cookie, { intent: "dispute-no-show" });
    expect(toastOf(dispute)?.title).toBe("No-show disputed");
    const driverTold = await env.DB.prepare("SELECT title, message FROM notifications WHERE user_id = ?")
      .bind(driver.id)
      .all<{ title: string; message: string }>();
    expect(driverTold.results).toEqual([
      expect.objectContaining({ title: "No-show disputed", message: expect.stringContaining("Rahul Rider disputes") }),
    ]);
    before = await dbChecksum();
    expect(toastOf(await completion(ride.id, rider.cookie, { intent: "dispute-no-show" }))?.description).toBe(
      "You have already disputed this no-show.",
    );
    expect(changedTables(before, await dbChecksum())).toEqual([]);
  });

  it("only the driver marks, only a completed ride, only its accepted riders, within 7 days; only the marked rider disputes; refusals change nothing", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const stranger = await signedInUser();
    const ride = await completedWith(driver.id, [rider.id]);
    const old = await completedWith(driver.id, [rider.id], addDays(istDate(), -10));
    const active = await createRide(ctx(), { driverId: driver.id, date: addDays(istDate(), 1) });
    await createRideRequest(ctx(), { rideId: active.id, riderId: rider.id, status: "accepted" });
    const cases: [string, string, string, Record<string, string>, number | string][] = [
      ["the rider marks themself", rider.cookie, ride.id, { intent: "no-show", riderId: rider.id }, 403],
      ["a stranger marks the rider", stranger.cookie, ride.id, { intent: "no-show", riderId: rider.id }, 403],
      ["the driver marks a stranger", driver.cookie, ride.id, { intent: "no-show", riderId: stranger.id }, 404],
      [
        "the driver marks on an active ride",
        driver.cookie,
        active.id,
        { intent: "no-show", riderId: rider.id },
        "A no-show can be marked once the ride is completed.",
      ],
      [
        "the driver marks 10 days later",
        driver.cookie,
        old.id,
        { intent: "no-show", riderId: rider.id },
        "No-shows can be marked up to 7 days after the ride.",
      ],
      ["the driver marks without a rider", driver.cookie, ride.id, { intent: "no-show" }, 400],
      [
        "the rider disputes an unmarked ride",
        rider.cookie,
        ride.id,
        { intent: "dispute-no-show" },
        "You are not marked as a no-show on this ride.",
      ],
      ["a stranger disputes", stranger.cookie, ride.id, { intent: "dispute-no-show" }, 403],
    ];
    for (const [label, cookie, rideId, fields, expected] of cases) {
      const before = await dbChecksum();
      const res = await completion(rideId, cookie, fields);
      if (typeof expected === "number") expect(res.status, label).toBe(expected);
      else expect(toastOf(res)?.description, label).toBe(expected);
      expect(changedTables(before, await dbChecksum()), label).toEqual([]);
    }
  });

  it("ten marks and ten disputes at once: one mark, one dispute, one notification each", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const ride = await completedWith(driver.id, [rider.id]);
    const marks = await Promise.allSettled(
      Array.from({ length: 10 }, () => markNoShow(ctx(), driver.id, ride.id, rider.id)),
    );
    expect(marks.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const disputes = await Promise.allSettled(
      Array.from({ length: 10 }, () => disputeNoShow(ctx(), rider.id, ride.id)),
    );
    expect(disputes.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const n = await env.DB.prepare(
      "SELECT user_id, count(*) AS n FROM notifications WHERE user_id IN (?, ?) GROUP BY user_id ORDER BY user_id",
    )
      .bind(driver.id, rider.id)
      .all<{ user_id: string; n: number }>();
    expect(n.results.map((r) => r.n)).toEqual([1, 1]);
  });
});

describe("ratings: only people who rode together, once", () => {
  it("a co-rider rates once; an outsider and a rider of another ride cannot; 10 ratings at once leave one row", async () => {
    const driver = await signedInUser();
    const a = await signedInUser();
    const b = await signedInUser();
    const outsider = await signedInUser();
    const ride = await completedWith(driver.id, [a.id, b.id]);
    const otherRide = await completedWith(driver.id, [outsider.id]);
    // Co-riders (rider to rider, rider to driver) may rate.
    await rateParticipant(ctx(), a.id, ride.id, { rateeId: b.id, stars: 5, comment: null });
    // Not co-riders: refused, nothing written.
    const before = await dbChecksum();
    await expect(
      rateParticipant(ctx(), outsider.id, ride.id, { rateeId: driver.id, stars: 1, comment: null }),
    ).rejects.toThrow("You can only rate people you rode with.");
    await expect(
      rateParticipant(ctx(), a.id, otherRide.id, { rateeId: outsider.id, stars: 1, comment: null }),
    ).rejects.toThrow("You can only rate people you rode with.");
    const viaRoute = await completion(ride.id, outsider.cookie, { intent: "rate", rateeId: driver.id, stars: "1" });
    expect(viaRoute.status).toBe(403);
    expect(changedTables(before, await dbChecksum())).toEqual([]);

    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        rateParticipant(ctx(), b.id, ride.id, { rateeId: driver.id, stars: (i % 5) + 1, comment: null }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results)
      if (r.status === "rejected")
        expect((r.reason as Error).message).toBe("You have already rated this person for this ride.");
    const rows = await env.DB.prepare(
      "SELECT count(*) AS n FROM ride_ratings WHERE ride_id = ? AND rater_id = ? AND ratee_id = ?",
    )
      .bind(ride.id, b.id, driver.id)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });
});
