import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRide, createRideRequest } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { ratingSummaries } from "~/models/ratings.server";
import { Browser, db, get, postForm, signedInUser, tableCounts } from "../support/worker";

// Rides are completed after they depart (or from 30 minutes before): these departed yesterday.
async function rideWithRiders({
  sameCommunity = true,
  riderSeats = [1, 1],
  tripCostPaise = 30000,
  seats = 3,
  date = addDays(istDate(), -1),
} = {}) {
  const driver = await signedInUser({ fullName: "Priya Driver" });
  const riders = [];
  for (const [i] of riderSeats.entries()) riders.push(await signedInUser({ fullName: `Rider ${i + 1}` }));
  const community = await createCommunity({ db: db() }, { createdBy: driver.id, name: "HSR Layout Sector 2" });
  for (const [i, r] of riders.entries()) {
    if (sameCommunity || i === 0) await addMember({ db: db() }, { communityId: community.id, userId: r.id });
  }
  const ride = await createRide(
    { db: db() },
    { driverId: driver.id, communityId: community.id, seats, tripCostPaise, date },
  );
  for (const [i, r] of riders.entries())
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: r.id, seats: riderSeats[i], status: "accepted" });
  const stranger = await signedInUser({ fullName: "Stranger" });
  return { driver, riders, ride, community, stranger };
}

const complete = (rideId: string, cookie: string) =>
  postForm(`/rides/${rideId}/completion`, { intent: "complete" }, { cookie });
const paymentsOf = async (rideId: string) =>
  (
    await env.DB.prepare(
      "SELECT payer_id, amount_paise, seats, status FROM payments WHERE ride_id = ? ORDER BY payer_id",
    )
      .bind(rideId)
      .all()
  ).results;

describe("completing a ride", () => {
  it("only the driver can complete; others get 403 and nothing changes", async () => {
    const { ride, riders, stranger } = await rideWithRiders();
    const before = await tableCounts();
    for (const who of [riders[0], stranger]) {
      expect((await complete(ride.id, who.cookie)).status).toBe(403);
    }
    expect(await tableCounts()).toEqual(before);
    expect(await env.DB.prepare("SELECT status FROM rides WHERE id = ?").bind(ride.id).first()).toEqual({
      status: "active",
    });
  });

  it("split mode: driver and riders in the community share equally; riders are notified; toast", async () => {
    const { ride, riders, driver } = await rideWithRiders({ tripCostPaise: 30001 });
    const b = new Browser();
    b.cookies.set("lr_session", driver.cookie.split("=")[1]);
    const res = await b.post(`/rides/${ride.id}/completion`, { intent: "complete" });
    expect(res.headers.get("Location")).toBe(`/rides/${ride.id}/completion`);
    const page = await b.follow(res);
    expect(page.html).toContain("Ride Completed!");
    expect(page.html).toContain("Fuel Cost Split Applied");
    expect(page.html).toContain("Equal share");
    expect(page.html).toContain("HSR Layout Sector 2");
    const pays = await paymentsOf(ride.id);
    expect(pays.map((p) => p.amount_paise)).toEqual([10000, 10000]);
    expect(await env.DB.prepare("SELECT status, split_mode FROM rides WHERE id = ?").bind(ride.id).first()).toEqual({
      status: "completed",
      split_mode: "split",
    });
    const notes = await env.DB.prepare(
      "SELECT user_id FROM notifications WHERE type = 'ride_update' AND json_extract(data, '$.status') = 'completed' ORDER BY user_id",
    ).all();
    expect(notes.results.map((n) => n.user_id)).toEqual(riders.map((r) => r.id).sort());
  });

  it("standard mode when a rider is not a member: seats x cost per seat, 'Cost Per Seat'", async () => {
    const { ride, driver } = await rideWithRiders({ sameCommunity: false, riderSeats: [2, 1], tripCostPaise: 30000 });
    await complete(ride.id, driver.cookie);
    expect((await paymentsOf(ride.id)).map((p) => p.amount_paise).sort()).toEqual([10000, 20000]);
    const html = await (await get(`/rides/${ride.id}/completion`, { cookie: driver.cookie })).text();
    expect(html).toContain("Cost Per Seat");
    expect(html).toContain("No charge");
    expect(html).toContain("2 seats");
    expect(html).toContain("1 seat");
  });

  it("completing twice, even 20 times at once, creates one set of payments and notifications", async () => {
    const { ride, driver } = await rideWithRiders();
    const results = await Promise.all(Array.from({ length: 20 }, () => complete(ride.id, driver.cookie)));
    expect(results.every((r) => r.status === 302)).toBe(true);
    expect(await paymentsOf(ride.id)).toHaveLength(2);
    await complete(ride.id, driver.cookie);
    expect(await paymentsOf(ride.id)).toHaveLength(2);
    const n = await env.DB.prepare(
      "SELECT count(*) AS n FROM notifications WHERE json_extract(data, '$.status') = 'completed'",
    ).first<{ n: number }>();
    expect(n!.n).toBe(2);
  });

  it("a ride without booked seats cannot be completed", async () => {
    const driver = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: driver.id });
    const res = await complete(ride.id, driver.cookie);
    expect(res.status).toBe(302);
    expect(await env.DB.prepare("SELECT status FROM rides WHERE id = ?").bind(ride.id).first()).toEqual({
      status: "active",
    });
  });

  it("with JavaScript the action answers in place (the page waits 1.5 s before showing the breakdown)", async () => {
    const { ride, driver } = await rideWithRiders();
    const res = await postForm(
      `/rides/${ride.id}/completion`,
      { intent: "complete", js: "1" },
      { cookie: driver.cookie },
    );
    expect(res.status).toBe(200);
    expect(await paymentsOf(ride.id)).toHaveLength(2);
  });

  it("an unknown intent is a 400", async () => {
    const { ride, driver } = await rideWithRiders();
    expect(
      (await postForm(`/rides/${ride.id}/completion`, { intent: "teleport" }, { cookie: driver.cookie })).status,
    ).toBe(400);
  });
});

describe("who may see the breakdown", () => {
  it("the driver and the riders may; a community member not on the ride gets 403; an outsider of the community 404, like a missing ride", async () => {
    const { ride, riders, driver, stranger, community } = await rideWithRiders();
    const neighbour = await signedInUser({ fullName: "Neighbour" });
    await addMember({ db: db() }, { communityId: community.id, userId: neighbour.id });
    await complete(ride.id, driver.cookie);
    expect((await get(`/rides/${ride.id}/completion`, { cookie: driver.cookie })).status).toBe(200);
    expect((await get(`/rides/${ride.id}/completion`, { cookie: riders[1].cookie })).status).toBe(200);
    const denied = await get(`/rides/${ride.id}/completion`, { cookie: neighbour.cookie });
    expect(denied.status).toBe(403);
    expect(await denied.text()).not.toContain("Rider 1");
    expect((await get(`/rides/${ride.id}/receipt`, { cookie: neighbour.cookie })).status).toBe(403);
    // Finding 9: the ride is shared with a community the stranger is not in; they must not
    // learn it exists.
    const hidden = await get(`/rides/${ride.id}/completion`, { cookie: stranger.cookie });
    expect(hidden.status).toBe(404);
    const hiddenText = await hidden.text();
    expect(hiddenText).toContain("Ride Not Found");
    expect(hiddenText).not.toContain("Rider 1");
    const missing = await get(`/rides/nope/completion`, { cookie: driver.cookie });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Ride Not Found");
    expect((await get(`/rides/${ride.id}/receipt`, { cookie: stranger.cookie })).status).toBe(404);
  });

  it("receipts: everyone on the ride sees the whole receipt; one rider's share only for that rider or the driver", async () => {
    const { ride, riders, driver } = await rideWithRiders();
    await complete(ride.id, driver.cookie);
    const all = await (await get(`/rides/${ride.id}/receipt`, { cookie: riders[0].cookie })).text();
    expect(all).toContain("LoopRide");
    expect(all).toContain("Rider 2");
    expect(all).toContain("₹100.00");
    expect((await get(`/rides/${ride.id}/receipt?rider=${riders[1].id}`, { cookie: riders[0].cookie })).status).toBe(
      403,
    );
    const mine = await (
      await get(`/rides/${ride.id}/receipt?rider=${riders[0].id}`, { cookie: riders[0].cookie })
    ).text();
    expect(mine).toContain("Rider receipt");
    expect(mine).not.toContain("Rider 2");
  });
});

describe("settling up", () => {
  async function completed() {
    const ctx = await rideWithRiders();
    await env.DB.prepare("UPDATE user_profiles SET upi_id = 'priya@okicici' WHERE user_id = ?")
      .bind(ctx.driver.id)
      .run();
    await complete(ctx.ride.id, ctx.driver.cookie);
    const pays = (
      await env.DB.prepare("SELECT id, payer_id FROM payments WHERE ride_id = ?")
        .bind(ctx.ride.id)
        .all<{ id: string; payer_id: string }>()
    ).results;
    const paymentOf = (userId: string) => pays.find((p) => p.payer_id === userId)!.id;
    return { ...ctx, paymentOf };
  }

  it("the rider sees a UPI link and QR code for their share", async () => {
    const { ride, riders } = await completed();
    const html = await (await get(`/rides/${ride.id}/completion`, { cookie: riders[0].cookie })).text();
    expect(html).toContain("upi://pay?pa=priya%40okicici&amp;pn=Priya%20Driver&amp;am=100.00&amp;cu=INR");
    expect(html).toContain('aria-label="UPI payment QR code"');
  });

  it("Process Payments marks them requested, notifies riders and goes to /dashboard/rides", async () => {
    const { ride, driver, riders } = await completed();
    expect(
      (await postForm(`/rides/${ride.id}/completion`, { intent: "process-payments" }, { cookie: riders[0].cookie }))
        .status,
    ).toBe(403);
    const res = await postForm(
      `/rides/${ride.id}/completion`,
      { intent: "process-payments" },
      { cookie: driver.cookie },
    );
    expect(res.headers.get("Location")).toBe("/dashboard/rides");
    expect((await paymentsOf(ride.id)).every((p) => p.status === "requested")).toBe(true);
    const n = await env.DB.prepare(
      "SELECT count(*) AS n FROM notifications WHERE json_extract(data, '$.status') = 'payment_requested'",
    ).first<{ n: number }>();
    expect(n!.n).toBe(2);
  });

  it("the payer marks paid, the payee confirms; nobody else can do either", async () => {
    const { ride, driver, riders, stranger, paymentOf } = await completed();
    const p0 = paymentOf(riders[0].id);
    const before = await tableCounts();
    for (const who of [riders[1], stranger, driver]) {
      expect(
        (
          await postForm(
            `/rides/${ride.id}/completion`,
            { intent: "mark-paid", paymentId: p0, method: "upi" },
            { cookie: who.cookie },
          )
        ).status,
      ).toBe(403);
    }
    for (const who of [riders[0], riders[1], stranger]) {
      expect(
        (
          await postForm(
            `/rides/${ride.id}/completion`,
            { intent: "confirm-received", paymentId: p0 },
            { cookie: who.cookie },
          )
        ).status,
      ).toBe(403);
    }
    expect(await tableCounts()).toEqual(before);
    expect(
      (
        await postForm(
          `/rides/${ride.id}/completion`,
          { intent: "mark-paid", paymentId: p0, method: "cash" },
          { cookie: riders[0].cookie },
        )
      ).status,
    ).toBe(302);
    expect(await env.DB.prepare("SELECT status, method FROM payments WHERE id = ?").bind(p0).first()).toEqual({
      status: "paid",
      method: "cash",
    });
    expect(
      (
        await postForm(
          `/rides/${ride.id}/completion`,
          { intent: "confirm-received", paymentId: p0 },
          { cookie: driver.cookie },
        )
      ).status,
    ).toBe(302);
    expect(await env.DB.prepare("SELECT status FROM payments WHERE id = ?").bind(p0).first()).toEqual({
      status: "received",
    });
    const bad = await postForm(
      `/rides/${ride.id}/completion`,
      { intent: "mark-paid", paymentId: p0, method: "bitcoin" },
      { cookie: riders[0].cookie },
    );
    expect(bad.status).toBe(400);
  });
});

describe("ratings", () => {
  it("participants rate each other once; the driver's average is real", async () => {
    const { ride, driver, riders } = await rideWithRiders();
    await complete(ride.id, driver.cookie);
    const rate = (cookie: string, rateeId: string, stars: string) =>
      postForm(`/rides/${ride.id}/completion`, { intent: "rate", rateeId, stars, comment: "Smooth ride" }, { cookie });
    expect((await rate(riders[0].cookie, driver.id, "5")).status).toBe(302);
    expect((await rate(riders[1].cookie, driver.id, "4")).status).toBe(302);
    expect((await rate(driver.cookie, riders[0].id, "5")).status).toBe(302);
    // Once only.
    await rate(riders[0].cookie, driver.id, "1");
    expect(await ratingSummaries({ db: db() }, [driver.id, riders[0].id, riders[1].id])).toEqual({
      [driver.id]: { average: 4.5, count: 2 },
      [riders[0].id]: { average: 5, count: 1 },
    });
    expect((await rate(riders[0].cookie, driver.id, "9")).status).toBe(400);
    // The profile's totals (kept by triggers, migration 0021) agree, and the ride page and
    // Discover show them.
    const totals = await env.DB.prepare(
      "SELECT user_id, rating_count, rating_stars FROM user_profiles WHERE user_id IN (?, ?, ?) ORDER BY rating_count DESC",
    )
      .bind(driver.id, riders[0].id, riders[1].id)
      .all<{ user_id: string; rating_count: number; rating_stars: number }>();
    expect(totals.results.map((r) => [r.user_id, r.rating_count, r.rating_stars])).toEqual([
      [driver.id, 2, 9],
      [riders[0].id, 1, 5],
      [riders[1].id, 0, 0],
    ]);
    const page = await (await get(`/rides/${ride.id}`, { cookie: riders[1].cookie })).text();
    expect(page).toMatch(/data-testid="driver-rating"[^>]*>4\.5 ★ \(2\)</);
  });

  it("a refused rating says why beside its form, keeps what was typed, and saves nothing", async () => {
    const { ride, driver, riders } = await rideWithRiders();
    await complete(ride.id, driver.cookie);
    const before = await tableCounts();
    const comment = `Punctual and kind. ${"x".repeat(500)}`;
    const res = await postForm(
      `/rides/${ride.id}/completion`,
      { intent: "rate", rateeId: driver.id, stars: "3", comment },
      { cookie: riders[0].cookie },
    );
    expect(res.status).toBe(400);
    const html = (await res.text()).replaceAll("<!-- -->", "");
    expect(html).toContain(`id="rating-error-${driver.id}" role="alert"`);
    expect(html).toContain("Your rating was not saved: Comments can be at most 500 characters");
    expect(html).toContain(`value="${comment}"`);
    expect(html).toMatch(new RegExp(`<option value="3" selected=""`));
    expect(await tableCounts()).toEqual(before);
  });

  it("a profile's rating totals follow ratings added, changed and removed, and a late profile counts earlier ratings", async () => {
    const { ride, driver, riders } = await rideWithRiders();
    await env.DB.prepare("UPDATE rides SET status = 'completed', completed_at = ? WHERE id = ?")
      .bind(Date.now(), ride.id)
      .run();
    const insert = (id: string, rater: string, ratee: string, stars: number) =>
      env.DB.prepare(
        "INSERT INTO ride_ratings (id, ride_id, rater_id, ratee_id, stars, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      ).bind(id, ride.id, rater, ratee, stars, Date.now());
    await env.DB.batch([insert("rt1", riders[0].id, driver.id, 3), insert("rt2", riders[1].id, driver.id, 4)]);
    const totalsOf = async (userId: string) =>
      env.DB.prepare("SELECT rating_count AS n, rating_stars AS s FROM user_profiles WHERE user_id = ?")
        .bind(userId)
        .first<{ n: number; s: number }>();
    expect(await totalsOf(driver.id)).toEqual({ n: 2, s: 7 });
    await env.DB.prepare("UPDATE ride_ratings SET stars = 5 WHERE id = 'rt1'").run();
    expect(await totalsOf(driver.id)).toEqual({ n: 2, s: 9 });
    await env.DB.prepare("DELETE FROM ride_ratings WHERE id = 'rt2'").run();
    expect(await totalsOf(driver.id)).toEqual({ n: 1, s: 5 });
    // A profile written after the ratings (re-created here) counts them.
    await env.DB.prepare(
      "INSERT INTO ride_ratings (id, ride_id, rater_id, ratee_id, stars, created_at) VALUES ('rt3', ?, ?, ?, 2, ?)",
    )
      .bind(ride.id, driver.id, riders[1].id, Date.now())
      .run();
    const profile = await env.DB.prepare("SELECT * FROM user_profiles WHERE user_id = ?")
      .bind(riders[1].id)
      .first<Record<string, unknown>>();
    await env.DB.prepare("DELETE FROM user_profiles WHERE user_id = ?").bind(riders[1].id).run();
    const cols = Object.keys(profile!).filter((c) => c !== "rating_count" && c !== "rating_stars");
    await env.DB.prepare(`INSERT INTO user_profiles (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`)
      .bind(...cols.map((c) => profile![c]))
      .run();
    expect(await totalsOf(riders[1].id)).toEqual({ n: 1, s: 2 });
  });

  it("nobody can rate someone they did not ride with, nor rate before completion", async () => {
    const { ride, driver, riders, stranger } = await rideWithRiders();
    const early = await postForm(
      `/rides/${ride.id}/completion`,
      { intent: "rate", rateeId: driver.id, stars: "5" },
      { cookie: riders[0].cookie },
    );
    expect(early.status).toBe(302);
    await complete(ride.id, driver.cookie);
    const before = await tableCounts();
    expect(
      (
        await postForm(
          `/rides/${ride.id}/completion`,
          { intent: "rate", rateeId: driver.id, stars: "5" },
          { cookie: stranger.cookie },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await postForm(
          `/rides/${ride.id}/completion`,
          { intent: "rate", rateeId: stranger.id, stars: "1" },
          { cookie: riders[0].cookie },
        )
      ).status,
    ).toBe(403);
    expect(await tableCounts()).toEqual(before);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM ride_ratings").first()).toEqual({ n: 0 });
  });
});
