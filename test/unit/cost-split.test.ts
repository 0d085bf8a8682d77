import { describe, expect, it } from "vitest";
import { computeCostBreakdown, seatsLabel, type SplitRider } from "~/domain/cost-split";

const community = { name: "HSR Layout Sector 2 Residents", type: "residential" };
const rider = (id: string, seats = 1, sameCommunity = true): SplitRider => ({ userId: id, name: id, seats, sameCommunity });

describe("cost split", () => {
  it("split mode with one rider: rider and driver each pay half", () => {
    const b = computeCostBreakdown({ tripCostPaise: 30000, seatsOffered: 3, community, driverInCommunity: true, riders: [rider("a")] });
    expect(b.mode).toBe("split");
    expect(b.riders[0].amountPaise).toBe(15000);
    expect(b.driver).toEqual({ label: "Equal share", amountPaise: 15000 });
    expect(b.costPerSeatPaise).toBe(10000);
    expect(b.totalParticipants).toBe(2);
    expect(b.collectedPaise).toBe(15000);
  });

  it("split mode with 3 riders and a total that does not divide evenly: shares add up exactly", () => {
    const b = computeCostBreakdown({ tripCostPaise: 10001, seatsOffered: 4, community, driverInCommunity: true, riders: [rider("a"), rider("b"), rider("c")] });
    expect(b.riders.map((r) => r.amountPaise)).toEqual([2500, 2500, 2500]);
    expect(b.driver.amountPaise).toBe(2501);
    expect(b.collectedPaise).toBe(7500);
    expect(b.collectedPaise + b.driver.amountPaise!).toBe(10001);
    // No rider pays more than the exact share.
    for (const r of b.riders) expect(r.amountPaise).toBeLessThanOrEqual(10001 / 4);
  });

  it("standard mode when any rider is outside the community: seats x cost per seat, driver pays nothing", () => {
    const b = computeCostBreakdown({ tripCostPaise: 40000, seatsOffered: 4, community, driverInCommunity: true, riders: [rider("a", 2), rider("b", 1, false)] });
    expect(b.mode).toBe("standard");
    expect(b.riders.map((r) => r.amountPaise)).toEqual([20000, 10000]);
    expect(b.riders[0].explanation).toBe("2 × cost per seat");
    expect(b.driver).toEqual({ label: "No charge", amountPaise: null });
    expect(b.collectedPaise).toBe(30000);
  });

  it("standard mode without a community, and when the driver is not a member", () => {
    expect(computeCostBreakdown({ tripCostPaise: 9000, seatsOffered: 3, community: null, driverInCommunity: false, riders: [rider("a")] }).mode).toBe("standard");
    expect(computeCostBreakdown({ tripCostPaise: 9000, seatsOffered: 3, community, driverInCommunity: false, riders: [rider("a")] }).mode).toBe("standard");
  });

  it("standard mode rounds each rider down so collected never exceeds the trip cost", () => {
    const b = computeCostBreakdown({ tripCostPaise: 10001, seatsOffered: 3, community: null, driverInCommunity: false, riders: [rider("a"), rider("b"), rider("c")] });
    expect(b.riders.map((r) => r.amountPaise)).toEqual([3333, 3333, 3333]);
    expect(b.collectedPaise).toBeLessThanOrEqual(10001);
  });

  it("a zero-cost ride costs nobody anything", () => {
    for (const c of [community, null]) {
      const b = computeCostBreakdown({ tripCostPaise: 0, seatsOffered: 2, community: c, driverInCommunity: true, riders: [rider("a", 2)] });
      expect(b.collectedPaise).toBe(0);
      expect(b.costPerSeatPaise).toBe(0);
      expect(b.riders[0].amountPaise).toBe(0);
    }
  });

  it("labels seats singular and plural", () => {
    expect(seatsLabel(1)).toBe("1 seat");
    expect(seatsLabel(3)).toBe("3 seats");
  });
});
