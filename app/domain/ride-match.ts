// Ranking rides for a distance-and-time search (issue 14): how far a rider walks to the
// pickup and from the drop, and how much earlier or later the ride leaves than wanted.
import { formatDecimal } from "./numbers";
import { straightLineKm } from "./places";
import { ROAD_FACTOR } from "./ride-limits";

/** Walking pace that turns a distance into minutes (5 km/h): 1 km walked costs as much as 12 minutes waited. */
export const WALK_MINUTES_PER_KM = 12;

export const RADIUS_KM = { min: 0.5, max: 10, default: 2 } as const;
export const WINDOW_MINUTES = { min: 0, max: 60, default: 15 } as const;
export const RADIUS_CHOICES = [0.5, 1, 2, 3, 5, 10] as const;
export const WINDOW_CHOICES = [15, 30, 45, 60] as const;

type Point = { lat: number; lng: number };
/**
 * A search. `anchor`: the end of the rider's trip that must lie within the radius of the same
 * end of the ride (the end the search ranges its index on, ADR 0049); none: either may be
 * anywhere near the route.
 */
export type MatchSearch = {
  from: Point;
  to: Point;
  departsAt: number;
  radiusKm: number;
  windowMinutes: number;
  anchor?: "from" | "to";
  /**
   * One end is any of these points (issue 36: "Any metro station"; that end's own point is
   * not read): each ride is matched from the point whose match scores best.
   */
  any?: AnyEnd;
};
export type AnyEnd = { end: "from" | "to"; points: readonly (Point & { name: string })[] };

/**
 * The latest a pickup may be after the ride's departure, in minutes: a search reads rides
 * leaving up to this much before its window (ADR 0049). At CITY_KMH it is 20 km of road.
 */
export const PICKUP_LEAD_MINUTES = 60;

/**
 * Where a match picks the rider up (or drops them): the place's index in the route (start 0,
 * then the vias, the end last), or -1 for the rider's own place, reached by a detour.
 */
export type MatchPoint = { routeIndex: number; walkKm: number; point: Point };
export type Match = {
  pickupKm: number;
  dropKm: number;
  /** Minutes between the wanted time and the estimated pickup time (later is positive). */
  minutesOff: number;
  score: number;
  pickup: MatchPoint;
  drop: MatchPoint;
  /** The estimated time the driver reaches the pickup point (epoch ms). */
  pickupAt: number;
  /** The minutes the driver's detour adds (0 when the rider walks to a place of the route). */
  detourMinutes: number;
  detourKm: number;
  /** With `any`: the name of the point the rider starts or ends at (a metro station's). */
  anyPoint?: string;
};

/** What a result card shows of a match: no ranking score or points, distances to 10 m (the page stays small). */
export type ShownMatch = Pick<
  Match,
  "minutesOff" | "pickupAt" | "detourMinutes" | "pickupKm" | "dropKm" | "anyPoint"
> & {
  /** `at`: where the rider is picked up, when that is not the driver's start (its nearest station). */
  pickup: Pick<MatchPoint, "routeIndex"> & { at?: Point };
  drop: Pick<MatchPoint, "routeIndex">;
};
// 4 decimals are about 11 m: enough to name the nearest station, few bytes a card.
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
export const shownMatch = (m: Match): ShownMatch => ({
  pickupKm: Math.round(m.pickupKm * 100) / 100,
  dropKm: Math.round(m.dropKm * 100) / 100,
  minutesOff: m.minutesOff,
  pickupAt: m.pickupAt,
  detourMinutes: Math.round(m.detourMinutes),
  pickup: {
    routeIndex: m.pickup.routeIndex,
    ...(m.pickup.routeIndex !== 0 ? { at: { lat: round4(m.pickup.point.lat), lng: round4(m.pickup.point.lng) } } : {}),
  },
  drop: { routeIndex: m.drop.routeIndex },
  ...(m.anyPoint ? { anyPoint: m.anyPoint } : {}),
});

/** A ride's route for matching: its start, up to three vias, its end, the driver's detour limit. */
export type RouteRide = { from: Point; to: Point; departsAt: number; vias?: Point[]; maxDetourMinutes?: number };

// The route model (ADR 0049): straight lines between the route's points, times the road factor
// that Suggest cost uses, at a stated city speed. Both are averages: a real road may be longer
// and a peak hour slower, so a pickup time is an estimate (the ADR gives the error).
/** Bengaluru's average speed by car at commute hours, km/h (ADR 0049). */
export const CITY_KMH = 20;
const roadMinutes = (straightKm: number) => ((straightKm * ROAD_FACTOR) / CITY_KMH) * 60;

const KM_PER_DEG = (Math.PI * 6371) / 180;
/**
 * Distance in km from `p` to the segment a-b, on a flat map around `a` (at city scale the
 * flat map is within a fraction of a percent of the haversine).
 */
function segmentKm(p: Point, a: Point, b: Point): number {
  return nearestOnSegment(p, a, b).km;
}

/** The point of segment a-b nearest `p`: its distance from `p` (km) and its share `t` of the way from a. */
function nearestOnSegment(p: Point, a: Point, b: Point): { km: number; t: number } {
  const k = Math.cos((a.lat * Math.PI) / 180);
  const [bx, by] = [(b.lng - a.lng) * k, b.lat - a.lat];
  const [px, py] = [(p.lng - a.lng) * k, p.lat - a.lat];
  const len2 = bx * bx + by * by;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, (px * bx + py * by) / len2));
  return { km: Math.hypot(px - t * bx, py - t * by) * KM_PER_DEG, t };
}

/** The distance in km from `p` to the route's line (its points joined in order). */
export function routeKm(p: Point, route: Point[]): number {
  let best = straightLineKm(p, route[0]);
  for (let i = 0; i + 1 < route.length; i++) best = Math.min(best, segmentKm(p, route[i], route[i + 1]));
  return best;
}

/**
 * A stop of the rider: at a place of the route (`at`, walking there) or the rider's own place
 * put into the route after point `after` (the driver's detour).
 */
type Stop =
  | { at: number; after?: undefined; walkKm: number; point: Point }
  | { at?: undefined; after: number; walkKm: 0; point: Point };

/**
 * A pickup by detour leaves the route from a segment that passes within the search radius and
 * reaches the rider at most this many minutes after the driver would pass the segment's point
 * nearest the rider. The corridor index ranges the cells of the pickup's circle by the time
 * the driver passes them, so this bounds how much earlier than the window it looks (ADR 0049).
 */
export const DETOUR_LATE_MINUTES = 10;

function stopsFor(rider: Point, route: Point[], radiusKm: number, first: number, last: number, pickup = false): Stop[] {
  const stops: Stop[] = [];
  for (let i = first; i <= last; i++) {
    const walkKm = straightLineKm(rider, route[i]);
    if (walkKm <= radiusKm) stops.push({ at: i, walkKm, point: route[i] });
  }
  // Reached by a detour only when the place lies near the route's line: the search's prefilter
  // (a box around the route, widened by the radius) then never drops a match.
  if (routeKm(rider, route) <= radiusKm) {
    for (let k = 0; k + 1 < route.length; k++) {
      const [a, b] = [route[k], route[k + 1]];
      if (pickup) {
        const near = nearestOnSegment(rider, a, b);
        if (near.km > radiusKm) continue;
        const lateMinutes = roadMinutes(straightLineKm(a, rider)) - roadMinutes(near.t * straightLineKm(a, b));
        if (lateMinutes > DETOUR_LATE_MINUTES) continue;
      }
      stops.push({ after: k, walkKm: 0, point: rider });
    }
  }
  return stops;
}

/**
 * The driven route (the route's points with the rider's own places put in, pickup first): its
 * length and its length up to the pickup, in km. Why not an array of its points (ADR 0066): a
 * search measures each of up to 200 candidates this way, several stop pairs each. The sums add
 * the same straight lines in the same order as summing that array would, so they are equal to
 * the last bit; a segment of the route itself is its length measured once a ride (`segKm`).
 */
function drivenKm(route: Point[], segKm: number[], p: Stop, d: Stop): { km: number; toPickup: number } {
  let km = 0;
  let toPickup = 0;
  let prev = route[0];
  let prevAt = 0;
  for (let i = 0; i < route.length; i++) {
    if (i > 0) {
      km += prevAt === i - 1 ? segKm[i - 1] : straightLineKm(prev, route[i]);
      prev = route[i];
      prevAt = i;
    }
    if (p.at === i) toPickup = km;
    if (p.after === i) {
      km += straightLineKm(prev, p.point);
      prev = p.point;
      prevAt = -1;
      toPickup = km;
    }
    if (d.after === i) {
      km += straightLineKm(prev, d.point);
      prev = d.point;
      prevAt = -1;
    }
  }
  return { km, toPickup };
}

/** Where a stop falls in the route's order: a place of the route at i, an inserted place at i + 0.5. */
const order = (s: Stop) => s.at ?? s.after + 0.5;

/**
 * The match of one ride for a search, or null. The rider's pickup and drop are each either a
 * place of the route within the search radius (the rider walks) or the rider's own place near
 * the route's line (the driver detours); the pickup comes before the drop along the route; the
 * detour (added straight-line km x ROAD_FACTOR at CITY_KMH) is within the driver's limit (none
 * when not given); the estimated pickup time, the departure plus the road minutes to the pickup,
 * is within the window. Of the matches the best is kept: walking minutes plus the detour's
 * minutes plus minutes off, lower is better. With no vias and no detour this is the old rule:
 * the start and the end within the radius, leaving within the window.
 */
export function matchRide(search: MatchSearch, ride: RouteRide): Match | null {
  if (search.any) return matchAtAny(search, search.any, ride);
  if (search.anchor === "from" && straightLineKm(search.from, ride.from) > search.radiusKm) return null;
  if (search.anchor === "to" && straightLineKm(search.to, ride.to) > search.radiusKm) return null;
  const route = [ride.from, ...(ride.vias ?? []).slice(0, 3), ride.to];
  const last = route.length - 1;
  const limit = ride.maxDetourMinutes ?? 0;
  const pickups = stopsFor(search.from, route, search.radiusKm, 0, last - 1, true);
  const drops = stopsFor(search.to, route, search.radiusKm, 1, last);
  if (pickups.length === 0 || drops.length === 0) return null;
  const segKm: number[] = [];
  let baseKm = 0;
  for (let i = 0; i < last; i++) {
    segKm.push(straightLineKm(route[i], route[i + 1]));
    baseKm += segKm[i];
  }
  let best: Match | null = null;
  for (const p of pickups) {
    for (const d of drops) {
      if (order(p) > order(d) || (order(p) === order(d) && p.at !== undefined)) continue;
      const driven = drivenKm(route, segKm, p, d);
      const detourKm = Math.max(0, driven.km - baseKm) * ROAD_FACTOR;
      const detourMinutes = Math.round((detourKm / CITY_KMH) * 60);
      if (detourMinutes > limit) continue;
      const pickupAt = ride.departsAt + Math.round(roadMinutes(driven.toPickup)) * 60_000;
      if (pickupAt - ride.departsAt > PICKUP_LEAD_MINUTES * 60_000) continue;
      const minutesOff = Math.round((pickupAt - search.departsAt) / 60_000);
      if (Math.abs(pickupAt - search.departsAt) > search.windowMinutes * 60_000) continue;
      const score = (p.walkKm + d.walkKm) * WALK_MINUTES_PER_KM + detourMinutes + Math.abs(minutesOff);
      if (best && best.score <= score) continue;
      best = {
        pickupKm: p.walkKm,
        dropKm: d.walkKm,
        minutesOff,
        score,
        pickup: { routeIndex: p.at ?? -1, walkKm: p.walkKm, point: p.point },
        drop: { routeIndex: d.at ?? -1, walkKm: d.walkKm, point: d.point },
        pickupAt,
        detourMinutes,
        detourKm,
      };
    }
  }
  return best;
}

/**
 * "Any metro station": the rule above from each point near enough to the route to be a stop
 * (a stop is within the radius of the route's line), the best score kept.
 */
function matchAtAny(search: MatchSearch, any: AnyEnd, ride: RouteRide): Match | null {
  const route = [ride.from, ...(ride.vias ?? []).slice(0, 3), ride.to];
  let best: Match | null = null;
  for (const p of any.points) {
    if (routeKm(p, route) > search.radiusKm) continue;
    const m = matchRide({ ...search, any: undefined, [any.end]: p }, ride);
    if (m && (!best || m.score < best.score)) best = { ...m, anyPoint: p.name };
  }
  return best;
}

/** Matching rides best first (then earlier departure, then id, so the order is stable). */
export function rankMatches<R extends { id: string; departsAt: number }>(
  search: MatchSearch,
  rides: (R & RouteRide)[],
): (R & { match: Match })[] {
  const out: (R & { match: Match })[] = [];
  for (const r of rides) {
    const match = matchRide(search, r);
    if (match) out.push({ ...r, match });
  }
  return out.sort((a, b) => a.match.score - b.match.score || a.departsAt - b.departsAt || a.id.localeCompare(b.id));
}

/**
 * The box around a route's points (degrees), stored on the ride and the commute so a search
 * can drop, before ranking, rides whose line passes nowhere near the rider.
 */
export function routeBox(points: Point[]) {
  return {
    routeSouth: Math.min(...points.map((p) => p.lat)),
    routeNorth: Math.max(...points.map((p) => p.lat)),
    routeWest: Math.min(...points.map((p) => p.lng)),
    routeEast: Math.max(...points.map((p) => p.lng)),
  };
}

/** "1.4 km", "350 m": what a result says about a walk. */
export function formatWalk(km: number): string {
  return km < 1 ? `${Math.round((km * 1000) / 10) * 10} m` : `${formatDecimal(Math.round(km * 10) / 10)} km`;
}

/** "on time", "20 min later", "5 min earlier". */
export function formatMinutesOff(minutes: number): string {
  if (minutes === 0) return "on time";
  return `${Math.abs(minutes)} min ${minutes > 0 ? "later" : "earlier"}`;
}

/**
 * Every search-grid cell the route's line passes through (with `cellOf`): samples 100 m apart,
 * each with the cells within 60 m of it, so a line clipping a cell's corner still names it. A
 * saved search whose pickup circle reaches the line shares one of these cells (ADR 0049).
 */
export function routeCells(route: Point[], cellsNear: (lat: number, lng: number, km: number) => number[]): number[] {
  return [...new Set(routeCellTimes(route, cellsNear).map(([cell]) => cell))].sort((x, y) => x - y);
}

/**
 * How long a corridor index row stands for the driver's time in its cell: a route staying
 * longer in one cell gets another row (ADR 0049).
 */
export const CELL_SLICE_MINUTES = 10;

/**
 * The corridor index's rows of a route (ADR 0049): each cell of `routeCells` with the whole
 * minutes after the departure when the driver enters it (straight lines x ROAD_FACTOR at
 * CITY_KMH, as pickup times), `[cell, minutes]`. A cell the driver is still in, or back in,
 * CELL_SLICE_MINUTES later has another row, `[cell, minutes, 0]`: the 0 says only the first
 * row of a cell is a drop's (a drop is ranged by the departure, once per cell). So every
 * point of the line lies in a cell with a row at most CELL_SLICE_MINUTES before it is passed.
 */
export function routeCellTimes(
  route: Point[],
  cellsNear: (lat: number, lng: number, km: number) => number[],
): ([number, number] | [number, number, 0])[] {
  const entered = new Map<number, number>();
  const rows: ([number, number] | [number, number, 0])[] = [];
  let along = 0;
  for (let i = 0; i + 1 < route.length; i++) {
    const [a, b] = [route[i], route[i + 1]];
    const km = straightLineKm(a, b);
    const steps = Math.max(1, Math.ceil(km / 0.1));
    for (let k = 0; k <= steps; k++) {
      const t = k / steps;
      const minutes = Math.floor(roadMinutes(along + km * t));
      for (const c of cellsNear(a.lat + (b.lat - a.lat) * t, a.lng + (b.lng - a.lng) * t, 0.06)) {
        const last = entered.get(c);
        if (last !== undefined && minutes - last < CELL_SLICE_MINUTES) continue;
        entered.set(c, minutes);
        rows.push(last === undefined ? [c, minutes] : [c, minutes, 0]);
      }
    }
    along += km;
  }
  return rows.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
}

/**
 * How much earlier than the search's window a corridor row of its pickup's cells may be: the
 * driver enters a cell up to CELL_SLICE_MINUTES before passing a point of it, reaches a rider
 * by detour up to DETOUR_LATE_MINUTES after passing the point nearest them, and whole minutes
 * round each estimate (ADR 0049).
 */
export const PASS_SLACK_MINUTES = CELL_SLICE_MINUTES + DETOUR_LATE_MINUTES + 2;

/** The name of a match's stop: a place of the route (`route`: start, vias, end) or the rider's own. */
export const stopName = (stop: Pick<MatchPoint, "routeIndex">, route: string[], own: string) =>
  stop.routeIndex >= 0 ? (route[stop.routeIndex] ?? own) : own;

/**
 * A pickup point a rider asks for (issue 36, item 2): a place of the route, or a place the
 * driver reaches by a detour within their limit (before the end, at its best spot). Null when
 * the detour is too long. The same model as matchRide: the detour's minutes and the estimated
 * time the driver is there.
 */
export function pickupOnRoute(
  ride: RouteRide,
  p: Point,
): { routeIndex: number; detourMinutes: number; pickupAt: number } | null {
  const route = [ride.from, ...(ride.vias ?? []).slice(0, 3), ride.to];
  const at = (km: number) => ride.departsAt + Math.round(roadMinutes(km)) * 60_000;
  let along = 0;
  for (let i = 0; i + 1 < route.length; i++) {
    if (straightLineKm(route[i], p) < 0.05) return { routeIndex: i, detourMinutes: 0, pickupAt: at(along) };
    along += straightLineKm(route[i], route[i + 1]);
  }
  let best: { routeIndex: number; detourMinutes: number; pickupAt: number } | null = null;
  along = 0;
  for (let k = 0; k + 1 < route.length; k++) {
    const [a, b] = [route[k], route[k + 1]];
    const extraKm = (straightLineKm(a, p) + straightLineKm(p, b) - straightLineKm(a, b)) * ROAD_FACTOR;
    const detourMinutes = Math.round((Math.max(0, extraKm) / CITY_KMH) * 60);
    if (detourMinutes <= (ride.maxDetourMinutes ?? 0) && (!best || detourMinutes < best.detourMinutes))
      best = { routeIndex: -1, detourMinutes, pickupAt: at(along + straightLineKm(a, p)) };
    along += straightLineKm(a, b);
  }
  return best;
}
