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
// Never more than shown (issue 35, ADR 0046): a rider's amount is capped by what they were
// shown for their seats before booking (`shownMaxPaise`, recorded on the request; for older
// requests the seats' price now). Equal split's share of total / (riders + 1) is larger
// than the seat price when few riders come (₹200, 3 seats, 1 rider: ₹100 against ₹66.66
// shown), so the cap binds and the driver covers the difference, like the rounding paise.
//
// Issue 16 (community rules, ADR 0024): a ride shared with a community carries the
// community's pricing mode from the moment it was created (`pricing`): 'free' (riders owe
// nothing; the driver covers the trip), 'per_seat' (standard mode even among members), or
// 'equal' / none (the rule above: split when everyone is a member, else standard).

import { formatRupees, seatPricePaise, seatsCostPaise } from "./money";

export const PRICING_MODES = ["free", "equal", "per_seat"] as const;
export type PricingMode = (typeof PRICING_MODES)[number];

export type SplitRider = {
  userId: string;
  name: string | null;
  seats: number;
  sameCommunity: boolean;
  /** The most this rider was shown before booking (ADR 0046); absent: the seats' price now. */
  shownMaxPaise?: number | null;
};

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

  // What each rider was shown, the ceiling of what they owe.
  const cap = (r: SplitRider, amount: number) =>
    Math.min(amount, Math.max(0, r.shownMaxPaise ?? seatsCostPaise(total, seatsOffered, r.seats)));
  const line = ({ shownMaxPaise: _shown, ...r }: SplitRider, amountPaise: number, explanation: string) => ({
    ...r,
    amountPaise,
    explanation,
  });
  let riders: SplitLine[];
  let driver: CostBreakdown["driver"];
  if (free) {
    riders = input.riders.map((r) => line(r, 0, "Free ride"));
    driver = { label: "Free ride", amountPaise: null };
  } else if (split) {
    const share = Math.floor(total / (input.riders.length + 1));
    riders = input.riders.map((r) => line(r, cap(r, share), "Equal share"));
    driver = { label: "Equal share", amountPaise: total - riders.reduce((sum, r) => sum + r.amountPaise, 0) };
  } else {
    riders = input.riders.map((r) =>
      line(r, cap(r, seatsCostPaise(total, seatsOffered, r.seats)), `${r.seats} × cost per seat`),
    );
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

/**
 * The most a rider can owe for `seats` seats, shown before booking and recorded on the
 * request (ADR 0046): the seats' price, in every mode but free. Equal split can only
 * charge less (more riders, smaller shares).
 */
export function shownMaxPaise(tripCostPaise: number, seatsOffered: number, seats: number, pricing?: string | null) {
  return pricing === "free" ? 0 : seatsCostPaise(tripCostPaise, seatsOffered, seats);
}

/** The most a booked rider can owe now: the recorded figure, or less if the price fell since. */
export function mostOwedPaise(
  quotedPaise: number | null,
  ride: { tripCostPaise: number; seats: number; pricingMode?: string | null },
  seats: number,
) {
  const now = shownMaxPaise(ride.tripCostPaise, ride.seats, seats, ride.pricingMode);
  return quotedPaise === null ? now : Math.min(quotedPaise, now);
}

/** Whether a ride's riders are shown "at most": an equal-split community ride. */
export const mayShareEqually = (ride: { communityId: string | null; pricingMode?: string | null }) =>
  ride.communityId !== null && (ride.pricingMode ?? "equal") === "equal";

/** The price line a rider is shown before booking and on the confirmation (ADR 0046). */
export function shownPriceText(
  amountPaise: number,
  ride: { communityId: string | null; pricingMode?: string | null },
): string {
  if (ride.pricingMode === "free") return "Free ride";
  if (!mayShareEqually(ride)) return formatRupees(amountPaise);
  return `at most ${formatRupees(amountPaise)}; less if more riders join`;
}
