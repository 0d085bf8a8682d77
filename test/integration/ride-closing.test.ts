// Issue 19, finding 4: no request changes on completed or cancelled (or departed) rides;
// pending requests expire when a ride completes or departs; a ride is completed only from
// 30 minutes before its departure. Each refusal is a toast and changes nothing.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "../support/env";
import worker from "../../server";
import { describe, expect, it } from "vitest";
import { createRide, createRideRequest, createUser } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { TOO_EARLY_TO_COMPLETE } from "~/domain/rides";
import { expireDepartedRequests } from "~/models/ride-requests.server";
import { db, get, postForm, signedInUser } from "../support/worker";
import { toastOf } from "../support/rides";
import { changedTables, dbChecksum } from "../support/db-checksum";

/** IST date and time `minutes` from now (the app's ride slots are IST wall-clock times). */
function istSlot(minutes: number) {
  const ist = new Date(Date.now() + minutes * 60_000 + 5.5 * 3600_000).toISOString();
  return { date: ist.slice(0, 10), time: ist.slice(11, 16) };
}

const statusOf = async (requestId: string) =>
  (await env.DB.prepare("SELECT status FROM ride_requests WHERE id = ?").bind(requestId).first<{ status: string }>())!
    .status;
const rideRow = (rideId: string) =>
  env.DB.prepare("SELECT status, booked_seats FROM rides WHERE id = ?")
    .bind(rideId)
    .first<{ status: string; booked_seats: number }>();

async function refusedAndUnchanged(send: () => Promise<Response>, message: RegExp) {
  const before = await dbChecksum();
  const res = await send();
  expect(res.status).toBe(302);
  expect(toastOf(res)).toMatchObject({ type: "error", description: expect.stringMatching(message) });
  expect(changedTables(before, await dbChecksum())).toEqual([]);
}

describe("requests on completed, cancelled and departed rides", () => {
  it("a rider cannot cancel a seat (accepted or pending) on a completed ride, nor the driver accept or reject: a toast says why, nothing changes", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const waiting = await signedInUser();
    // Completed 19 days before its departure (what today's main allowed): the 2-hour rule alone does not stop the cancel.
    const ride = await createRide(
      { db: db() },
      { driverId: driver.id, date: addDays(istDate(), 19), status: "completed" },
    );
    const seat = await createRideRequest(
      { db: db() },
      { rideId: ride.id, riderId: rider.id, status: "accepted", seats: 1 },
    );
    const pending = await createRideRequest(
      { db: db() },
      { rideId: ride.id, riderId: waiting.id, status: "pending", seats: 1 },
    );
    const closed = /This ride has been completed: its requests can no longer be changed\./;
    await refusedAndUnchanged(
      () => postForm(`/rides/${ride.id}`, { intent: "cancel-request", requestId: seat.id }, { cookie: rider.cookie }),
      closed,
    );
    await refusedAndUnchanged(
      () =>
        postForm(`/rides/${ride.id}`, { intent: "cancel-request", requestId: pending.id }, { cookie: waiting.cookie }),
      closed,
    );
    await refusedAndUnchanged(
      () =>
        postForm("/dashboard/rides?tab=manage", { intent: "accept", requestId: pending.id }, { cookie: driver.cookie }),
      closed,
    );
    await refusedAndUnchanged(
      () =>
        postForm("/dashboard/rides?tab=manage", { intent: "reject", requestId: pending.id }, { cookie: driver.cookie }),
      closed,
    );
    expect(await rideRow(ride.id)).toEqual({ status: "completed", booked_seats: 1 });
    // The page says why there is no Cancel button (no JavaScript needed).
    const html = await (await get(`/rides/${ride.id}`, { cookie: rider.cookie })).text();
    expect(html).toContain("This ride has been completed: its requests can no longer be changed.");
    expect(html).not.toContain("Cancel my seat");
  });

  it("nor on a cancelled ride, and a departed ride takes no accept, reject or pending cancel", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const cancelled = await createRide({ db: db() }, { driverId: driver.id, status: "cancelled" });
    const onCancelled = await createRideRequest(
      { db: db() },
      { rideId: cancelled.id, riderId: rider.id, status: "pending" },
    );
    await refusedAndUnchanged(
      () =>
        postForm(
          "/dashboard/rides?tab=manage",
          { intent: "reject", requestId: onCancelled.id },
          { cookie: driver.cookie },
        ),
      /This ride was cancelled/,
    );
    await refusedAndUnchanged(
      () =>
        postForm(
          "/dashboard/rides?tab=booked",
          { intent: "cancel-request", requestId: onCancelled.id },
          { cookie: rider.cookie },
        ),
      /This ride was cancelled/,
    );

    const departed = await createRide({ db: db() }, { driverId: driver.id, ...istSlot(-10) });
    const late = await createRideRequest({ db: db() }, { rideId: departed.id, riderId: rider.id, status: "pending" });
    const gone = /This ride has already departed/;
    await refusedAndUnchanged(
      () =>
        postForm("/dashboard/rides?tab=manage", { intent: "accept", requestId: late.id }, { cookie: driver.cookie }),
      gone,
    );
    await refusedAndUnchanged(
      () =>
        postForm("/dashboard/rides?tab=manage", { intent: "reject", requestId: late.id }, { cookie: driver.cookie }),
      gone,
    );
    await refusedAndUnchanged(
      () =>
        postForm(
          "/dashboard/rides?tab=booked",
          { intent: "cancel-request", requestId: late.id },
          { cookie: rider.cookie },
        ),
      gone,
    );
  });

  it("completing a ride expires its pending requests and tells those riders", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const waiting = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: driver.id, date: addDays(istDate(), -1) });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, status: "accepted", seats: 1 });
    const pending = await createRideRequest(
      { db: db() },
      { rideId: ride.id, riderId: waiting.id, status: "pending", seats: 1 },
    );
    const res = await postForm(`/rides/${ride.id}/completion`, { intent: "complete" }, { cookie: driver.cookie });
    expect(toastOf(res)).toMatchObject({ title: "Ride Completed!" });
    expect(await statusOf(pending.id)).toBe("expired");
    const note = await env.DB.prepare("SELECT title, data FROM notifications WHERE user_id = ?")
      .bind(waiting.id)
      .first<{ title: string; data: string }>();
    expect(note?.title).toBe("Request expired");
    expect(JSON.parse(note!.data)).toMatchObject({ ride_id: ride.id, request_id: pending.id, status: "expired" });
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE ride_id = ? AND payer_id = ?")
        .bind(ride.id, waiting.id)
        .first<{ n: number }>())!.n,
    ).toBe(0);
    // The rider's booking page says so, with nothing left to cancel.
    const page = await (await get(`/booking-confirmation/${pending.id}`, { cookie: waiting.cookie })).text();
    expect(page).toContain("Request Expired");
    expect(page).toContain("This request expired: the driver did not answer it before the ride.");
    expect(page).not.toContain("Cancel request");
  });

  it("the departure sweep (Cron Trigger) expires pending requests of departed active rides only", async () => {
    const driver = await createUser({ db: db() });
    const riders = await Promise.all([createUser({ db: db() }), createUser({ db: db() }), createUser({ db: db() })]);
    const departed = await createRide({ db: db() }, { driverId: driver.id, ...istSlot(-20) });
    const upcoming = await createRide({ db: db() }, { driverId: driver.id, ...istSlot(90) });
    const a = await createRideRequest({ db: db() }, { rideId: departed.id, riderId: riders[0].id, status: "pending" });
    const b = await createRideRequest({ db: db() }, { rideId: departed.id, riderId: riders[1].id, status: "accepted" });
    const c = await createRideRequest({ db: db() }, { rideId: upcoming.id, riderId: riders[2].id, status: "pending" });
    // The worker's scheduled handler, as the Cron Trigger calls it.
    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "*/5 * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);
    expect([await statusOf(a.id), await statusOf(b.id), await statusOf(c.id)]).toEqual([
      "expired",
      "accepted",
      "pending",
    ]);
    const notes = await env.DB.prepare("SELECT user_id FROM notifications WHERE title = 'Request expired'").all<{
      user_id: string;
    }>();
    expect(notes.results.map((n) => n.user_id)).toEqual([riders[0].id]);
    // Idempotent: a second run changes nothing.
    const before = await dbChecksum();
    expect(await expireDepartedRequests({ db: db() })).toEqual([]);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
  });
});

describe("completion only from 30 minutes before departure", () => {
  it("19 days early is refused with a toast and changes nothing; the page says why the button is disabled", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: driver.id, date: addDays(istDate(), 19) });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, status: "accepted", seats: 1 });
    await refusedAndUnchanged(
      () => postForm(`/rides/${ride.id}/completion`, { intent: "complete" }, { cookie: driver.cookie }),
      /from 30 minutes before/,
    );
    const html = await (await get(`/rides/${ride.id}/completion`, { cookie: driver.cookie })).text();
    expect(html).toContain(TOO_EARLY_TO_COMPLETE);
    expect(html).toMatch(/<button type="submit" disabled=""[^>]*>Complete Ride<\/button>/);
    const detail = await (await get(`/rides/${ride.id}`, { cookie: driver.cookie })).text();
    expect(detail).toContain(TOO_EARLY_TO_COMPLETE);
  });

  it("within the 30 minutes before departure it completes", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: driver.id, ...istSlot(20) });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, status: "accepted", seats: 1 });
    const res = await postForm(`/rides/${ride.id}/completion`, { intent: "complete" }, { cookie: driver.cookie });
    expect(toastOf(res)).toMatchObject({ title: "Ride Completed!" });
    expect((await rideRow(ride.id))!.status).toBe("completed");
  });
});

describe("races with a completion leave a consistent state (20 rounds each)", () => {
  /** Completed ⇒ no pending request, one payment per accepted request and none for anyone else; booked seats = accepted seats. */
  async function consistent(rideId: string) {
    const ride = (await rideRow(rideId))!;
    const reqs = (
      await env.DB.prepare("SELECT rider_id, status, seats FROM ride_requests WHERE ride_id = ?")
        .bind(rideId)
        .all<{ rider_id: string; status: string; seats: number }>()
    ).results;
    const payers = (
      await env.DB.prepare("SELECT payer_id FROM payments WHERE ride_id = ? ORDER BY payer_id")
        .bind(rideId)
        .all<{ payer_id: string }>()
    ).results.map((p) => p.payer_id);
    const accepted = reqs.filter((r) => r.status === "accepted");
    expect(ride.booked_seats).toBe(accepted.reduce((s, r) => s + r.seats, 0));
    if (ride.status === "completed") {
      expect(reqs.filter((r) => r.status === "pending")).toEqual([]);
      expect(payers).toEqual(accepted.map((r) => r.rider_id).sort());
    } else {
      expect(payers).toEqual([]);
    }
    return { ride, reqs };
  }

  it("a rider cancelling a pending request while the driver completes: cancelled or expired, never pending on a completed ride", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 20; round++) {
      const driver = await signedInUser();
      const a = await signedInUser();
      const p = await signedInUser();
      const ride = await createRide({ db: db() }, { driverId: driver.id, ...istSlot(15) });
      await createRideRequest({ db: db() }, { rideId: ride.id, riderId: a.id, status: "accepted", seats: 1 });
      const pending = await createRideRequest(
        { db: db() },
        { rideId: ride.id, riderId: p.id, status: "pending", seats: 1 },
      );
      const [cancel, complete] = await Promise.all([
        postForm(`/rides/${ride.id}`, { intent: "cancel-request", requestId: pending.id }, { cookie: p.cookie }),
        postForm(`/rides/${ride.id}/completion`, { intent: "complete" }, { cookie: driver.cookie }),
      ]);
      expect(complete.status).toBe(302);
      expect(cancel.status).toBe(302);
      const { ride: after } = await consistent(ride.id);
      expect(after.status).toBe("completed");
      const status = await statusOf(pending.id);
      expect(["cancelled", "expired"]).toContain(status);
      // The rider's toast matches what happened to the request.
      expect(toastOf(cancel)?.type === "error").toBe(status === "expired");
      outcomes.add(status);
    }
    expect(outcomes.size).toBeGreaterThan(0);
  }, 300_000);

  it("the driver accepting a request while completing: either the accept counts in the split or the request expires", async () => {
    for (let round = 0; round < 20; round++) {
      const driver = await signedInUser();
      const a = await signedInUser();
      const p = await signedInUser();
      const ride = await createRide({ db: db() }, { driverId: driver.id, ...istSlot(15), seats: 3 });
      await createRideRequest({ db: db() }, { rideId: ride.id, riderId: a.id, status: "accepted", seats: 1 });
      const pending = await createRideRequest(
        { db: db() },
        { rideId: ride.id, riderId: p.id, status: "pending", seats: 1 },
      );
      await Promise.all([
        postForm("/dashboard/rides?tab=manage", { intent: "accept", requestId: pending.id }, { cookie: driver.cookie }),
        postForm(`/rides/${ride.id}/completion`, { intent: "complete" }, { cookie: driver.cookie }),
      ]);
      await consistent(ride.id);
    }
  }, 300_000);
});
