// Ranking rides for a distance-and-time search (issue 14): how far a rider walks to the
// pickup and from the drop, and how much earlier or later the ride leaves than wanted.
import { straightLineKm } from "./places";

/** Walking pace that turns a distance into minutes (5 km/h): 1 km walked costs as much as 12 minutes waited. */
export const WALK_MINUTES_PER_KM = 12;

export const RADIUS_KM = { min: 0.5, max: 10, default: 2 } as const;
export const WINDOW_MINUTES = { min: 0, max: 60, default: 15 } as const;
export const RADIUS_CHOICES = [0.5, 1, 2, 3, 5, 10] as const;
export const WINDOW_CHOICES = [15, 30, 45, 60] as const;

type Point = { lat: number; lng: number };
export type MatchSearch = { from: Point; to: Point; departsAt: number; radiusKm: number; windowMinutes: number };
export type Match = { pickupKm: number; dropKm: number; minutesOff: number; score: number };

/**
 * The match of one ride (its pickup, drop and departure) for a search, or null when the
 * pickup or drop is farther than the radius or it leaves outside the window. Distances are
 * great-circle (haversine); the score is walking minutes plus minutes off, lower is better.
 */
export function matchRide(search: MatchSearch, ride: { from: Point; to: Point; departsAt: number }): Match | null {
  const pickupKm = straightLineKm(search.from, ride.from);
  const dropKm = straightLineKm(search.to, ride.to);
  const minutesOff = Math.round((ride.departsAt - search.departsAt) / 60_000);
  if (pickupKm > search.radiusKm || dropKm > search.radiusKm) return null;
  if (Math.abs(ride.departsAt - search.departsAt) > search.windowMinutes * 60_000) return null;
  return { pickupKm, dropKm, minutesOff, score: (pickupKm + dropKm) * WALK_MINUTES_PER_KM + Math.abs(minutesOff) };
}

/** Matching rides best first (then earlier departure, then id, so the order is stable). */
export function rankMatches<R extends { id: string; departsAt: number }>(
  search: MatchSearch,
  rides: (R & { from: Point; to: Point })[],
): (R & { match: Match })[] {
  const out: (R & { match: Match })[] = [];
  for (const r of rides) {
    const match = matchRide(search, r);
    if (match) out.push({ ...r, match });
  }
  return out.sort((a, b) => a.match.score - b.match.score || a.departsAt - b.departsAt || a.id.localeCompare(b.id));
}

/** "1.4 km", "350 m": what a result says about a walk. */
export function formatWalk(km: number): string {
  return km < 1 ? `${Math.round((km * 1000) / 10) * 10} m` : `${(Math.round(km * 10) / 10).toLocaleString("en-IN")} km`;
}

/** "on time", "20 min later", "5 min earlier". */
export function formatMinutesOff(minutes: number): string {
  if (minutes === 0) return "on time";
  return `${Math.abs(minutes)} min ${minutes > 0 ? "later" : "earlier"}`;
}
