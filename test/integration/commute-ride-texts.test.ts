import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createCommutePattern, createRide, createRideRequest } from "../../db/factories";
import { commutes, rides, userProfiles } from "../../db/schema";
import { addDays, istDate } from "~/domain/time";
import { db, get, signedInUser } from "../support/worker";

// Issue 35, item 8: small things seen on the way.

const text = (html: string) =>
  html
    .replace(/<\/(p|div|li|section|h\d)>/g, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&amp;/g, "&");

describe("the commute page's header", () => {
  it("shows the seat price beside the trip price, the driver's rating and notes, and weekdays by the dates", async () => {
    const start = addDays(istDate(), 3);
    const driver = await signedInUser({ fullName: "Kavya Driver" });
    await db().update(userProfiles).set({ ratingCount: 4, ratingStars: 18 }).where(eq(userProfiles.userId, driver.id));
    const rider = await signedInUser();
    const commute = await createCommutePattern(
      { db: db() },
      { driverId: driver.id, seats: 3, tripCostPaise: 20000, startDate: start, endDate: addDays(start, 30) },
    );
    await db().update(commutes).set({ notes: "Pickup at the Agara signal" }).where(eq(commutes.id, commute.id));

    const page = text(await (await get(`/commutes/${commute.id}`, { cookie: rider.cookie })).text());
    expect(page).toContain("₹66.66 a seat (₹200 a trip)");
    expect(page).toContain("Driver: Kavya Driver · Rating: 4.5 ★ (4)");
    expect(page).toContain("Notes: Pickup at the Agara signal");
    const weekday = (date: string) => {
      const [y, m, d] = date.split("-").map(Number);
      return ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][new Date(Date.UTC(y, m - 1, d)).getUTCDay()];
    };
    expect(page).toMatch(
      new RegExp(`from ${weekday(start)}, [A-Z][a-z]{2} \\d+, \\d{4} to ${weekday(addDays(start, 30))}, `),
    );
  });
});

describe("the ride page's header", () => {
  it("puts 'see every day' and 'Report or block' on lines of their own", async () => {
    const driver = await signedInUser({ fullName: "Kavya Driver" });
    const rider = await signedInUser();
    const commute = await createCommutePattern({ db: db() }, { driverId: driver.id });
    const ride = await createRide({ db: db() }, { driverId: driver.id });
    await db().update(rides).set({ commuteId: commute.id }).where(eq(rides.id, ride.id));
    const page = text(await (await get(`/rides/${ride.id}`, { cookie: rider.cookie })).text());
    expect(page).toContain("A recurring commute: see every day\n");
    expect(page).toMatch(/\nReport or block Kavya Driver\n/);
    expect(page).not.toContain("see every dayReport");
  });
});

describe("the booking confirmation's eco impact", () => {
  const ecoMoney = (html: string) => /data-testid="eco-money">([^<]*)</.exec(html)?.[1];
  const price = (html: string) => /data-testid="booking-price">([^<]*)</.exec(html)?.[1];

  it("shows the same rupees as the price, paise included", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: driver.id, seats: 3, tripCostPaise: 20000 });
    const seat = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, seats: 2 });
    const html = await (await get(`/booking-confirmation/${seat.id}`, { cookie: rider.cookie })).text();
    expect(price(html)).toBe("₹66.66 × 2 = ₹133.32");
    expect(ecoMoney(html)).toBe("₹133.32");
  });

  it("a free ride is free in both places", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: driver.id, seats: 3, tripCostPaise: 30000 });
    await db().update(rides).set({ pricingMode: "free" }).where(eq(rides.id, ride.id));
    const seat = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id });
    const html = await (await get(`/booking-confirmation/${seat.id}`, { cookie: rider.cookie })).text();
    expect(price(html)).toBe("Free ride");
    expect(ecoMoney(html)).toBe("Free ride");
  });
});
