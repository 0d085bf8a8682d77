import { istDate } from "./time";

// Issue 37: the trip on the day of the ride (status, pickup code, share link). Pure rules.

/** A share link outlives the trip by this long, so the family sees that it ended. */
export const SHARE_AFTER_END_MS = 60 * 60_000;
/** A trip nobody ended stops being shared this long after its departure. */
export const SHARE_UNENDED_MS = 12 * 60 * 60_000;
/** Wrong pickup codes allowed per booking in one window, and the window. */
export const PICKUP_CODE_TRIES = 5;
export const PICKUP_CODE_WINDOW_MS = 15 * 60_000;
/** Alerts to the emergency contact one person may send in an hour. */
export const ALERTS_PER_HOUR = 3;

export const NOT_RIDE_DAY = "Trip status can only be changed on the day of the ride.";
export const ONLY_DRIVER_RUNS_TRIP = "Only the driver can change this trip's status.";
export const WRONG_PICKUP_CODE = "That pickup code is not right. Ask the rider to read it from their ride page.";
export const TOO_MANY_CODES =
  "Too many wrong pickup codes for this rider. Wait 15 minutes, then try again with the code on their ride page.";
export const PICKUP_CODE_FORMAT = "Enter the rider's 4-digit pickup code";

/** The ride runs today in Bengaluru (its IST date is today's). */
export const isRideDay = (rideDate: string, now: number) => rideDate === istDate(now);

type TripTimes = {
  status: string;
  departsAt: number;
  tripEndedAt: number | null;
  completedAt: number | null;
};

/** When a share link of this trip stops working (0: already dead, a cancelled ride). */
export function shareEndsAt(t: TripTimes): number {
  if (t.status === "cancelled") return 0;
  const ended = t.tripEndedAt ?? t.completedAt;
  return ended !== null ? ended + SHARE_AFTER_END_MS : t.departsAt + SHARE_UNENDED_MS;
}

export type TripStage = "not_started" | "started" | "ended";

export function tripStage(startedAt: number | null, endedAt: number | null): TripStage {
  if (endedAt !== null) return "ended";
  return startedAt !== null ? "started" : "not_started";
}

export const TRIP_STAGE_LABEL: Record<TripStage, string> = {
  not_started: "Not started yet",
  started: "On the way",
  ended: "Trip ended",
};

/** A rider's place in the trip, from their request's marks. */
export function riderStage(r: { pickedUpAt: number | null; droppedAt: number | null }) {
  if (r.droppedAt !== null) return "Dropped";
  return r.pickedUpAt !== null ? "Picked up" : "Waiting for pickup";
}

/** The first word of a full name: all a share link shows of a person. */
export const firstNameOf = (fullName: string | null | undefined) => fullName?.trim().split(/\s+/)[0] || "The driver";
