// Place helpers shared by the browser and the server: distances, the search grid, typed-name
// resolution messages. The curated list (tech parks, hubs) is in ./curated-places.ts and the
// full locality list only on the server (app/models/places-data.server.ts).
/** Great-circle distance in kilometres (haversine). */
export function straightLineKm(a: { lat: number; lng: number }, b: { lat: number; lng: number }): number {
  const R = 6371;
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

/** A place of the full list (app/models/places.server.ts): a locality or a landmark. */
export type PlaceRecord = {
  id: string;
  name: string;
  kind: "locality" | "landmark";
  lat: number;
  lng: number;
  cell: number;
};

/** A stable id from a name: "HSR Layout" -> "hsr-layout". */
export function placeSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

// The search grid: cells of 0.02 degrees (about 2.2 km north-south, 2.2 km east-west at
// Bengaluru's latitude), keyed as one integer so rides can be indexed on (cell, status, time).
export const CELL_DEG = 0.02;
export const CELL_ROW = 100_000;
const cellIndex = (deg: number) => Math.floor(Math.round((deg / CELL_DEG) * 1e6) / 1e6);

export function cellOf(lat: number, lng: number): number {
  return cellIndex(lat) * CELL_ROW + cellIndex(lng + 180);
}

const KM_PER_DEG = (Math.PI * 6371) / 180;

/** Every cell that a circle of `km` around the point touches (its bounding box of cells). */
export function cellsAround(lat: number, lng: number, km: number): number[] {
  const dLat = km / KM_PER_DEG;
  // The widest longitude span is at the latitude farthest from the equator.
  const dLng = km / (KM_PER_DEG * Math.cos(((Math.abs(lat) + dLat) * Math.PI) / 180));
  const cells: number[] = [];
  for (let r = cellIndex(lat - dLat); r <= cellIndex(lat + dLat); r++) {
    for (let c = cellIndex(lng + 180 - dLng); c <= cellIndex(lng + 180 + dLng); c++) cells.push(r * CELL_ROW + c);
  }
  return cells;
}

/**
 * The cells of cellsAround that the circle actually reaches: a cell stays when the point of
 * it nearest the centre (the centre clamped into the cell) is within `km`. A 10 km search
 * touches about 80 of the square's 100 cells. The small slack covers the haversine's
 * curvature across one cell, so a point within `km` always has its cell in the list.
 */
export function cellsWithin(lat: number, lng: number, km: number): number[] {
  const reach = km * 1.001 + 1e-6;
  return cellsAround(lat, lng, km).filter((cell) => {
    const r = Math.floor(cell / CELL_ROW);
    const c = cell - r * CELL_ROW;
    const clamp = (v: number, lo: number) => Math.min(Math.max(v, lo), lo + CELL_DEG);
    return (
      straightLineKm({ lat, lng }, { lat: clamp(lat, r * CELL_DEG), lng: clamp(lng + 180, c * CELL_DEG) - 180 }) <=
      reach
    );
  });
}

/** What a place field resolves to (app/models/places.server.ts resolvePlace). */
export type PlaceResolution =
  | { place: PlaceRecord; suggestions?: undefined }
  | { place?: undefined; suggestions: PlaceRecord[] };

/** The message for a name that is not a place, with its "did you mean" names, if any. */
export function unknownPlaceMessage(typed: string, suggestions: { name: string }[]): string {
  const t = typed.trim();
  return suggestions.length
    ? `We don't know "${t}". Did you mean ${suggestions.map((s) => s.name).join(", ")}?`
    : `We don't know "${t}". Try a Bengaluru locality or landmark, like Koramangala.`;
}
