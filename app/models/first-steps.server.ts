import { istDate } from "../domain/time";
import { nearbyCommunitiesQuery, type NearbyCommunity } from "./communities.server";
import type { Db } from "./db.server";
import { placeByName } from "./places.server";
import { readOf } from "./statements.server";

// A rider's first steps (issue 38, item 4): a member without a car is led to finding a ride
// (their commute search, communities near home) where a driver is led to Create Ride.

type Rider = { id: string; hasCar: boolean; residentialArea: string | null };

/** The read the dashboard adds to its batch for a rider (communities near home), or null. */
export function firstStepsQuery(db: Db, user: Rider) {
  return user.hasCar ? null : nearbyCommunitiesQuery(db, user.id, user.residentialArea);
}

/** firstStepsQuery as a batch's reads: none for a driver. */
export const firstStepsReads = (db: Db, user: Rider) => {
  const query = firstStepsQuery(db, user);
  return query ? ([readOf(db, query)] as const) : ([] as const);
};

/** What "Find your commute" shows, from the profile and the rows of firstStepsQuery; null for a driver. */
export function firstStepsFrom(
  user: Rider,
  profile: { residentialArea: string | null; workplace: string | null } | null,
  nearby: unknown,
  now: number,
) {
  if (user.hasCar) return null;
  const home = profile?.residentialArea ?? "";
  const work = profile?.workplace ?? "";
  return {
    home,
    work,
    saveable: Boolean(placeByName(home) && placeByName(work)),
    today: istDate(now),
    nearby: (nearby as NearbyCommunity[] | undefined) ?? null,
  };
}
