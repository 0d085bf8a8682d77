// Saved-search alerts along the route (ADR 0049, "alerts by radius class"). A saved search is
// kept once, at the cell of its pickup in a grid as coarse as its radius class; a published
// ride looks up, per class, the cells of that grid within the class's radius of its route,
// each at the minutes the driver passes there. So each search is read once, whatever the number
// of route cells its pickup circle touches, and a search picked up mid-route is found.
import { straightLineKm } from "./places";
import { ROAD_FACTOR } from "./ride-limits";
import { CITY_KMH, DETOUR_LATE_MINUTES, PICKUP_LEAD_MINUTES, WINDOW_MINUTES } from "./ride-match";

type Point = { lat: number; lng: number };

/**
 * A search whose radius is at most `km` is kept at its pickup's cell of a grid `deg` wide: the
 * grid grows with the radius, so each class's lookup has about as many cells (a 10 km class
 * on the 0.02 grid would be about 150 cells for a city ride, on 0.1 about 15).
 */
export const SPOT_CLASSES = [
  { km: 2, deg: 0.02 },
  { km: 5, deg: 0.05 },
  { km: 10, deg: 0.1 },
] as const;

/** The class of a search's radius (the first whose `km` holds it). */
export function spotClass(radiusKm: number): number {
  const i = SPOT_CLASSES.findIndex((c) => radiusKm <= c.km);
  return i < 0 ? SPOT_CLASSES.length - 1 : i;
}

const ROW = 100_000;
// Rounded first, as cellOf does, so a place on a grid line falls in one cell in JS and SQL.
const gridIndex = (v: number, deg: number) => Math.floor(Math.round((v / deg) * 1e6) / 1e6);

/** A point's cell of the class grid `deg` (keyed as cellOf keys the search grid). */
export const spotCell = (p: Point, deg: number) => gridIndex(p.lat, deg) * ROW + gridIndex(p.lng + 180, deg);

/**
 * How far a search's window reaches, rounded up to one of these (`saved_search_spots.reach`):
 * the lookup ranges each reach's minutes apart, so the many searches of +-15 minutes are not
 * read over the +-60 minutes the widest window needs. More reaches cost a seek each per cell.
 */
export const SPOT_REACHES = [15, WINDOW_MINUTES.max] as const;
export const spotReach = (windowMinutes: number) => SPOT_REACHES.find((r) => windowMinutes <= r) ?? WINDOW_MINUTES.max;

/** The one lookup row of a saved search: its class, its pickup's cell in the class grid, its reach. */
export function searchSpot(from: Point, radiusKm: number, windowMinutes: number) {
  const klass = spotClass(radiusKm);
  return { klass, cell: spotCell(from, SPOT_CLASSES[klass].deg), reach: spotReach(windowMinutes) };
}

const KM_PER_DEG = (Math.PI * 6371) / 180;

/** The cells of grid `deg` having a point within `km` of `p`. */
function gridCellsNear(p: Point, km: number, deg: number): number[] {
  const dLat = km / KM_PER_DEG;
  const dLng = km / (KM_PER_DEG * Math.cos(((Math.abs(p.lat) + dLat) * Math.PI) / 180));
  const clamp = (v: number, lo: number) => Math.min(Math.max(v, lo), lo + deg);
  const cells: number[] = [];
  for (let r = gridIndex(p.lat - dLat, deg); r <= gridIndex(p.lat + dLat, deg); r++) {
    for (let c = gridIndex(p.lng + 180 - dLng, deg); c <= gridIndex(p.lng + 180 + dLng, deg); c++) {
      const nearest = { lat: clamp(p.lat, r * deg), lng: clamp(p.lng + 180, c * deg) - 180 };
      if (straightLineKm(p, nearest) <= km * 1.001 + 1e-6) cells.push(r * ROW + c);
    }
  }
  return cells;
}

/** Samples along the route this far apart; a point of the line is within half of it of one. */
const SAMPLE_KM = 0.1;
const roadMinutes = (km: number) => ((km * ROAD_FACTOR) / CITY_KMH) * 60;

/**
 * A cell of a class grid near a route: `first` and `last` are the whole minutes after the
 * departure (rounded outwards) when the driver passes the points of the line within the class's
 * radius of the cell. Only the line up to PICKUP_LEAD_MINUTES: no pickup comes later.
 */
export type RouteSpot = { klass: number; cell: number; first: number; last: number };

export function routeSpots(route: Point[]): RouteSpot[] {
  const spots = new Map<string, RouteSpot>();
  // A sample stands for the line up to SAMPLE_KM / 2 either side: its minutes and reach widen.
  const slackMinutes = roadMinutes(SAMPLE_KM / 2);
  let along = 0;
  for (let i = 0; i + 1 < route.length; i++) {
    const [a, b] = [route[i], route[i + 1]];
    const km = straightLineKm(a, b);
    const steps = Math.max(1, Math.ceil(km / SAMPLE_KM));
    for (let k = 0; k <= steps; k++) {
      const t = k / steps;
      const minutes = roadMinutes(along + km * t);
      if (minutes - slackMinutes > PICKUP_LEAD_MINUTES) return [...spots.values()];
      const p = { lat: a.lat + (b.lat - a.lat) * t, lng: a.lng + (b.lng - a.lng) * t };
      const [lo, hi] = [Math.floor(minutes - slackMinutes), Math.ceil(minutes + slackMinutes)];
      SPOT_CLASSES.forEach(({ km: radius, deg }, klass) => {
        for (const cell of gridCellsNear(p, radius + SAMPLE_KM / 2, deg)) {
          const key = `${klass}:${cell}`;
          const s = spots.get(key);
          if (!s) spots.set(key, { klass, cell, first: lo, last: hi });
          else {
            s.first = Math.min(s.first, lo);
            s.last = Math.max(s.last, hi);
          }
        }
      });
    }
    along += km;
  }
  return [...spots.values()];
}

/**
 * The minutes of the day a search kept at a route spot may want the pickup, for a ride leaving
 * at minute `departure`: from when the driver passes the spot's points to DETOUR_LATE_MINUTES
 * after (a pickup by detour), whole minutes rounding each estimate. The search's own minute
 * must be within its window of them; the index ranges each reach that far either side.
 */
export function spotMinutes(spot: RouteSpot, departure: number) {
  return [departure + spot.first - 1, departure + spot.last + DETOUR_LATE_MINUTES + 1] as const;
}
