import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeCostBreakdown, seatsLabel, type SplitRider } from "~/domain/cost-split";
import { formatRupees, seatPricePaise, seatsCostPaise } from "~/domain/money";
import { costPerSeatPaise } from "~/domain/rides";

const community = { name: "HSR Layout Sector 2 Residents", type: "residential" };
const rider = (id: string, seats = 1, sameCommunity = true): SplitRider => ({
  userId: id,
  name: id,
  seats,
  sameCommunity,
});

describe("cost split", () => {
  it("split mode with one rider: half would exceed the seat price shown, so the rider pays that (ADR 0046)", () => {
    const b = computeCostBreakdown({
      tripCostPaise: 30000,
      seatsOffered: 3,
      community,
      driverInCommunity: true,
      riders: [rider("a")],
    });
    expect(b.mode).toBe("split");
    expect(b.riders[0].amountPaise).toBe(10000);
    expect(b.driver).toEqual({ label: "Equal share", amountPaise: 20000 });
    expect(b.costPerSeatPaise).toBe(10000);
    expect(b.totalParticipants).toBe(2);
    expect(b.collectedPaise).toBe(10000);
  });

  it("split mode with 3 riders and a total that does not divide evenly: shares add up exactly", () => {
    const b = computeCostBreakdown({
      tripCostPaise: 10001,
      seatsOffered: 4,
      community,
      driverInCommunity: true,
      riders: [rider("a"), rider("b"), rider("c")],
    });
    expect(b.riders.map((r) => r.amountPaise)).toEqual([2500, 2500, 2500]);
    expect(b.driver.amountPaise).toBe(2501);
    expect(b.collectedPaise).toBe(7500);
    expect(b.collectedPaise + b.driver.amountPaise!).toBe(10001);
    // No rider pays more than the exact share.
    for (const r of b.riders) expect(r.amountPaise).toBeLessThanOrEqual(10001 / 4);
  });

  it("standard mode when any rider is outside the community: seats x cost per seat, driver pays nothing", () => {
    const b = computeCostBreakdown({
      tripCostPaise: 40000,
      seatsOffered: 4,
      community,
      driverInCommunity: true,
      riders: [rider("a", 2), rider("b", 1, false)],
    });
    expect(b.mode).toBe("standard");
    expect(b.riders.map((r) => r.amountPaise)).toEqual([20000, 10000]);
    expect(b.riders[0].explanation).toBe("2 × cost per seat");
    expect(b.driver).toEqual({ label: "No charge", amountPaise: null });
    expect(b.collectedPaise).toBe(30000);
  });

  it("standard mode without a community, and when the driver is not a member", () => {
    expect(
      computeCostBreakdown({
        tripCostPaise: 9000,
        seatsOffered: 3,
        community: null,
        driverInCommunity: false,
        riders: [rider("a")],
      }).mode,
    ).toBe("standard");
    expect(
      computeCostBreakdown({
        tripCostPaise: 9000,
        seatsOffered: 3,
        community,
        driverInCommunity: false,
        riders: [rider("a")],
      }).mode,
    ).toBe("standard");
  });

  it("standard mode rounds each rider down so collected never exceeds the trip cost", () => {
    const b = computeCostBreakdown({
      tripCostPaise: 10001,
      seatsOffered: 3,
      community: null,
      driverInCommunity: false,
      riders: [rider("a"), rider("b"), rider("c")],
    });
    expect(b.riders.map((r) => r.amountPaise)).toEqual([3333, 3333, 3333]);
    expect(b.collectedPaise).toBeLessThanOrEqual(10001);
  });

  it("a zero-cost ride costs nobody anything", () => {
    for (const c of [community, null]) {
      const b = computeCostBreakdown({
        tripCostPaise: 0,
        seatsOffered: 2,
        community: c,
        driverInCommunity: true,
        riders: [rider("a", 2)],
      });
      expect(b.collectedPaise).toBe(0);
      expect(b.costPerSeatPaise).toBe(0);
      expect(b.riders[0].amountPaise).toBe(0);
    }
  });

  it("labels seats singular and plural", () => {
    expect(seatsLabel(1)).toBe("1 seat");
    expect(seatsLabel(3)).toBe("3 seats");
  });

  it("Rs 200 with 3 seats: the Rs 66.66 shown before booking is what each rider owes; the driver covers 2 paise", () => {
    expect(costPerSeatPaise(20000, 3)).toBe(6666);
    expect(formatRupees(seatsCostPaise(20000, 3, 1))).toBe("₹66.66");
    const b = computeCostBreakdown({
      tripCostPaise: 20000,
      seatsOffered: 3,
      community: null,
      driverInCommunity: false,
      riders: [rider("a"), rider("b"), rider("c")],
    });
    expect(b.costPerSeatPaise).toBe(6666);
    expect(b.riders.map((r) => r.amountPaise)).toEqual([6666, 6666, 6666]);
    expect(b.driverCoversPaise).toBe(2);
    expect(b.collectedPaise + b.driverCoversPaise).toBe(20000);
  });
});

// Riders on one ride: 1 to 6 seats offered, riders' seats fitting in them.
const rideArb = fc
  .record({
    tripCostPaise: fc.integer({ min: 0, max: 10_000_000 }),
    seatsOffered: fc.integer({ min: 1, max: 6 }),
    community: fc.boolean(),
    driverInCommunity: fc.boolean(),
    seatList: fc.array(fc.record({ seats: fc.integer({ min: 1, max: 6 }), same: fc.boolean() }), {
      minLength: 1,
      maxLength: 6,
    }),
  })
  .map((r) => {
    let left = r.seatsOffered;
    const riders: SplitRider[] = [];
    for (const [i, x] of r.seatList.entries()) {
      if (left === 0) break;
      const seats = Math.min(x.seats, left);
      left -= seats;
      riders.push({ userId: `u${i}`, name: `Rider ${i}`, seats, sameCommunity: x.same });
    }
    return { ...r, riders };
  });

describe("cost split properties", () => {
  it("for any cost and seat counts the shares (riders + what the driver covers) sum to the trip cost, none negative", () => {
    fc.assert(
      fc.property(rideArb, (r) => {
        const b = computeCostBreakdown({
          tripCostPaise: r.tripCostPaise,
          seatsOffered: r.seatsOffered,
          community: r.community ? community : null,
          driverInCommunity: r.driverInCommunity,
          riders: r.riders,
        });
        expect(b.collectedPaise + b.driverCoversPaise).toBe(r.tripCostPaise);
        expect(b.collectedPaise).toBe(b.riders.reduce((s, x) => s + x.amountPaise, 0));
        expect(b.driverCoversPaise).toBeGreaterThanOrEqual(0);
        for (const x of b.riders) {
          expect(Number.isInteger(x.amountPaise)).toBe(true);
          expect(x.amountPaise).toBeGreaterThanOrEqual(0);
        }
        if (b.mode === "split") expect(b.driver.amountPaise).toBe(b.driverCoversPaise);
      }),
      { numRuns: 2000 },
    );
  });

  it("the figure shown before booking (seat price x seats) is exactly what the rider owes after completion", () => {
    fc.assert(
      fc.property(rideArb, (r) => {
        // Standard mode (priced per seat): what the ride card, ride page, booking page and
        // confirmation display is costPerSeatPaise × seats, the same function as the fare.
        const b = computeCostBreakdown({
          tripCostPaise: r.tripCostPaise,
          seatsOffered: r.seatsOffered,
          community: null,
          driverInCommunity: false,
          riders: r.riders,
        });
        const shownPerSeat = costPerSeatPaise(r.tripCostPaise, r.seatsOffered);
        expect(b.costPerSeatPaise).toBe(shownPerSeat);
        for (const x of b.riders) {
          expect(x.amountPaise).toBe(shownPerSeat * x.seats);
          expect(formatRupees(x.amountPaise)).toBe(
            formatRupees(seatsCostPaise(r.tripCostPaise, r.seatsOffered, x.seats)),
          );
          // And never more than the rider's exact part of the trip cost.
          expect(x.amountPaise * r.seatsOffered).toBeLessThanOrEqual(r.tripCostPaise * x.seats);
        }
        expect(seatPricePaise(r.tripCostPaise, r.seatsOffered) * r.seatsOffered).toBeLessThanOrEqual(r.tripCostPaise);
      }),
      { numRuns: 2000 },
    );
  });
});
