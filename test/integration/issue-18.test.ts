// Regression tests for the spec defects of issue 18 (money rounding, the completion badge,
// one mobile rule, late driver cancellation, discover states, My Rides order, toasts).
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRide, createRideRequest } from "../../db/factories";
import { addDays, istDate, istToInstant } from "~/domain/time";
import { Browser, db, get, postForm, signedInUser } from "../support/worker";
import { toastOf } from "../support/rides";

/** Page HTML without React's text separators, so "1 seat · ₹66.66" reads as shown. */
const page = async (res: Response) => (await res.text()).replaceAll("<!-- -->", "");

const browserOf = (user: { cookie: string }) => {
  const b = new Browser();
  b.cookies.set("lr_session", user.cookie.split("=")[1]);
  return b;
};

/** Moves a ride's departure an hour into the past (date, time and instant agree). */
async function departedAnHourAgo(rideId: string) {
  const at = Date.now() - 60 * 60 * 1000;
  const date = istDate(at);
  const time = new Intl.DateTimeFormat("en-GB", {
    timeZone: "Asia/Kolkata",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(at);
  await env.DB.prepare("UPDATE rides SET date = ?, time = ?, departs_at = ? WHERE id = ?")
    .bind(date, time, istToInstant(date, time), rideId)
    .run();
}

describe("issue 18.1: one rounding rule from the ride card to the receipt", () => {
  it("Rs 200 and 3 seats: every figure before booking is Rs 66.66, and that is what each rider owes in D1 and on the breakdown", async () => {
    const driver = await signedInUser({ fullName: "Priya Driver" });
    const riders = [
      await signedInUser({ fullName: "Rider One" }),
      await signedInUser({ fullName: "Rider Two" }),
      await signedInUser({ fullName: "Rider Three" }),
    ];
    const ride = await createRide({ db: db() }, { driverId: driver.id, seats: 3, tripCostPaise: 20000 });

    // Discover card, ride page and booking page, before booking.
    const card = await page(await get(`/rides?date=${ride.date}`, { cookie: riders[0].cookie }));
    expect(card).toContain("₹66.66");
    const ridePage = await page(await get(`/rides/${ride.id}`, { cookie: riders[0].cookie }));
    expect(ridePage).toContain("1 seat · ₹66.66");
    expect(ridePage).not.toContain("66.67");
    const bookPage = await page(await get(`/rides/${ride.id}/book`, { cookie: riders[0].cookie }));
    expect(bookPage).toContain("₹66.66");
    expect(bookPage).not.toContain("66.67");

    // Each rider books one seat from the ride page; the driver accepts.
    const requestIds: string[] = [];
    for (const r of riders) {
      const res = await postForm(
        `/rides/${ride.id}/book`,
        { source: "ride", seats: "1", notes: "" },
        { cookie: r.cookie },
      );
      expect(res.status).toBe(302);
      requestIds.push(res.headers.get("Location")!.split("/").pop()!);
    }
    for (const id of requestIds) {
      const res = await postForm(
        `/rides/${ride.id}`,
        { intent: "accept", requestId: id, redirectTo: `/rides/${ride.id}` },
        { cookie: driver.cookie },
      );
      expect(toastOf(res)?.title).toBe("Request accepted successfully!");
    }
    const confirmation = await page(await get(`/booking-confirmation/${requestIds[0]}`, { cookie: riders[0].cookie }));
    expect(confirmation).toContain("₹66.66 × 1 = ₹66.66");

    await departedAnHourAgo(ride.id);
    const done = await postForm(`/rides/${ride.id}/completion`, { intent: "complete" }, { cookie: driver.cookie });
    expect(done.status).toBe(302);
    const pays = await env.DB.prepare("SELECT amount_paise FROM payments WHERE ride_id = ?")
      .bind(ride.id)
      .all<{ amount_paise: number }>();
    expect(pays.results.map((p) => p.amount_paise)).toEqual([6666, 6666, 6666]);

    const breakdown = await page(await get(`/rides/${ride.id}/completion`, { cookie: riders[0].cookie }));
    expect(breakdown).toContain("₹66.66");
    expect(breakdown).not.toContain("66.67");
    // The receipt sums: riders' ₹199.98 plus the driver's ₹0.02 is the ₹200.00 trip cost.
    const receipt = await page(await get(`/rides/${ride.id}/receipt`, { cookie: driver.cookie }));
    expect(receipt).toMatch(/data-testid="receipt-collected"[^>]*>₹199\.98</);
    expect(receipt).toMatch(/data-testid="receipt-driver-covers"[^>]*>₹0\.02</);
  });
});

describe("issue 18.1: split mode is announced before booking", () => {
  it("a community ride's request form says the cost may be split equally instead; a ride without one does not", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const community = await createCommunity({ db: db() }, { createdBy: driver.id, name: "HSR Layout Sector 2" });
    // Community rides are shown to the community's approved members only (issue 19 finding 9).
    await addMember({ db: db() }, { communityId: community.id, userId: rider.id });
    const shared = await createRide(
      { db: db() },
      { driverId: driver.id, communityId: community.id, tripCostPaise: 20000 },
    );
    const plain = await createRide({ db: db() }, { driverId: driver.id, tripCostPaise: 20000 });
    const sharedPage = await page(await get(`/rides/${shared.id}`, { cookie: rider.cookie }));
    expect(sharedPage).toMatch(
      /data-testid="split-note"[^>]*>Community ride: if the driver and every rider are members of HSR Layout Sector 2, the trip cost of ₹200.00 is split equally/,
    );
    expect(await page(await get(`/rides/${plain.id}`, { cookie: rider.cookie }))).not.toContain("split-note");
  });
});

describe("issue 18.2: the completion page's badge names the real status", () => {
  it("Cancelled, Completed and Active", async () => {
    const driver = await signedInUser();
    const badge = async (status: "active" | "completed" | "cancelled") => {
      const ride = await createRide({ db: db() }, { driverId: driver.id, status });
      const html = await page(await get(`/rides/${ride.id}/completion`, { cookie: driver.cookie }));
      return /data-testid="ride-status"[^>]*>([^<]*)</.exec(html)?.[1];
    };
    expect(await badge("cancelled")).toBe("Cancelled");
    expect(await badge("completed")).toBe("Completed");
    expect(await badge("active")).toBe("Active");
  });
});

describe("issue 18.3: one Indian mobile rule for onboarding and profile completion", () => {
  const profilePhone = (userId: string) =>
    env.DB.prepare("SELECT phone_number FROM user_profiles WHERE user_id = ?")
      .bind(userId)
      .first<{ phone_number: string | null }>();

  it("onboarding step 1 with '98765 43210' stores 9876543210", async () => {
    const user = await signedInUser({ onboarded: false });
    const b = browserOf(user);
    const step1 = await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: "98765 43210" });
    expect(step1.headers.get("Location")).toBe("/onboarding?step=2");
    await b.post("/onboarding?step=2", { step: "2", intent: "next", hasCar: "no" });
    const done = await b.post("/onboarding?step=4", { step: "4", intent: "complete" });
    expect(done.headers.get("Location")).toBe("/dashboard");
    expect(await profilePhone(user.id)).toEqual({ phone_number: "9876543210" });
  });

  it("onboarding takes +91, 0 and dashes off, and refuses a number not starting with 6-9 with the spec's message", async () => {
    for (const [typed, stored] of [
      ["+91 98765-43210", "9876543210"],
      ["09876543210", "9876543210"],
    ]) {
      const user = await signedInUser({ onboarded: false });
      const b = browserOf(user);
      expect(
        (await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: typed })).headers.get("Location"),
      ).toBe("/onboarding?step=2");
      await b.post("/onboarding?step=2", { step: "2", intent: "next", hasCar: "no" });
      await b.post("/onboarding?step=4", { step: "4", intent: "complete" });
      expect(await profilePhone(user.id)).toEqual({ phone_number: stored });
    }
    const user = await signedInUser({ onboarded: false });
    const b = browserOf(user);
    const bad = await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: "1234567890" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter a valid 10-digit mobile number");
    // Complete Setup re-checks the draft on the server: nothing saved.
    expect((await b.post("/onboarding?step=4", { step: "4", intent: "complete" })).headers.get("Location")).toBe(
      "/onboarding?step=1",
    );
    expect(await profilePhone(user.id)).toEqual({ phone_number: null });
  });

  it("profile completion step 2 accepts the same forms and stores the 10 digits; refuses the same numbers", async () => {
    const user = await signedInUser();
    const bad = await postForm(
      "/profile-completion?step=2",
      { step: "2", phoneNumber: "1234567890", emergencyContact: "Amma 98450 12345" },
      { cookie: user.cookie },
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter a valid 10-digit mobile number");
    const empty = await postForm(
      "/profile-completion?step=2",
      { step: "2", phoneNumber: " ", emergencyContact: "Amma" },
      { cookie: user.cookie },
    );
    expect(await empty.text()).toContain("Phone number is required");
    const ok = await postForm(
      "/profile-completion?step=2",
      { step: "2", phoneNumber: "+91 98765-43210", emergencyContact: "Amma" },
      { cookie: user.cookie },
    );
    expect(ok.status).toBe(302);
    expect(await profilePhone(user.id)).toEqual({ phone_number: "9876543210" });
  });
});

describe("issue 18.7: Created Rides, next departure first", () => {
  it("upcoming rides by date ascending, then past ones", async () => {
    const driver = await signedInUser();
    const today = istDate();
    const later = await createRide(
      { db: db() },
      { driverId: driver.id, date: addDays(today, 5), fromLocation: "Koramangala" },
    );
    const next = await createRide(
      { db: db() },
      { driverId: driver.id, date: addDays(today, 1), fromLocation: "Indiranagar" },
    );
    const middle = await createRide(
      { db: db() },
      { driverId: driver.id, date: addDays(today, 3), fromLocation: "Jayanagar" },
    );
    const past = await createRide(
      { db: db() },
      { driverId: driver.id, date: addDays(today, -2), fromLocation: "Whitefield", status: "completed" },
    );
    const html = await page(await get("/dashboard/rides?tab=created", { cookie: driver.cookie }));
    const order = [...html.matchAll(/href="\/rides\/([a-z0-9]+)"/g)]
      .map((m) => m[1])
      .filter((id, i, all) => all.indexOf(id) === i);
    expect(order.filter((id) => [later.id, next.id, middle.id, past.id].includes(id))).toEqual([
      next.id,
      middle.id,
      later.id,
      past.id,
    ]);
  });
});

describe("issue 18.8: the spec's toasts of the booking flow", () => {
  it("requesting from the ride page says 'Ride request sent successfully!'; the booking page 'Ride request submitted!'", async () => {
    const driver = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: driver.id });
    const a = await signedInUser();
    const b = await signedInUser();
    const html = await page(await get(`/rides/${ride.id}`, { cookie: a.cookie }));
    expect(html).toContain('name="source" value="ride"');
    const fromRide = await postForm(`/rides/${ride.id}/book`, { source: "ride", seats: "1" }, { cookie: a.cookie });
    expect(fromRide.headers.get("Location")).toMatch(/^\/booking-confirmation\//);
    expect(toastOf(fromRide)?.title).toBe("Ride request sent successfully!");
    const fromBooking = await postForm(`/rides/${ride.id}/book`, { seats: "1" }, { cookie: b.cookie });
    expect(toastOf(fromBooking)?.title).toBe("Ride request submitted!");
  });
});

describe("issue 18.6: discover shows the viewer's own request instead of Book Now", () => {
  it("Requested and Booked link to the booking; others still see Book Now; a full ride reads 'This ride is full.'", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const other = await signedInUser();
    const date = addDays(istDate(), 2);
    const pendingRide = await createRide({ db: db() }, { driverId: driver.id, date, time: "07:00" });
    const bookedRide = await createRide({ db: db() }, { driverId: driver.id, date, time: "08:00", seats: 1 });
    const pending = await createRideRequest({ db: db() }, { rideId: pendingRide.id, riderId: rider.id });
    const booked = await createRideRequest(
      { db: db() },
      { rideId: bookedRide.id, riderId: rider.id, status: "accepted" },
    );
    // A cancelled request is not a live one: that ride offers Book Now again.
    const againRide = await createRide({ db: db() }, { driverId: driver.id, date, time: "09:00" });
    await createRideRequest({ db: db() }, { rideId: againRide.id, riderId: rider.id, status: "cancelled" });

    const cardsOf = async (cookie: string) => {
      const html = await page(await get(`/rides?date=${date}`, { cookie }));
      const cards = html.split('data-testid="ride-card"').slice(1);
      const cardOf = (id: string) => cards.find((c) => c.includes(`href="/rides/${id}"`)) ?? "";
      return { html, cardOf };
    };
    const mine = await cardsOf(rider.cookie);
    expect(mine.cardOf(pendingRide.id)).toContain(`href="/booking-confirmation/${pending.id}"`);
    expect(mine.cardOf(pendingRide.id)).toMatch(/data-testid="my-request"[^>]*>Requested</);
    expect(mine.cardOf(pendingRide.id)).not.toContain("Book Now");
    expect(mine.cardOf(bookedRide.id)).toContain(`href="/booking-confirmation/${booked.id}"`);
    expect(mine.cardOf(bookedRide.id)).toMatch(/data-testid="my-request"[^>]*>Booked</);
    expect(mine.cardOf(againRide.id)).toContain("Book Now");

    const theirs = await cardsOf(other.cookie);
    expect(theirs.cardOf(pendingRide.id)).toContain("Book Now");
    expect(theirs.cardOf(pendingRide.id)).not.toContain("Requested");
    expect(theirs.cardOf(bookedRide.id)).not.toContain("Booked");

    const full = await postForm(`/rides/${bookedRide.id}/book`, { seats: "1" }, { cookie: other.cookie });
    expect(full.status).toBe(409);
    const text = await page(full);
    expect(text).toContain("This ride is full.");
    expect(text).not.toContain("Only 0 seats");
  });
});

describe("the booking page of a ride the viewer has already asked for", () => {
  it("shows the live request (pending or accepted) instead of the form, and a cancelled one offers the form again", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const date = addDays(istDate(), 2);
    const pendingRide = await createRide({ db: db() }, { driverId: driver.id, date, time: "07:00" });
    const bookedRide = await createRide({ db: db() }, { driverId: driver.id, date, time: "08:00" });
    const againRide = await createRide({ db: db() }, { driverId: driver.id, date, time: "09:00" });
    const pending = await createRideRequest({ db: db() }, { rideId: pendingRide.id, riderId: rider.id });
    const booked = await createRideRequest(
      { db: db() },
      { rideId: bookedRide.id, riderId: rider.id, status: "accepted" },
    );
    await createRideRequest({ db: db() }, { rideId: againRide.id, riderId: rider.id, status: "cancelled" });

    const bookPage = async (rideId: string, cookie = rider.cookie) =>
      page(await get(`/rides/${rideId}/book`, { cookie }));
    for (const [ride, request, link] of [
      [pendingRide, pending, "View your request"],
      [bookedRide, booked, "View your booking"],
    ] as const) {
      const html = await bookPage(ride.id);
      expect(html).toContain("You already have a pending or accepted request for this ride.");
      expect(html).toMatch(new RegExp(`href="/booking-confirmation/${request.id}"[^>]*>${link}<`));
      expect(html).not.toContain("Request Seats");
    }
    // A cancelled request is not a live one, and another rider is not shown this rider's request.
    expect(await bookPage(againRide.id)).toContain("Request Seats");
    const other = await signedInUser();
    const theirs = await bookPage(bookedRide.id, other.cookie);
    expect(theirs).toContain("Request Seats");
    expect(theirs).not.toContain(booked.id);
  });
});

describe("the ride page's badge counts seats in words", () => {
  it("1 seat available, 3 seats available", async () => {
    const driver = await signedInUser();
    const viewer = await signedInUser();
    const one = await createRide({ db: db() }, { driverId: driver.id, seats: 3, bookedSeats: 2 });
    const three = await createRide({ db: db() }, { driverId: driver.id, seats: 3 });
    const one_ = await page(await get(`/rides/${one.id}`, { cookie: viewer.cookie }));
    expect(one_).toContain(">1 seat available<");
    expect(one_).not.toContain("1 seats available");
    expect(await page(await get(`/rides/${three.id}`, { cookie: viewer.cookie }))).toContain(">3 seats available<");
  });
});

describe("issue 18.4: a driver's late cancellation needs a reason, tells every rider and is recorded as late", () => {
  /** A ride leaving `minutes` from now, with one accepted and one pending rider. */
  async function rideLeavingIn(minutes: number) {
    const driver = await signedInUser({ fullName: "Priya Driver" });
    const at = Date.now() + minutes * 60_000;
    const date = istDate(at);
    const time = new Intl.DateTimeFormat("en-GB", {
      timeZone: "Asia/Kolkata",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).format(at);
    const ride = await createRide({ db: db() }, { driverId: driver.id, date, time });
    const accepted = await signedInUser();
    const pending = await signedInUser();
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: accepted.id, status: "accepted" });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: pending.id });
    return { driver, ride, accepted, pending };
  }
  const rideState = (id: string) =>
    env.DB.prepare("SELECT status, booked_seats, cancel_reason, cancelled_late FROM rides WHERE id = ?")
      .bind(id)
      .first();
  const cancelNotes = (userId: string) =>
    env.DB.prepare(
      "SELECT message, json_extract(data, '$.reason') AS reason, json_extract(data, '$.late') AS late FROM notifications WHERE user_id = ? AND title = 'Ride cancelled'",
    )
      .bind(userId)
      .all<{ message: string; reason: string | null; late: number }>();

  it("within 2 hours: no reason is refused with a clear message and changes nothing; the page asks for it", async () => {
    const { driver, ride } = await rideLeavingIn(90);
    const html = await page(await get(`/rides/${ride.id}`, { cookie: driver.cookie }));
    expect(html).toContain("Reason for cancelling (required within 2 hours of departure)");
    expect(html).toMatch(/<textarea[^>]*name="reason"[^>]*required/);
    const counts = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM notifications) AS n, (SELECT count(*) FROM ride_requests WHERE status = 'cancelled') AS c",
    ).first();
    for (const reason of [undefined, "   "]) {
      const res = await postForm(
        `/rides/${ride.id}`,
        {
          intent: "cancel-ride",
          rideId: ride.id,
          redirectTo: `/rides/${ride.id}`,
          ...(reason === undefined ? {} : { reason }),
        },
        { cookie: driver.cookie },
      );
      expect(res.status).toBe(302);
      expect(toastOf(res)).toMatchObject({
        type: "error",
        description: expect.stringContaining("Please give a reason"),
      });
    }
    expect(await rideState(ride.id)).toEqual({
      status: "active",
      booked_seats: 1,
      cancel_reason: null,
      cancelled_late: 0,
    });
    expect(
      await env.DB.prepare(
        "SELECT (SELECT count(*) FROM notifications) AS n, (SELECT count(*) FROM ride_requests WHERE status = 'cancelled') AS c",
      ).first(),
    ).toEqual(counts);
  });

  it("within 2 hours with a reason: cancelled, recorded as late, every rider notified with the reason", async () => {
    const { driver, ride, accepted, pending } = await rideLeavingIn(60);
    const res = await postForm(
      `/rides/${ride.id}`,
      { intent: "cancel-ride", rideId: ride.id, reason: "Car broke down on ORR", redirectTo: `/rides/${ride.id}` },
      { cookie: driver.cookie },
    );
    expect(toastOf(res)?.title).toBe("Ride cancelled");
    expect(await rideState(ride.id)).toEqual({
      status: "cancelled",
      booked_seats: 0,
      cancel_reason: "Car broke down on ORR",
      cancelled_late: 1,
    });
    for (const r of [accepted, pending]) {
      const notes = (await cancelNotes(r.id)).results;
      expect(notes).toHaveLength(1);
      expect(notes[0].message).toContain("Reason: Car broke down on ORR");
      expect(notes[0]).toMatchObject({ reason: "Car broke down on ORR", late: 1 });
    }
    // The rider sees it in their notifications on the next page load (and live, with JS).
    expect(await page(await get("/dashboard", { cookie: accepted.cookie }))).toContain("Car broke down on ORR");
  });

  it("more than 2 hours ahead: the reason is optional and the cancellation is not late", async () => {
    const { driver, ride, accepted } = await rideLeavingIn(5 * 60);
    const html = await page(await get(`/rides/${ride.id}`, { cookie: driver.cookie }));
    expect(html).toContain("Reason for cancelling (optional)");
    const res = await postForm(
      `/rides/${ride.id}`,
      { intent: "cancel-ride", rideId: ride.id, redirectTo: `/rides/${ride.id}` },
      { cookie: driver.cookie },
    );
    expect(toastOf(res)?.title).toBe("Ride cancelled");
    expect(await rideState(ride.id)).toEqual({
      status: "cancelled",
      booked_seats: 0,
      cancel_reason: null,
      cancelled_late: 0,
    });
    expect((await cancelNotes(accepted.id)).results[0]).toMatchObject({ reason: null, late: 0 });
  });

  it("a rider or a stranger cannot cancel, with or without a reason", async () => {
    const { ride, accepted } = await rideLeavingIn(60);
    const stranger = await signedInUser();
    for (const who of [accepted, stranger]) {
      const res = await postForm(
        `/rides/${ride.id}`,
        { intent: "cancel-ride", rideId: ride.id, reason: "no" },
        { cookie: who.cookie },
      );
      expect(res.status).toBe(403);
    }
    expect(await rideState(ride.id)).toMatchObject({ status: "active", cancelled_late: 0 });
  });
});
