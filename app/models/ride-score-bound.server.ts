import { sql, type SQL } from "drizzle-orm";
import { CITY_KMH, DETOUR_LATE_MINUTES, PICKUP_LEAD_MINUTES, WALK_MINUTES_PER_KM } from "../domain/ride-match";
import { ROAD_FACTOR } from "../domain/ride-limits";

// The widest searches (ADR 0049, "the widest date search", "page 2 and the weekday search"): a
// score no match of a ride (or commute) can beat, from its two ends, departure and whether it
// has vias, so a search can rank those ending in its circle by an index alone and read only the
// most promising ones.

/**
 * The most minutes any driver's profile allows for a detour today (at most 60, user_profiles'
 * check): one row of user_profiles_max_detour_idx, read once a statement. A ride's own driver
 * allows no more, so the bound stays below every score while most drivers keep the default.
 */
export const LARGEST_DETOUR =
  "(SELECT coalesce(max(max_detour_minutes), 60) FROM user_profiles INDEXED BY user_profiles_max_detour_idx)";
/** A bound that says "cannot match": compared, never shown. */
export const NO_MATCH_BOUND = 1e9;

const KM_PER_DEG = (Math.PI * 6371) / 180;
// Road minutes a straight-line km costs (ride-match's roadMinutes).
const ROAD_MIN_PER_KM = (ROAD_FACTOR / CITY_KMH) * 60;

type Pt = { lat: number; lng: number };
type Cols = { lat: string; lng: string };
export type BoundSearch = { from: Pt; to: Pt; departsAt: number; radiusKm: number; windowMinutes: number };

/**
 * A distance in km between two points no larger (`low`) or no smaller than the haversine one,
 * in plain arithmetic (D1 may lack SQL math functions). A length is at least its projection on
 * any direction: the largest of five (0, 22.5, 45, 67.5 and 90 degrees) is within 2% of it.
 * The degree of longitude is taken at the latitude a degree away from the search that makes it
 * shorter (or longer), and 0.2% more covers the curve: every route of the city is far nearer.
 */
function distance(a: Cols, b: Cols, lat: number, side: "low" | "high") {
  const rad = ((Math.abs(lat) + (side === "low" ? 1 : -1)) * Math.PI) / 180;
  const x = `abs(${a.lng} - ${b.lng}) * ${KM_PER_DEG * Math.cos(rad)}`;
  const y = `abs(${a.lat} - ${b.lat}) * ${KM_PER_DEG}`;
  // Rounded down: each is then a projection on a direction a little shorter than 1.
  const longest = `max(${x}, ${y}, 0.7071 * (${x} + ${y}), 0.9238 * ${x} + 0.3826 * ${y}, 0.3826 * ${x} + 0.9238 * ${y})`;
  // 1 / cos(11.25 degrees) = 1.0196: no length is further from the nearest direction.
  return side === "low" ? `(${longest} * 0.998)` : `(${longest} * ${1.0197 * 1.002})`;
}

/**
 * How far along the ride's line A-B (km from A) its point nearest `p` lies, taken high: the
 * dot product of A->p and A->B on a flat map at `p`'s latitude, 1% of |Ap| x |AB| more for the
 * map and the projections, over |AB| taken low; at most |AB|, and 0 when p is behind A.
 */
function alongSegment(t: string, p: Pt) {
  const k = Math.cos((p.lat * Math.PI) / 180);
  const dot = `((${p.lng} - ${t}.from_lng) * (${t}.to_lng - ${t}.from_lng) * ${k * k} + (${p.lat} - ${t}.from_lat) * (${t}.to_lat - ${t}.from_lat)) * ${KM_PER_DEG * KM_PER_DEG}`;
  const [A, B] = [
    { lat: `${t}.from_lat`, lng: `${t}.from_lng` },
    { lat: `${t}.to_lat`, lng: `${t}.to_lng` },
  ];
  const P = { lat: String(p.lat), lng: String(p.lng) };
  const [apHigh, abHigh, abLow] = [
    distance(A, P, p.lat, "high"),
    distance(A, B, p.lat, "high"),
    distance(A, B, p.lat, "low"),
  ];
  return `(CASE WHEN ${abLow} > 0 THEN min(${abHigh}, (max(0, ${dot}) + 0.01 * ${apHigh} * ${abHigh}) / ${abLow}) ELSE ${abHigh} END)`;
}

/**
 * The columns of the ride `t` (from_lat ... via_place_ids, departs_at) that `scoreBound` reads,
 * for a select over an index that holds them: distances in km to the search's places, the
 * minutes from the wanted time to the departure (`dep`: a commute's from its time of day), and
 * whether the ride has vias.
 */
export function scoreBoundColumns(
  t: string,
  s: BoundSearch,
  dep = `((${t}.departs_at - ${s.departsAt}) / 60000.0)`,
): SQL {
  const lit = (p: Pt): Cols => ({ lat: String(p.lat), lng: String(p.lng) });
  const [A, B] = [
    { lat: `${t}.from_lat`, lng: `${t}.from_lng` },
    { lat: `${t}.to_lat`, lng: `${t}.to_lng` },
  ];
  const [P, Q] = [lit(s.from), lit(s.to)];
  const d = (a: Cols, b: Cols, side: "low" | "high" = "low") => distance(a, b, s.from.lat, side);
  return sql.raw(
    [
      `${t}.via_place_ids IS NOT NULL AS vias`,
      `${dep} AS dep`,
      `${d(A, P)} AS ap`,
      `${d(A, P, "high")} AS ap_high`,
      `${d(A, Q)} AS aq`,
      `${d(Q, B)} AS qb`,
      `${d(P, B)} AS pb`,
      `${d(A, B, "high")} AS ab_high`,
      `${alongSegment(t, s.from)} AS an_high`,
    ].join(", "),
  );
}

/**
 * The search's score bound of a ride, in minutes, from `scoreBoundColumns`, or NO_MATCH_BOUND
 * when no way of matching fits the window, the pickup lead, the radius or the largest detour any
 * driver may allow. For a ride without vias: the rule's own four ways (walk to its start or be
 * fetched, walk from its end or be dropped off), each distance and rounding taken in the rule's
 * favour; with vias only the minutes off count (the pickup is 0 to PICKUP_LEAD_MINUTES after
 * the departure). A match's score (matchRide) is never below it (score-bound.test.ts).
 */
export function scoreBound(s: BoundSearch, largestDetour = LARGEST_DETOUR): SQL {
  const pq = distance(
    { lat: String(s.from.lat), lng: String(s.from.lng) },
    { lat: String(s.to.lat), lng: String(s.to.lng) },
    s.from.lat,
    "low",
  );
  const { radiusKm: r, windowMinutes: w } = s;
  const road = (km: string) => `${ROAD_MIN_PER_KM} * ${km}`;
  // |x| for the least x in [lo, hi]: a pickup time known only within its rounding.
  const off = (lo: string, hi: string) => `max(0, ${lo}, -(${hi}))`;
  const offStart = "abs(dep)";
  const offFetched = off(`dep + ${road("ap")} - 0.5`, `dep + ${road("ap_high")} + 0.5`);
  const detour = (extraKm: string) => `max(0, ${road(`(${extraKm})`)} - 0.5)`;
  const walk = (km: string) => `${WALK_MINUTES_PER_KM} * ${km}`;
  const way = (ok: string[], score: string) =>
    `(CASE WHEN ${ok.join(" AND ")} THEN ${score} ELSE ${NO_MATCH_BOUND} END)`;
  const atStart = [`ap <= ${r}`, `${offStart} <= ${w}`];
  // A pickup by detour leaves the line A-B at most DETOUR_LATE_MINUTES after the driver passes
  // the line's point nearest the rider (matchRide's stopsFor): road(|AP|) - road(|AN|) <= 10.
  const fetched = [
    `${offFetched} <= ${w}`,
    `${road("ap")} - 0.5 <= ${PICKUP_LEAD_MINUTES}`,
    `${road("ap")} - ${road("an_high")} <= ${DETOUR_LATE_MINUTES}`,
  ];
  const atEnd = `qb <= ${r}`;
  const detourOk = (extraKm: string) => `${detour(extraKm)} <= ${largestDetour}`;
  const bothFetched = `ap + ${pq} + qb - ab_high`;
  const droppedOff = "aq + qb - ab_high";
  const fetchedOnly = "ap + pb - ab_high";
  const plain = `min(${[
    way([...fetched, detourOk(bothFetched)], `${detour(bothFetched)} + ${offFetched}`),
    way([...atStart, detourOk(droppedOff)], `${walk("ap")} + ${detour(droppedOff)} + ${offStart}`),
    way([...fetched, atEnd, detourOk(fetchedOnly)], `${detour(fetchedOnly)} + ${walk("qb")} + ${offFetched}`),
    way([...atStart, atEnd], `${walk("(ap + qb)")} + ${offStart}`),
  ].join(", ")})`;
  const viaOff = off("dep", `dep + ${PICKUP_LEAD_MINUTES}`);
  return sql.raw(`(CASE WHEN NOT vias THEN ${plain} WHEN ${viaOff} <= ${w} THEN ${viaOff} ELSE ${NO_MATCH_BOUND} END)`);
}
