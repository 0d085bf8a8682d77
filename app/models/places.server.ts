// The full place list (localities and landmarks, generated: app/models/places-data.server.ts)
// and how a typed name becomes one place. Server-only: 455 places would not fit the pages'
// initial-JS budget; the browser asks /places for suggestions instead.
import { findPlace } from "../domain/curated-places";
import { METRO_STATIONS, metroPlaceName } from "../domain/metro-stations";
import { PLACE_ALIASES } from "../domain/place-aliases";
import { cellOf, cellsWithin, placeSlug, type PlaceRecord, type PlaceResolution } from "../domain/places";
import { pickupOnRoute, routeBox, routeCellTimes } from "../domain/ride-match";
import { PLACE_ROWS } from "./places-data.server";

const LISTED: readonly PlaceRecord[] = PLACE_ROWS.map(([id, name, landmark, lat, lng, cell]) => ({
  id,
  name,
  kind: landmark ? "landmark" : "locality",
  lat,
  lng,
  cell,
}));

// Issue 36, item 4: every Namma Metro station is a landmark ("Majestic Metro Station"), so a
// search can start or end at one. A station the list already has (Baiyappanahalli, a curated
// landmark since issue 14) keeps its place and id: rides refer to it.
const listedNames = new Set(LISTED.map((p) => p.name.toLowerCase()));
export const METRO_PLACES: readonly PlaceRecord[] = METRO_STATIONS.map((s) => ({
  id: `metro-${placeSlug(s.name)}`,
  name: metroPlaceName(s),
  kind: "landmark" as const,
  lat: s.lat,
  lng: s.lng,
  cell: cellOf(s.lat, s.lng),
})).filter((p) => !listedNames.has(p.name.toLowerCase()));

export const PLACES: readonly PlaceRecord[] = [...LISTED, ...METRO_PLACES];

const fold = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
const BY_KEY = new Map(PLACES.map((p) => [fold(p.name), p]));
// Each name folded once, not on every suggestion request.
const FOLDED = PLACES.map((p) => fold(p.name));
const LONGEST = Math.max(...FOLDED.map((k) => k.length));
const BY_ID = new Map(PLACES.map((p) => [p.id, p]));
// A name people use (issue 36): checked after the list's own names, so an alias never hides a place.
const ALIASES = new Map(
  Object.entries(PLACE_ALIASES).flatMap(([alias, name]) => {
    const place = BY_KEY.get(fold(name));
    return place ? [[fold(alias), place] as const] : [];
  }),
);

export function placeByName(name: string): PlaceRecord | undefined {
  const key = fold(name);
  return BY_KEY.get(key) ?? ALIASES.get(key);
}

export function placeById(id: string): PlaceRecord | undefined {
  return BY_ID.get(id);
}

/**
 * Places whose name matches what was typed, best first: names starting with it, then names
 * with a word starting with it, then names containing it.
 */
export function suggestPlaces(typed: string, limit = 8): PlaceRecord[] {
  // Past the longest name nothing can start with or contain the text, and a typo's shared start
  // is at most a name long: the rest is dropped. A 110,000-character field (the fuzzer's) took
  // 4-7 s here, shortening it a character at a time against every name.
  const q = fold(typed).slice(0, LONGEST + 1);
  if (!q) return [];
  const scored: { p: PlaceRecord; s: number }[] = [];
  PLACES.forEach((p, i) => {
    const k = FOLDED[i];
    const s = k.startsWith(q) ? 0 : ` ${k}`.includes(` ${q}`) ? 1 : k.includes(q) ? 2 : -1;
    // The curated places (the old fixed list, where most rides start) before the others.
    if (s >= 0) scored.push({ p, s: s * 2 + (findPlace(p.name) ? 0 : 1) });
  });
  // A name people use that starts with it ("manya", "silk") suggests its place.
  for (const [alias, p] of ALIASES) {
    if (alias.startsWith(q) && !scored.some((x) => x.p === p)) scored.push({ p, s: 1 });
  }
  // Nothing contains it: the names sharing the longest start with it (a typo late in the word).
  if (!scored.length) {
    for (let n = q.length - 1; n >= 3 && !scored.length; n--) {
      const head = q.slice(0, n);
      PLACES.forEach((p, i) => {
        if (FOLDED[i].startsWith(head)) scored.push({ p, s: 0 });
      });
    }
  }
  return scored
    .sort((a, b) => a.s - b.s || a.p.name.length - b.p.name.length || a.p.name.localeCompare(b.p.name))
    .slice(0, limit)
    .map((x) => x.p);
}

/**
 * What a place field holds: the place whose name it is (case and punctuation aside), or a
 * short "did you mean" list (possibly empty). The ride form, the search and (after issue 14's
 * merge) the commute form all resolve through here.
 */
export function resolvePlace(typed: string): PlaceResolution {
  const exact = placeByName(typed);
  if (exact) return { place: exact };
  return { suggestions: suggestPlaces(typed, 5) };
}

/** The "did you mean" names of a ride form's typed pickup and drop, for their <datalist>s (no JS). */
export function placeOptionsOf(formData: FormData): Record<"fromLocation" | "toLocation", string[]> {
  const options = (field: string) =>
    resolvePlace(String(formData.get(field) ?? "")).suggestions?.map((p) => p.name) ?? [];
  return { fromLocation: options("fromLocation"), toLocation: options("toLocation") };
}

/**
 * The place columns of a ride or commute (migrations 0010 and 0034); a point overrides the
 * place's. `vias`: the route's via places in order (ADR 0049).
 */
export function ridePlaceColumns(
  from: PlaceRecord | undefined,
  to: PlaceRecord | undefined,
  points: { from?: { lat: number; lng: number }; to?: { lat: number; lng: number } } = {},
  vias: PlaceRecord[] = [],
) {
  const side = (p: PlaceRecord | undefined, at?: { lat: number; lng: number }) => {
    const lat = at?.lat ?? p?.lat ?? null;
    const lng = at?.lng ?? p?.lng ?? null;
    return { id: p?.id ?? null, lat, lng, cell: lat !== null && lng !== null ? cellOf(lat, lng) : null };
  };
  const a = side(from, points.from);
  const b = side(to, points.to);
  const ends = [a, b].flatMap((p) => (p.lat !== null && p.lng !== null ? [{ lat: p.lat, lng: p.lng }] : []));
  const box =
    ends.length === 2
      ? routeBox([ends[0], ...vias, ends[1]])
      : { routeSouth: null, routeNorth: null, routeWest: null, routeEast: null };
  const route = ends.length === 2 ? [ends[0], ...vias, ends[1]] : null;
  return {
    viaPlaceIds: vias.length ? vias.map((v) => v.id).join(" ") : null,
    ...box,
    // The corridor index's cells and minutes (ADR 0049); triggers write them to ride_route_cells.
    routeCells: route ? JSON.stringify(routeCellTimes(route, cellsWithin)) : null,
    fromPlaceId: a.id,
    fromLat: a.lat,
    fromLng: a.lng,
    fromCell: a.cell,
    toPlaceId: b.id,
    toLat: b.lat,
    toLng: b.lng,
    toCell: b.cell,
  };
}

/** The via places of a stored route (`via_place_ids`), in order; unknown ids are skipped. */
export function viaPlaces(viaPlaceIds: string | null | undefined): PlaceRecord[] {
  return (viaPlaceIds ?? "").split(" ").flatMap((id) => {
    const p = id ? placeById(id) : undefined;
    return p ? [p] : [];
  });
}

/** The places of typed via names (already resolved by the schema). */
export const viaRecords = (names: string[]) => names.flatMap((n) => placeByName(n) ?? []);

/** A ride's route as the matching rule reads it (ADR 0049); null without points. */
export function rideRoute(r: {
  fromLat: number | null;
  fromLng: number | null;
  toLat: number | null;
  toLng: number | null;
  viaPlaceIds: string | null;
  departsAt: number;
  maxDetourMinutes: number | null;
}) {
  if (r.fromLat === null || r.fromLng === null || r.toLat === null || r.toLng === null) return null;
  return {
    from: { lat: r.fromLat, lng: r.fromLng },
    to: { lat: r.toLat, lng: r.toLng },
    vias: viaPlaces(r.viaPlaceIds),
    departsAt: r.departsAt,
    maxDetourMinutes: r.maxDetourMinutes ?? 0,
  };
}

/** Live requests' pickup points, earliest first: the ride's start unless the rider chose a place. */
export function pickupOrder(
  ride: { fromLocation: string; departsAt: number },
  route: ReturnType<typeof rideRoute>,
  requests: { id: string; riderName: string | null; seats: number; status: string; pickupPlaceId: string | null }[],
) {
  return requests
    .filter((r) => r.status === "pending" || r.status === "accepted")
    .map((r) => {
      const place = r.pickupPlaceId ? placeById(r.pickupPlaceId) : undefined;
      const at = place && route ? pickupOnRoute(route, place) : null;
      return {
        requestId: r.id,
        riderName: r.riderName ?? "A rider",
        seats: r.seats,
        status: r.status,
        place: place?.name ?? ride.fromLocation,
        at: at?.pickupAt ?? ride.departsAt,
      };
    })
    .sort((a, b) => a.at - b.at || a.requestId.localeCompare(b.requestId));
}
