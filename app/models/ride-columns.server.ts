import { sql } from "drizzle-orm";
import { type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { rideRequests, rides, userProfiles } from "../../db/schema";
import { fairSeatPaise, type FairCostFacts } from "../domain/trip-cost";
import { workplaceBadge } from "./work-email.server";

// The column sets and helpers the ride modules share (discovery, the ride page, My Rides).

export const rideColumns = {
  id: rides.id,
  driverId: rides.driverId,
  communityId: rides.communityId,
  fromLocation: rides.fromLocation,
  toLocation: rides.toLocation,
  date: rides.date,
  time: rides.time,
  departsAt: rides.departsAt,
  seats: rides.seats,
  bookedSeats: rides.bookedSeats,
  tripCostPaise: rides.tripCostPaise,
  distanceKm: rides.distanceKm,
  notes: rides.notes,
  vehicleType: rides.vehicleType,
  status: rides.status,
  commuteId: rides.commuteId,
  womenOnly: rides.womenOnly,
  womenLockBooked: rides.womenLockBooked,
  // Issue 16: the community's pricing mode the ride was offered under (a free ride says so).
  pricingMode: rides.pricingMode,
};

/** Where a ride starts and ends, for its route map (issue 36); null on rides before places. */
export const ridePoints = {
  fromLat: rides.fromLat,
  fromLng: rides.fromLng,
  toLat: rides.toLat,
  toLng: rides.toLng,
};

/**
 * A ride row with its seat's fair share added: what its price label is measured against
 * (ADR 0054). The points stay, for the ride's route map (issue 36).
 */
export function withFairSeat<T extends FairCostFacts>(row: T) {
  const { fromLat, fromLng, toLat, toLng, vehicleType, seats } = row;
  return { ...row, fairSeatPaise: fairSeatPaise({ fromLat, fromLng, toLat, toLng, vehicleType, seats }) };
}

/** The same with the points dropped, for a list that draws no map and must stay small (Discover). */
export function withFairSeatOnly<T extends FairCostFacts>({ fromLat, fromLng, toLat, toLng, ...row }: T) {
  const fair = fairSeatPaise({ fromLat, fromLng, toLat, toLng, vehicleType: row.vehicleType, seats: row.seats });
  return { ...row, fairSeatPaise: fair };
}

/** A ride request with its rider's name and avatar (join user_profiles on the rider). */
export const requestWithRider = {
  id: rideRequests.id,
  riderId: rideRequests.riderId,
  seats: rideRequests.seats,
  status: rideRequests.status,
  notes: rideRequests.notes,
  createdAt: rideRequests.createdAt,
  // Issue 36: the place the rider asked to be picked up at (null: the ride's start).
  pickupPlaceId: rideRequests.pickupPlaceId,
  riderName: userProfiles.fullName,
  riderAvatarUrl: userProfiles.avatarUrl,
  // Issue 16: the rider's workplace badge (every use joins the request's ride).
  riderVerified: workplaceBadge(rideRequests.riderId, rides.communityId),
};

/**
 * A column under its own name. D1 returns batch rows as objects keyed by column name, so
 * two selected columns with the same name (ride_requests.seats and rides.seats) would
 * collide and shift every value after them; batched joins alias the duplicates.
 */
export const aliased = <T>(col: SQLiteColumn, name: string) => sql<T>`${col}`.as(name);
