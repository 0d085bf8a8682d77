import { env } from "../support/env";
import { describe, expect, it, vi } from "vitest";
import { addMember, createCommunity, createRide, createRideRequest } from "../../db/factories";
import { addDays, istDate, istTime } from "~/domain/time";
import { NOT_RIDE_DAY, PICKUP_CODE_TRIES, SHARE_AFTER_END_MS, TOO_MANY_CODES, WRONG_PICKUP_CODE } from "~/domain/trip";
import { deliverOutbox } from "~/models/outbox/deliver.server";
import { BOARDED_NOT_NO_SHOW } from "~/models/reliability.server";
import { markPickedUp, NO_EMERGENCY_EMAIL, TOO_MANY_ALERTS, tripDayQueries } from "~/models/trip.server";
import { toastOf } from "../support/rides";
import { Browser, db, get, postForm, signedInUser, tableCounts } from "../support/worker";

// Issue 37, items 1-4: the trip on the day of the ride (trip status, pickup code, share my
// trip, the alert to the emergency contact), through the real worker and D1.

const DRIVER_PHONE = "9845012345";
const RIDER_PHONE = "9900112233";

// Departing now, so that the ride can also be completed (from 30 minutes before departure).
async function tripToday({ date = istDate(), time = istTime() } = {}) {
  const driver = await signedInUser({
    fullName: "Priya Raman",
    email: "priya.raman@example.test",
    profile: {
      phoneNumber: DRIVER_PHONE,
      vehicleInfo: {
        has_car: true,
        make: "Maruti",
        model: "Swift Dzire",
        color: "Pearl White",
        license_plate: "KA 05 MN 1234",
      },
    },
  });
  const rider = await signedInUser({
    fullName: "Arjun Mehta",
    email: "arjun.mehta@example.test",
    profile: { phoneNumber: RIDER_PHONE },
  });
  const other = await signedInUser({ fullName: "Kavya Iyer", email: "kavya.iyer@example.test" });
  const member = await signedInUser({ fullName: "Member Only" });
  const stranger = await signedInUser({ fullName: "Stranger Danger" });
  const community = await createCommunity({ db: db() }, { createdBy: driver.id, name: `HSR Sector 2 ${Date.now()}` });
  for (const u of [rider, other, member]) await addMember({ db: db() }, { communityId: community.id, userId: u.id });
  const ride = await createRide(
    { db: db() },
    {
      driverId: driver.id,
      communityId: community.id,
      seats: 3,
      date,
      time,
      fromLocation: "HSR Layout",
      toLocation: "Manyata Tech Park",
    },
  );
  const req = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, status: "accepted" });
  const otherReq = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: other.id, status: "accepted" });
  return { driver, rider, other, member, stranger, ride, req, otherReq };
}

const trip = (rideId: string, cookie: string, fields: Record<string, string>) =>
  postForm(`/rides/${rideId}/trip`, fields, { cookie });
const codeOf = async (requestId: string) =>
  (await env.DB.prepare("SELECT pickup_code FROM ride_requests WHERE id = ?")
    .bind(requestId)
    .first<{ pickup_code: string | null }>())!.pickup_code!;
const marks = (requestId: string) =>
  env.DB.prepare("SELECT picked_up_at, dropped_at, no_show_at FROM ride_requests WHERE id = ?")
    .bind(requestId)
    .first<{ picked_up_at: number | null; dropped_at: number | null; no_show_at: number | null }>();
const rideMarks = (rideId: string) =>
  env.DB.prepare("SELECT trip_started_at, trip_ended_at FROM rides WHERE id = ?")
    .bind(rideId)
    .first<{ trip_started_at: number | null; trip_ended_at: number | null }>();
const page = async (path: string, cookie?: string) => (await get(path, { cookie })).text();
const wrongCode = (code: string) => (code === "0000" ? "1111" : "0000");

describe("trip status on the day (item 1)", () => {
  it("only the driver changes the status: riders and members get 403, outsiders 404, nothing changes", async () => {
    const t = await tripToday();
    const before = await tableCounts();
    const all: Record<string, string>[] = [
      { intent: "start-trip" },
      { intent: "end-trip" },
      { intent: "picked-up", requestId: t.req.id, code: await codeOf(t.req.id) },
      { intent: "dropped", requestId: t.req.id },
    ];
    for (const fields of all) {
      for (const who of [t.rider, t.other, t.member])
        expect((await trip(t.ride.id, who.cookie, fields)).status).toBe(403);
      expect((await trip(t.ride.id, t.stranger.cookie, fields)).status).toBe(404);
    }
    expect(await tableCounts()).toEqual(before);
    expect(await rideMarks(t.ride.id)).toEqual({ trip_started_at: null, trip_ended_at: null });
    expect(await marks(t.req.id)).toMatchObject({ picked_up_at: null });
  });

  it("only on the ride's day (IST): the day before, even the driver is refused with a toast", async () => {
    const t = await tripToday({ date: addDays(istDate(), 1) });
    const res = await trip(t.ride.id, t.driver.cookie, { intent: "start-trip" });
    expect(res.status).toBe(302);
    expect(toastOf(res)).toMatchObject({ type: "error", description: NOT_RIDE_DAY });
    expect(await rideMarks(t.ride.id)).toEqual({ trip_started_at: null, trip_ended_at: null });
    // Nor is the panel shown before the day.
    expect(await page(`/rides/${t.ride.id}`, t.driver.cookie)).not.toContain("Start trip");
  });

  it("start, picked up (with the code), dropped, end: the rider sees each status; End trip leads to completion", async () => {
    const t = await tripToday();
    const riderPage = () => page(`/rides/${t.ride.id}`, t.rider.cookie);
    expect(await riderPage()).toContain("Not started yet");
    expect(await page(`/rides/${t.ride.id}`, t.driver.cookie)).toContain("Start trip");

    const started = await trip(t.ride.id, t.driver.cookie, { intent: "start-trip" });
    expect(started.headers.get("Location")).toBe(`/rides/${t.ride.id}#trip`);
    expect(toastOf(started)?.title).toBe("Trip started");
    expect(await riderPage()).toContain("On the way");
    const notified = await env.DB.prepare("SELECT title FROM notifications WHERE user_id = ? ORDER BY created_at")
      .bind(t.rider.id)
      .all<{ title: string }>();
    expect(notified.results.map((n) => n.title)).toContain("Your driver has started the trip");

    const picked = await trip(t.ride.id, t.driver.cookie, {
      intent: "picked-up",
      requestId: t.req.id,
      code: await codeOf(t.req.id),
    });
    expect(toastOf(picked)?.title).toBe("Rider picked up");
    expect((await marks(t.req.id))?.picked_up_at).not.toBeNull();
    expect(await riderPage()).toContain("Picked up");

    const dropped = await trip(t.ride.id, t.driver.cookie, { intent: "dropped", requestId: t.req.id });
    expect(toastOf(dropped)?.title).toBe("Rider dropped");
    expect(await riderPage()).toContain("Dropped");

    const ended = await trip(t.ride.id, t.driver.cookie, { intent: "end-trip" });
    expect(ended.headers.get("Location")).toBe(`/rides/${t.ride.id}/completion`);
    expect(await riderPage()).toContain("Trip ended");
    // Nothing more can change once it ended.
    const again = await trip(t.ride.id, t.driver.cookie, { intent: "start-trip" });
    expect(toastOf(again)).toMatchObject({ type: "error" });
  });

  it("a no-show cannot be claimed for a rider whose code was entered; one never picked up can be marked", async () => {
    const t = await tripToday();
    await trip(t.ride.id, t.driver.cookie, { intent: "start-trip" });
    await trip(t.ride.id, t.driver.cookie, { intent: "picked-up", requestId: t.req.id, code: await codeOf(t.req.id) });
    await trip(t.ride.id, t.driver.cookie, { intent: "end-trip" });
    const done = await postForm(`/rides/${t.ride.id}/completion`, { intent: "complete" }, { cookie: t.driver.cookie });
    expect(toastOf(done)?.title).toBe("Ride Completed!");
    const completion = await page(`/rides/${t.ride.id}/completion`, t.driver.cookie);
    expect(completion).toContain("Boarded (pickup code entered)");

    const boarded = await postForm(
      `/rides/${t.ride.id}/completion`,
      { intent: "no-show", riderId: t.rider.id },
      { cookie: t.driver.cookie },
    );
    expect(toastOf(boarded)).toMatchObject({ type: "error", description: BOARDED_NOT_NO_SHOW });
    expect((await marks(t.req.id))?.no_show_at).toBeNull();

    const absent = await postForm(
      `/rides/${t.ride.id}/completion`,
      { intent: "no-show", riderId: t.other.id },
      { cookie: t.driver.cookie },
    );
    expect(toastOf(absent)?.title).toBe("Marked as a no-show");
    expect((await marks(t.otherReq.id))?.no_show_at).not.toBeNull();
  });
});

describe("the pickup code (item 2)", () => {
  it("each rider sees only their own code, on the ride page and the dashboard; the driver sees none", async () => {
    const t = await tripToday();
    // A ride later today, so that the dashboard lists it as the next ride.
    const later = await createRide({ db: db() }, { driverId: t.driver.id, date: istDate(), time: "23:59" });
    const laterReq = await createRideRequest(
      { db: db() },
      { rideId: later.id, riderId: t.rider.id, status: "accepted" },
    );
    const shown = (html: string, testid: string) =>
      [...html.matchAll(new RegExp(`data-testid="${testid}"[^>]*>(\\d{4})<`, "g"))].map((m) => m[1]);
    expect(shown(await page(`/rides/${t.ride.id}`, t.rider.cookie), "pickup-code")).toEqual([await codeOf(t.req.id)]);
    expect(shown(await page(`/rides/${t.ride.id}`, t.other.cookie), "pickup-code")).toEqual([
      await codeOf(t.otherReq.id),
    ]);
    expect(shown(await page(`/rides/${t.ride.id}`, t.driver.cookie), "pickup-code")).toEqual([]);
    // Nor does a rider's code leave D1 in the driver's reads (defence in depth under the page).
    const [, riders] = await db().batch(tripDayQueries({ db: db() }, t.driver.id, t.ride.id));
    expect(riders.map((r) => [r.riderId, r.code]).sort()).toEqual(
      [
        [t.rider.id, null],
        [t.other.id, null],
      ].sort(),
    );
    const dashboard = await page("/dashboard", t.rider.cookie);
    if (Date.now() < later.departsAt)
      expect(shown(dashboard, "next-ride-pickup-code")).toContain(await codeOf(laterReq.id));
  });

  it("a wrong code changes nothing; after 5 wrong tries even the right code is refused for a while", async () => {
    const t = await tripToday();
    await trip(t.ride.id, t.driver.cookie, { intent: "start-trip" });
    const right = await codeOf(t.req.id);
    const badFormat = await trip(t.ride.id, t.driver.cookie, { intent: "picked-up", requestId: t.req.id, code: "12" });
    expect(toastOf(badFormat)).toMatchObject({ type: "error", description: "Enter the rider's 4-digit pickup code" });
    const toasts = [];
    for (let i = 0; i < PICKUP_CODE_TRIES; i++) {
      const res = await trip(t.ride.id, t.driver.cookie, {
        intent: "picked-up",
        requestId: t.req.id,
        code: wrongCode(right),
      });
      expect(res.status).toBe(302);
      toasts.push(toastOf(res)?.description);
    }
    expect(toasts.slice(0, -1)).toEqual(Array(PICKUP_CODE_TRIES - 1).fill(WRONG_PICKUP_CODE));
    expect(toasts.at(-1)).toBe(TOO_MANY_CODES);
    expect((await marks(t.req.id))?.picked_up_at).toBeNull();
    const locked = await trip(t.ride.id, t.driver.cookie, { intent: "picked-up", requestId: t.req.id, code: right });
    expect(toastOf(locked)?.description).toBe(TOO_MANY_CODES);
    expect((await marks(t.req.id))?.picked_up_at).toBeNull();
    // The limit is per booking: the other rider's code still works.
    const other = await trip(t.ride.id, t.driver.cookie, {
      intent: "picked-up",
      requestId: t.otherReq.id,
      code: await codeOf(t.otherReq.id),
    });
    expect(toastOf(other)?.title).toBe("Rider picked up");
  });

  it("every booking gets a random 4-digit code when it is made, by whichever path", async () => {
    const t = await tripToday();
    // A seat booked through the app (not the factory) gets one as well.
    const booker = await signedInUser({ fullName: "Booked Throughapp" });
    await addMember({ db: db() }, { communityId: t.ride.communityId!, userId: booker.id });
    const tomorrow = await createRide(
      { db: db() },
      { driverId: t.driver.id, communityId: t.ride.communityId, seats: 3, date: addDays(istDate(), 1), time: "09:00" },
    );
    const booked = await postForm(`/rides/${tomorrow.id}/book`, { seats: "1", notes: "" }, { cookie: booker.cookie });
    expect(booked.status).toBe(302);
    const rows = await env.DB.prepare("SELECT rider_id, pickup_code FROM ride_requests WHERE ride_id IN (?, ?)")
      .bind(t.ride.id, tomorrow.id)
      .all<{ rider_id: string; pickup_code: string | null }>();
    expect(rows.results.map((r) => r.rider_id).sort()).toEqual([t.rider.id, t.other.id, booker.id].sort());
    for (const r of rows.results) expect(r.pickup_code).toMatch(/^\d{4}$/);
    // Random, not a function of anything a person can see: 40 bookings do not share one code.
    const many = await createRide({ db: db() }, { driverId: t.driver.id, seats: 6, date: addDays(istDate(), 2) });
    const codes = new Set<string>();
    for (let i = 0; i < 40; i++) {
      const u = await signedInUser();
      const r = await createRideRequest({ db: db() }, { rideId: many.id, riderId: u.id, status: "rejected" });
      codes.add(await codeOf(r.id));
    }
    expect(codes.size).toBeGreaterThan(20);
  });

  it("rotating SESSION_SECRET changes no code a rider has already read (ADR 0058)", async () => {
    const t = await tripToday();
    const read = /data-testid="pickup-code"[^>]*>(\d{4})</.exec(await page(`/rides/${t.ride.id}`, t.rider.cookie))![1];
    await trip(t.ride.id, t.driver.cookie, { intent: "start-trip" });
    // The worker after a rotation: the same D1, another secret.
    const rotated = { db: db(), env: { ...env, SESSION_SECRET: "a-rotated-session-secret-of-some-length" } };
    await markPickedUp(rotated, t.driver.id, { rideId: t.ride.id, requestId: t.req.id, code: read });
    expect((await marks(t.req.id))?.picked_up_at).not.toBeNull();
  });
});

/** The link a person just made, as the ride page shows it to them. */
async function shareLink(rideId: string, cookie: string) {
  const b = new Browser();
  b.cookies.set("lr_session", cookie.split("=")[1]);
  const made = await b.post(`/rides/${rideId}/trip`, { intent: "share-trip" });
  expect(toastOf(made)?.title).toBe("Trip link ready");
  const html = await (await b.get(`/rides/${rideId}`)).text();
  const m = /\/trip\/([0-9a-f]{64})/.exec(html);
  expect(m, "the link is on the page").not.toBeNull();
  return { path: `/trip/${m![1]}`, browser: b, html };
}

describe("share my trip (item 3)", () => {
  it("shows the ride, the driver's first name and car and the live status; nothing else about anyone", async () => {
    const t = await tripToday();
    const { path, html: ridePage } = await shareLink(t.ride.id, t.rider.cookie);
    expect(ridePage).toContain("Send by WhatsApp");
    expect(ridePage).toMatch(/href="https:\/\/wa\.me\/\?text=[^"]*trip/);
    expect(ridePage).toContain("mailto:?subject=");
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
    expect(res.headers.get("X-Robots-Tag")).toContain("noindex");
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const shared = await res.text();
    for (const shown of [
      "HSR Layout",
      "Manyata Tech Park",
      "Priya",
      "Swift Dzire",
      "Pearl White",
      "KA 05 MN 1234",
      "Not started yet",
    ])
      expect(shared).toContain(shown);
    for (const hidden of [
      "Raman",
      "Arjun",
      "Mehta",
      "Kavya",
      "Iyer",
      DRIVER_PHONE,
      RIDER_PHONE,
      "@example.test",
      t.driver.id,
      t.rider.id,
    ])
      expect(shared).not.toContain(hidden);
    // Nor either rider's pickup code (the link's viewer is not the driver at the car).
    for (const id of [t.req.id, t.otherReq.id]) expect(shared).not.toMatch(new RegExp(`>${await codeOf(id)}<`));
    expect(shared).toContain('name="robots" content="noindex, nofollow"');
    // The ride's route on the map (issue 36 has landed), with its text alternative.
    expect(shared).toContain('data-testid="route-map"');
    expect(shared).toContain("Route map: HSR Layout to Manyata Tech Park");

    await trip(t.ride.id, t.driver.cookie, { intent: "start-trip" });
    expect(await page(path)).toContain("On the way");
    await trip(t.ride.id, t.driver.cookie, { intent: "picked-up", requestId: t.req.id, code: await codeOf(t.req.id) });
    expect(await page(path)).toMatch(/Picked up<\/dt>/);
    await trip(t.ride.id, t.driver.cookie, { intent: "end-trip" });
    expect(await page(path)).toContain("Trip ended");
  });

  it("a revoked link, a link an hour after the trip ended, and a made-up token are 404", async () => {
    const t = await tripToday();
    const a = await shareLink(t.ride.id, t.driver.cookie);
    const b = await shareLink(t.ride.id, t.rider.cookie);
    expect((await get(a.path)).status).toBe(200);

    // Revoke: only its maker can.
    const shareId = /name="shareId" value="([^"]+)"/.exec(a.html)![1];
    const notMine = await trip(t.ride.id, t.rider.cookie, { intent: "revoke-share", shareId });
    expect(notMine.status).toBe(404);
    expect((await get(a.path)).status).toBe(200);
    const revoked = await a.browser.post(`/rides/${t.ride.id}/trip`, { intent: "revoke-share", shareId });
    expect(toastOf(revoked)?.title).toBe("Link revoked");
    expect((await get(a.path)).status).toBe(404);
    expect((await get(`/trip-photo/${a.path.slice(6)}`)).status).toBe(404);

    await trip(t.ride.id, t.driver.cookie, { intent: "start-trip" });
    await trip(t.ride.id, t.driver.cookie, { intent: "end-trip" });
    const endedAt = (await rideMarks(t.ride.id))!.trip_ended_at!;
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    vi.setSystemTime(endedAt + SHARE_AFTER_END_MS - 60_000);
    expect((await get(b.path)).status).toBe(200);
    vi.setSystemTime(endedAt + SHARE_AFTER_END_MS + 1000);
    expect((await get(b.path)).status).toBe(404);
    // Nor can a new one be made then.
    expect(toastOf(await trip(t.ride.id, t.rider.cookie, { intent: "share-trip" }))).toMatchObject({ type: "error" });
    vi.useRealTimers();

    expect((await get(`/trip/${"0".repeat(64)}`)).status).toBe(404);
    expect((await get("/trip/not-a-token")).status).toBe(404);
  });

  it("only people on the trip can make a link; a rider who cancels ends their links", async () => {
    const t = await tripToday();
    for (const who of [t.member, t.stranger])
      expect((await trip(t.ride.id, who.cookie, { intent: "share-trip" })).status).toBe(404);
    const { path } = await shareLink(t.ride.id, t.other.cookie);
    await env.DB.prepare("UPDATE ride_requests SET status = 'cancelled' WHERE id = ?").bind(t.otherReq.id).run();
    expect((await get(path)).status).toBe(404);
  });
});

describe("emergency contact and SOS (item 4)", () => {
  it("the ride page on the day shows 112 as a tel: link", async () => {
    const t = await tripToday();
    expect(await page(`/rides/${t.ride.id}`, t.rider.cookie)).toContain('href="tel:112"');
  });

  it("without an emergency e-mail the alert is refused with a clear message", async () => {
    const t = await tripToday();
    const res = await trip(t.ride.id, t.rider.cookie, { intent: "alert-contact" });
    expect(toastOf(res)).toMatchObject({ type: "error", description: NO_EMERGENCY_EMAIL });
  });

  it("e-mails the contact a working share link through the outbox (never storing it); limited per hour", async () => {
    const t = await tripToday();
    const saved = await postForm(
      "/dashboard/profile",
      { fullName: "Arjun Mehta", emergencyContactEmail: "Amma.Mehta@Example.test" },
      { cookie: t.rider.cookie },
    );
    expect(toastOf(saved)?.title).toBe("Profile updated successfully.");
    const bad = await postForm(
      "/dashboard/profile",
      { fullName: "Arjun Mehta", emergencyContactEmail: "amma" },
      { cookie: t.rider.cookie },
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter a valid e-mail address");

    const res = await trip(t.ride.id, t.rider.cookie, { intent: "alert-contact" });
    expect(toastOf(res)?.title).toBe("Emergency contact alerted");
    const row = await env.DB.prepare("SELECT payload FROM outbox WHERE user_id = ? AND kind = 'emergency_alert'")
      .bind(t.rider.id)
      .first<{ payload: string }>();
    expect(row!.payload).not.toMatch(/[0-9a-f]{64}/);
    await deliverOutbox({ db: db(), env }, { push: null });
    const mail = await env.DB.prepare("SELECT subject, text_body FROM mail_sink WHERE to_address = ?")
      .bind("amma.mehta@example.test")
      .first<{ subject: string; text_body: string }>();
    expect(mail?.subject).toBe("Arjun Mehta shared their LoopRide trip with you");
    expect(mail?.text_body).toContain("call 112");
    const link = /\/trip\/[0-9a-f]{64}/.exec(mail!.text_body)![0];
    const shared = await page(link);
    expect(shared).toContain("Manyata Tech Park");
    // The ride page lists it, with Revoke.
    expect(await page(`/rides/${t.ride.id}`, t.rider.cookie)).toContain("Sent to your emergency contact");

    await trip(t.ride.id, t.rider.cookie, { intent: "alert-contact" });
    await trip(t.ride.id, t.rider.cookie, { intent: "alert-contact" });
    const fourth = await trip(t.ride.id, t.rider.cookie, { intent: "alert-contact" });
    expect(toastOf(fourth)).toMatchObject({ type: "error", description: TOO_MANY_ALERTS });
  });
});
