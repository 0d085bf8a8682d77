// The fair cost split of a completed ride: one pure function, all amounts in paise.
//
// cost per seat = trip cost / seats offered.
// Split mode: the ride belongs to a community and the driver and every accepted rider
//   are approved members of it. The trip cost is shared equally by the riders and the
//   driver: each rider pays total / (riders + 1), the driver's own share is the same.
// Standard mode otherwise: each rider pays seats × cost per seat; the driver pays
//   nothing ('No charge').
//
// Rounding (one rule, ADR 0010): amounts are whole paise. In standard mode a rider pays
// seats × seat price, the seat price being the trip cost / seats offered rounded DOWN to the
// paisa (`seatsCostPaise`, the very figure the ride card, ride page, booking page and
// confirmation show before booking). In split mode every rider's equal share is rounded
// DOWN to the paisa. Either way the driver, a named participant, absorbs what is left
// (`driverCoversPaise`: the paise of rounding, and in standard mode the unbooked seats), so
// riders' amounts + driverCoversPaise = trip cost exactly and the receipt sums.
//
// Issue 16 (community rules, ADR 0024): a ride shared with a community carries the
// community's pricing mode from the moment it was created (`pricing`): 'free' (riders owe
// nothing; the driver covers the trip), 'per_seat' (standard mode even among members), or
// 'equal' / none (the rule above: split when everyone is a member, else standard).

import { seatPricePaise, seatsCostPaise } from "./money";

export const PRICING_MODES = ["free", "equal", "per_seat"] as const;
export type PricingMode = (typeof PRICING_MODES)[number];

export type SplitRider = { userId: string; name: string | null; seats: number; sameCommunity: boolean };

export type SplitInput = {
  tripCostPaise: number;
  seatsOffered: number;
  /** The ride's community, if any, and whether the driver is an approved member. */
  community: { name: string; type: string } | null;
  driverInCommunity: boolean;
  riders: SplitRider[];
  /** The ride's own copy of its community's pricing mode (NULL for older rides: 'equal'). */
  pricing?: PricingMode | null;
};

export type SplitLine = {
  userId: string;
  name: string | null;
  seats: number;
  sameCommunity: boolean;
  amountPaise: number;
  explanation: string;
};

export type CostBreakdown = {
  mode: "split" | "standard" | "free";
  totalCostPaise: number;
  costPerSeatPaise: number;
  /** Riders plus the driver. */
  totalParticipants: number;
  driver: { label: "Equal share" | "No charge" | "Free ride"; amountPaise: number | null };
  riders: SplitLine[];
  collectedPaise: number;
  /** What the driver bears: trip cost − collected (their own share in split mode). */
  driverCoversPaise: number;
  community: { name: string; type: string } | null;
};

export function computeCostBreakdown(input: SplitInput): CostBreakdown {
  const total = Math.max(0, Math.round(input.tripCostPaise));
  const seatsOffered = Math.max(1, input.seatsOffered);
  const costPerSeat = seatPricePaise(total, seatsOffered);
  const free = input.pricing === "free";
  const split =
    !free &&
    input.pricing !== "per_seat" &&
    input.community !== null &&
    input.driverInCommunity &&
    input.riders.length > 0 &&
    input.riders.every((r) => r.sameCommunity);

  let riders: SplitLine[];
  let driver: CostBreakdown["driver"];
  if (free) {
    riders = input.riders.map((r) => ({ ...r, amountPaise: 0, explanation: "Free ride" }));
    driver = { label: "Free ride", amountPaise: null };
  } else if (split) {
    const share = Math.floor(total / (input.riders.length + 1));
    riders = input.riders.map((r) => ({ ...r, amountPaise: share, explanation: "Equal share" }));
    driver = { label: "Equal share", amountPaise: total - share * input.riders.length };
  } else {
    riders = input.riders.map((r) => ({
      ...r,
      amountPaise: seatsCostPaise(total, seatsOffered, r.seats),
      explanation: `${r.seats} × cost per seat`,
    }));
    driver = { label: "No charge", amountPaise: null };
  }
  const collectedPaise = riders.reduce((sum, r) => sum + r.amountPaise, 0);
  return {
    mode: free ? "free" : split ? "split" : "standard",
    totalCostPaise: total,
    costPerSeatPaise: costPerSeat,
    totalParticipants: input.riders.length + 1,
    driver,
    riders,
    collectedPaise,
    driverCoversPaise: total - collectedPaise,
    community: input.community,
  };
}

/** 'seat' or 'seats'. */
export function seatsLabel(n: number): string {
  return `${n} ${n === 1 ? "seat" : "seats"}`;
}
