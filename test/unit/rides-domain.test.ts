import { describe, expect, it } from "vitest";
import { findPlace } from "~/domain/curated-places";
import { straightLineKm } from "~/domain/places";
import { carTypeOf, costPerSeatPaise, ecoScore, formatElapsed, priceBand, requestedAgo } from "~/domain/rides";
import { fairSeatPaise, suggestTripCost } from "~/domain/trip-cost";

describe("cost suggestion", () => {
  const km = straightLineKm(findPlace("HSR Layout")!, findPlace("Manyata Tech Park")!);

  it("is straight-line km x 1.4 x the car's fuel cost per km, in whole rupees", () => {
    const petrol = suggestTripCost("HSR Layout", "Manyata Tech Park", "petrol", findPlace)!;
    expect(petrol.paise).toBe(Math.round(km * 1.4 * 7) * 100);
    expect(petrol.paise % 100).toBe(0);
    expect(suggestTripCost("HSR Layout", "Manyata Tech Park", "diesel", findPlace)!.paise).toBe(
      Math.round(km * 1.4 * 6) * 100,
    );
    expect(suggestTripCost("HSR Layout", "Manyata Tech Park", "hybrid", findPlace)!.paise).toBe(
      Math.round(km * 1.4 * 4.5) * 100,
    );
    expect(suggestTripCost("HSR Layout", "Manyata Tech Park", "electric", findPlace)!.paise).toBe(
      Math.round(km * 1.4 * 2) * 100,
    );
  });

  it("explains how it was computed", () => {
    const s = suggestTripCost("HSR Layout", "Manyata Tech Park", "hybrid", findPlace)!;
    expect(s.explanation).toMatch(
      /^\d+\.\d km straight line × 1\.4 road factor = \d+\.\d km × ₹4\.5\/km \(hybrid\) = ₹\d+$/,
    );
    expect(s.explanation).not.toContain("$");
  });

  it("falls back to petrol without a car or with an unknown type; nothing for unknown or equal places", () => {
    expect(carTypeOf(null)).toBe("petrol");
    expect(carTypeOf({ has_car: false, car_type: null })).toBe("petrol");
    expect(carTypeOf({ has_car: true, car_type: "electric" })).toBe("electric");
    expect(carTypeOf({ has_car: true, car_type: "steam" as never })).toBe("petrol");
    expect(suggestTripCost("HSR Layout", "Atlantis", "petrol", findPlace)).toBeNull();
    expect(suggestTripCost("HSR Layout", "HSR Layout", "petrol", findPlace)).toBeNull();
  });
});

describe("price band, eco score, cost per seat", () => {
  it("bands a seat against its fair share: Budget to 80 %, Fair to 120 %, then Premium (ADR 0054)", () => {
    // Fair share ₹80: the boundaries are ₹64 and ₹96, to the paisa.
    expect(priceBand(0, 8000)).toBe("Budget");
    expect(priceBand(6000, 8000)).toBe("Budget");
    expect(priceBand(6400, 8000)).toBe("Budget");
    expect(priceBand(6401, 8000)).toBe("Fair");
    expect(priceBand(8000, 8000)).toBe("Fair");
    expect(priceBand(9600, 8000)).toBe("Fair");
    expect(priceBand(9601, 8000)).toBe("Premium");
    // Real fares are rupees, not the spec's dollars: ₹150 on a ₹150 share is Fair, not Premium.
    expect(priceBand(15000, 15000)).toBe("Fair");
    expect(priceBand(30000, 15000)).toBe("Premium");
  });
  it("the fair share is the create form's suggestion for the ride's points and car, split over its seats", () => {
    const hsr = findPlace("HSR Layout")!;
    const manyata = findPlace("Manyata Tech Park")!;
    const ride = { fromLat: hsr.lat, fromLng: hsr.lng, toLat: manyata.lat, toLng: manyata.lng, seats: 3 };
    const suggested = (car: "petrol" | "electric") =>
      suggestTripCost("HSR Layout", "Manyata Tech Park", car, findPlace)!;
    expect(fairSeatPaise({ ...ride, vehicleType: "electric" })).toBe(Math.floor(suggested("electric").paise / 3));
    // No car on record: the form suggests for petrol, and so does the label.
    expect(fairSeatPaise({ ...ride, vehicleType: null })).toBe(Math.floor(suggested("petrol").paise / 3));
    expect(fairSeatPaise({ ...ride, fromLat: null, vehicleType: "petrol" })).toBeNull();
    expect(fairSeatPaise({ ...ride, toLat: hsr.lat, toLng: hsr.lng, vehicleType: "petrol" })).toBeNull();
  });
  it("eco score is booked share % + 10 per remaining seat, capped at 100", () => {
    expect(ecoScore(4, 0)).toBe(40);
    expect(ecoScore(4, 2)).toBe(70);
    expect(ecoScore(3, 3)).toBe(100);
    expect(ecoScore(6, 5)).toBe(93);
    expect(ecoScore(2, 1)).toBe(60);
  });
  it("cost per seat is trip cost / seats", () => {
    expect(costPerSeatPaise(30000, 3)).toBe(10000);
    expect(costPerSeatPaise(10000, 3)).toBe(3333);
    expect(costPerSeatPaise(500, 0)).toBe(0);
  });
  it("elapsed timer and 'requested N minutes ago'", () => {
    expect(formatElapsed(12_000)).toBe("12 seconds");
    expect(formatElapsed(200_000)).toBe("3m 20s");
    expect(formatElapsed(7_500_000)).toBe("2h 5m");
    expect(requestedAgo(0, 5 * 60_000)).toBe("requested 5 minutes ago");
    expect(requestedAgo(0, 1000)).toBe("requested just now");
  });
});
