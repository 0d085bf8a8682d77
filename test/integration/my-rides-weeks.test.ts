import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createCommutePattern, createRide, createRideRequest } from "../../db/factories";
import { rides } from "../../db/schema";
import { weekMonday } from "~/domain/ride-weeks";
import { addDays, istDate } from "~/domain/time";
import { db, get, signedInUser } from "../support/worker";

// Issue 35, item 3: My Rides lists upcoming rides in date order, by IST week, with the days
// of one commute together inside a week.

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const headings = (html: string) =>
  [...html.matchAll(/data-testid="ride-week"[^>]*><h2[^>]*>([^<]*)<\/h2>/g)].map((m) => m[1]);
const cards = (html: string, testId: string) =>
  [
    ...html.matchAll(
      new RegExp(`data-testid="${testId}"[\\s\\S]*?href="/(?:booking-confirmation|rides)/([a-z0-9]+)"`, "g"),
    ),
  ].map((m) => m[1]);

describe("My Rides by week", () => {
  it("Booked Rides: soonest first, one heading a week, a commute's days together, past rides last", async () => {
    const today = istDate();
    const nextMonday = addDays(weekMonday(today), 7);
    const weekAfter = addDays(nextMonday, 7);
    const rider = await signedInUser({ fullName: "Regular Rider" });
    const driver = await signedInUser({ fullName: "Commute Driver" });
    const other = await signedInUser({ fullName: "Other Driver" });
    const commute = await createCommutePattern({ db: db() }, { driverId: driver.id, time: "09:00" });
    const book = async (driverId: string, date: string, time: string, commuteId?: string) => {
      const ride = await createRide({ db: db() }, { driverId, date, time });
      if (commuteId) await db().update(rides).set({ commuteId }).where(eq(rides.id, ride.id));
      return (await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, status: "accepted" })).id;
    };
    // Booked in an order that is not the rides' order.
    const far = await book(other.id, addDays(weekAfter, 3), "10:00");
    const wed = await book(driver.id, addDays(nextMonday, 2), "09:00", commute.id);
    const oneOffTue = await book(other.id, addDays(nextMonday, 1), "07:00");
    const mon = await book(driver.id, nextMonday, "09:00", commute.id);
    const tue = await book(driver.id, addDays(nextMonday, 1), "09:00", commute.id);
    const pastRide = await createRide(
      { db: db() },
      { driverId: other.id, date: addDays(today, -1), status: "completed" },
    );
    const past = (await createRideRequest({ db: db() }, { rideId: pastRide.id, riderId: rider.id, status: "accepted" }))
      .id;

    const html = await (await get("/dashboard/rides?tab=booked", { cookie: rider.cookie })).text();
    const [, m, d] = weekAfter.split("-").map(Number);
    expect(headings(html)).toEqual(["Next week", `Week of Mon ${d} ${MONTHS[m - 1]}`, "Earlier rides"]);
    // Next week: the commute's Mon, Tue, Wed together (where its first day falls), then the
    // one-off ride of Tuesday 7:00; then the week after; then the past.
    expect(cards(html, "booked-ride")).toEqual([mon, tue, wed, oneOffTue, far, past]);
    expect(html).toMatch(/Mon, [A-Z][a-z]{2} \d+, \d{4} · 9:00 AM/);
  });

  it("Created Rides: the weeks ahead soonest first, then the past", async () => {
    const today = istDate();
    const nextMonday = addDays(weekMonday(today), 7);
    const driver = await signedInUser();
    const later = await createRide({ db: db() }, { driverId: driver.id, date: addDays(nextMonday, 4) });
    const sooner = await createRide({ db: db() }, { driverId: driver.id, date: nextMonday });
    const gone = await createRide({ db: db() }, { driverId: driver.id, date: addDays(today, -3), status: "completed" });
    const html = await (await get("/dashboard/rides?tab=created", { cookie: driver.cookie })).text();
    expect(headings(html)).toEqual(["Next week", "Earlier rides"]);
    expect(cards(html, "created-ride")).toEqual([sooner.id, later.id, gone.id]);
  });
});
