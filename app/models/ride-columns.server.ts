import { sql } from "drizzle-orm";
import { type SQLiteColumn } from "drizzle-orm/sqlite-core";
import { rideRequests, rides, userProfiles } from "../../db/schema";
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
