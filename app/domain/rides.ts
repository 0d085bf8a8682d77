// Pure ride rules: the fair cost suggestion, per-seat cost, price bands, eco score and
// the constants the ride screens share. No I/O, so the client can use them too.
import type { VehicleInfo } from "../../db/schema";
import { seatPricePaise } from "./money";

// The ride form's limits and the cost suggestion's rates live in ./ride-limits.ts (the Create a
// New Ride page loads only those); re-exported here for everything else.
export {
  CAR_TYPE_LABEL,
  FUEL_COST_PAISE_PER_KM,
  MAX_SEATS,
  MIN_SEATS,
  NOTES_MAX,
  ROAD_FACTOR,
  type CarType,
} from "./ride-limits";
import { FUEL_COST_PAISE_PER_KM, type CarType } from "./ride-limits";

/** Eco impact: CO2 kept off the road and community points, per shared seat. */
export const CO2_KG_PER_SEAT = 2.5;
export const POINTS_PER_SEAT = 10;
/** An accepted seat may be given up until this long before departure. */
export const CANCEL_WINDOW_MS = 2 * 60 * 60 * 1000;
/** A driver's reason for cancelling a ride, at most this many characters. */
export const CANCEL_REASON_MAX = 300;
/** A driver may complete a ride from this long before its departure time (docs/decisions/0008-rides-behaviour.md). */
export const COMPLETE_EARLY_MS = 30 * 60 * 1000;
export const TOO_EARLY_TO_COMPLETE = "A ride can be completed from 30 minutes before its departure time.";
/** Why a ride's requests can no longer change (request, cancel, accept, reject), or null while they can. */
export function requestsClosedReason(ride: { status: string; departsAt: number }, now = Date.now()): string | null {
  if (ride.status === "completed") return "This ride has been completed: its requests can no longer be changed.";
  if (ride.status === "cancelled") return "This ride was cancelled: its requests can no longer be changed.";
  if (ride.departsAt <= now) return "This ride has already departed: its requests can no longer be changed.";
  return null;
}
export const DISCOVER_PAGE_SIZE = 20;
/**
 * A distance search's page: its cards also say how far the pickup and drop are and how many
 * minutes off, so twenty of them made a 78 KB page on the bench's city (issue 17: 60 KB). Ten,
 * since each card has its route map and pickup facts (issue 36): twelve made 64.5 KB.
 */
export const NEAR_PAGE_SIZE = 10;
/**
 * Discover's "Max cost per seat": ₹0 to ₹500 in steps of ₹10, or Any (ADR 0054). Real seats
 * cost ₹40-300; the old ₹5-50 slider (50 meaning any) could not ask for "up to ₹100".
 */
export const MAX_COST_CHOICES = { min: 0, max: 500, step: 10 } as const;

export function carTypeOf(vehicle: VehicleInfo | null | undefined): CarType {
  const t = vehicle?.has_car === false ? null : vehicle?.car_type;
  return t && t in FUEL_COST_PAISE_PER_KM ? t : "petrol";
}

/** The trip cost shared per seat, in paise: the one rounding rule of `seatPricePaise` (money.ts). */
export function costPerSeatPaise(tripCostPaise: number, seats: number): number {
  return seatPricePaise(tripCostPaise, seats);
}

export type PriceBand = "Budget" | "Fair" | "Premium";

/**
 * A seat's price against its fair share of the trip (fairSeatPaise in ./trip-cost.ts): at most
 * 80 % Budget, at most 120 % Fair, above that Premium (ADR 0054; the spec's fixed bands of
 * 10 and 25 were dollars, and read as rupees made every real fare Premium). Integer paise
 * compared without division, so a boundary is exact.
 */
export function priceBand(seatPaise: number, fairSeatPaise: number): PriceBand {
  if (seatPaise * 100 <= fairSeatPaise * 80) return "Budget";
  if (seatPaise * 100 <= fairSeatPaise * 120) return "Fair";
  return "Premium";
}

/** Booked share of seats in percent plus 10 per remaining seat, capped at 100. */
export function ecoScore(seats: number, bookedSeats: number): number {
  if (seats <= 0) return 0;
  const remaining = Math.max(0, seats - bookedSeats);
  return Math.min(100, Math.round((bookedSeats / seats) * 100) + 10 * remaining);
}

export function co2SavedKg(seats: number): number {
  return seats * CO2_KG_PER_SEAT;
}

/** "12 seconds", "3m 20s", "2h 5m": the tracker's elapsed timer. */
export function formatElapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s} second${s === 1 ? "" : "s"}`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

/** 'requested 5 minutes ago' without JavaScript. */
export function requestedAgo(createdAt: number, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - createdAt) / 60000));
  if (minutes < 1) return "requested just now";
  if (minutes < 60) return `requested ${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `requested ${hours} hour${hours === 1 ? "" : "s"} ago`;
  const days = Math.floor(hours / 24);
  return `requested ${days} day${days === 1 ? "" : "s"} ago`;
}

export type RequestStatus = "pending" | "accepted" | "rejected" | "cancelled" | "expired";
export const REQUEST_STATUS_LABEL: Record<RequestStatus, string> = {
  pending: "Request Sent",
  accepted: "Request Accepted",
  rejected: "Request Rejected",
  cancelled: "Request Cancelled",
  expired: "Request Expired",
};
export const progressOf = (status: string) => (status === "pending" ? 25 : 100);
export const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
