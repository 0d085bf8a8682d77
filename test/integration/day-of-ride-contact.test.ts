import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createRide, createRideRequest } from "../../db/factories";
import { contactDates } from "~/domain/day-of-ride";
import { addDays, istDate } from "~/domain/time";
import { REGISTRATION_INVALID } from "~/schemas/profile";
import { toastOf } from "../support/rides";
import { db, get, postForm, signedInUser } from "../support/worker";

// Issue 37, item 5: on the day of a ride (from 18:00 IST the evening before) the driver and
// each accepted rider see each other's mobile number, if its owner allows it, and the riders
// see the car. Nobody else, at no other time (maySeeContact, permissions.server.ts).

const CAR = { has_car: true, make: "Maruti", model: "Swift", color: "Pearl White", license_plate: "KA 01 AB 1234" };
const PLATE = "KA 01 AB 1234";
const DRIVER_TEL = "tel:+919876500001";
const RIDER_TEL = "tel:+919876500002";
const PENDING_TEL = "tel:+919876500003";

async function world(date = istDate(), status: "active" | "completed" = "active") {
  const driver = await signedInUser({
    fullName: "Deepa Driver",
    profile: { phoneNumber: "9876500001", vehicleInfo: CAR },
  });
  const rider = await signedInUser({ fullName: "Ravi Rider", profile: { phoneNumber: "9876500002" } });
  const pending = await signedInUser({ fullName: "Pooja Pending", profile: { phoneNumber: "9876500003" } });
  const outsider = await signedInUser({ fullName: "Omkar Outsider" });
  const ride = await createRide({ db: db() }, { driverId: driver.id, date, time: "23:30", status });
  await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, status: "accepted" });
  await createRideRequest({ db: db() }, { rideId: ride.id, riderId: pending.id, status: "pending" });
  return { driver, rider, pending, outsider, ride };
}

const page = async (rideId: string, who: { cookie: string }) => {
  const res = await get(`/rides/${rideId}`, { cookie: who.cookie });
  expect(res.status).toBe(200);
  return res.text();
};

describe("contact on the day of a ride", () => {
  it("the driver and an accepted rider see each other's number, the rider the car; nobody else sees either", async () => {
    const w = await world();
    const asRider = await page(w.ride.id, w.rider);
    expect(asRider).toContain(DRIVER_TEL);
    expect(asRider).toContain(PLATE);
    expect(asRider).toContain("Pearl White");
    // A rider does not get the other riders' numbers.
    expect(asRider).not.toContain(PENDING_TEL);

    const asDriver = await page(w.ride.id, w.driver);
    expect(asDriver).toContain(RIDER_TEL);
    // A pending request is not a seat: no number either way.
    expect(asDriver).not.toContain(PENDING_TEL);

    for (const who of [w.pending, w.outsider]) {
      const html = await page(w.ride.id, who);
      for (const secret of [DRIVER_TEL, RIDER_TEL, PLATE, "9876500001", "98765 00001"])
        expect(html).not.toContain(secret);
    }
  });

  it("a person who turns 'Show my mobile number' off is reached by chat only; the car stays shown", async () => {
    const w = await world();
    const off = await postForm(
      "/dashboard/settings",
      { setting: "showPhone", value: "off" },
      { cookie: w.rider.cookie },
    );
    expect(off.status).toBe(302);
    const asDriver = await page(w.ride.id, w.driver);
    expect(asDriver).not.toContain(RIDER_TEL);
    expect(asDriver).not.toContain("9876500002");
    expect(asDriver).toContain("Ravi Rider keeps their mobile number private.");
    expect(asDriver).toContain(`/dashboard/messages?to=${w.rider.id}&amp;ride=${w.ride.id}`);

    await postForm("/dashboard/settings", { setting: "showPhone", value: "off" }, { cookie: w.driver.cookie });
    const asRider = await page(w.ride.id, w.rider);
    expect(asRider).not.toContain(DRIVER_TEL);
    expect(asRider).toContain(PLATE);
  });

  it("outside the window nothing is shown: a later day, a past day, an ended trip", async () => {
    const today = istDate();
    const later = await world(addDays(today, 2));
    const past = await world(addDays(today, -1));
    const ended = await world(today, "completed");
    for (const w of [later, past, ended]) {
      for (const [who, secret] of [
        [w.rider, DRIVER_TEL],
        [w.rider, PLATE],
        [w.driver, RIDER_TEL],
      ] as const) {
        expect(await page(w.ride.id, who)).not.toContain(secret);
      }
    }
    // Tomorrow's ride opens at 18:00 IST today (the clock of this run decides which it is).
    const tomorrow = await world(addDays(today, 1));
    const open = contactDates(Date.now()).includes(tomorrow.ride.date);
    expect((await page(tomorrow.ride.id, tomorrow.rider)).includes(DRIVER_TEL)).toBe(open);
  });

  it("a blocked pair see no number, even with a seat accepted", async () => {
    const w = await world();
    const res = await postForm(`/people/${w.rider.id}`, { intent: "block" }, { cookie: w.driver.cookie });
    expect(res.status).toBe(302);
    expect(await page(w.ride.id, w.rider)).not.toContain(DRIVER_TEL);
    expect(await page(w.ride.id, w.driver)).not.toContain(RIDER_TEL);
  });
});

describe("the car's registration number", () => {
  const save = (who: { cookie: string }, licensePlate: string) =>
    postForm(
      "/dashboard/profile",
      { fullName: "Deepa Driver", make: "Maruti", model: "Swift", color: "White", licensePlate },
      { cookie: who.cookie },
    );
  const stored = async (id: string) =>
    JSON.parse(
      (await env.DB.prepare("SELECT vehicle_info FROM user_profiles WHERE user_id = ?").bind(id).first<{
        vehicle_info: string;
      }>())!.vehicle_info,
    );

  it("is saved from the profile in one format, the BH series too", async () => {
    const me = await signedInUser({ fullName: "Deepa Driver" });
    const res = await save(me, "ka-01-ab-1234");
    expect(res.status).toBe(302);
    expect(toastOf(res)?.title).toBe("Profile updated successfully.");
    expect(await stored(me.id)).toMatchObject({ make: "Maruti", model: "Swift", color: "White", license_plate: PLATE });
    await save(me, "22bh1234aa");
    expect((await stored(me.id)).license_plate).toBe("22 BH 1234 AA");
  });

  it("refuses one no Indian plate carries, with the message, and keeps the old one", async () => {
    const me = await signedInUser({ fullName: "Deepa Driver", profile: { vehicleInfo: CAR } });
    const res = await save(me, "NOT A PLATE");
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(REGISTRATION_INVALID);
    expect((await stored(me.id)).license_plate).toBe(PLATE);
  });
});
