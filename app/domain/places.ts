// The fixed lists of Bengaluru places offered for pickup and drop (the same for both),
// grouped as the product shows them. Coordinates are approximate centres.
export type Place = { name: string; lat: number; lng: number };
export type PlaceGroup = { label: string; places: Place[] };

export const PLACE_GROUPS: PlaceGroup[] = [
  {
    label: "Tech Parks",
    places: [
      { name: "Manyata Tech Park", lat: 13.0474, lng: 77.6207 },
      { name: "Electronic City Phase 1", lat: 12.8452, lng: 77.6602 },
      { name: "Whitefield ITPL", lat: 12.9857, lng: 77.7366 },
      { name: "Bagmane Tech Park", lat: 12.9806, lng: 77.6622 },
      { name: "RMZ Ecospace", lat: 12.9279, lng: 77.6817 },
      { name: "Embassy Tech Village", lat: 12.9316, lng: 77.6946 },
      { name: "Prestige Tech Park", lat: 12.9386, lng: 77.7012 },
      { name: "Global Village Tech Park", lat: 12.917, lng: 77.498 },
    ],
  },
  {
    label: "Residential Areas",
    places: [
      { name: "HSR Layout", lat: 12.9116, lng: 77.6474 },
      { name: "Koramangala", lat: 12.9352, lng: 77.6245 },
      { name: "Indiranagar", lat: 12.9784, lng: 77.6408 },
      { name: "Jayanagar", lat: 12.925, lng: 77.5938 },
      { name: "JP Nagar", lat: 12.9063, lng: 77.5857 },
      { name: "BTM Layout", lat: 12.9166, lng: 77.6101 },
      { name: "Marathahalli", lat: 12.9569, lng: 77.7011 },
      { name: "Hebbal", lat: 13.0358, lng: 77.597 },
      { name: "Yelahanka", lat: 13.1007, lng: 77.5963 },
      { name: "Malleshwaram", lat: 13.0035, lng: 77.5709 },
    ],
  },
  {
    label: "Business Districts",
    places: [
      { name: "MG Road", lat: 12.9756, lng: 77.605 },
      { name: "Brigade Road", lat: 12.9719, lng: 77.607 },
      { name: "UB City", lat: 12.9716, lng: 77.5963 },
      { name: "Cunningham Road", lat: 12.9877, lng: 77.5936 },
      { name: "Residency Road", lat: 12.968, lng: 77.603 },
      { name: "Richmond Town", lat: 12.9605, lng: 77.601 },
    ],
  },
  {
    label: "Transport Hubs",
    places: [
      { name: "Kempegowda International Airport", lat: 13.1986, lng: 77.7066 },
      { name: "Majestic Bus Station", lat: 12.9767, lng: 77.5713 },
      { name: "KSR Bengaluru City Junction", lat: 12.9781, lng: 77.5695 },
      { name: "Yeshwanthpur Junction", lat: 13.0237, lng: 77.55 },
      { name: "Baiyappanahalli Metro Station", lat: 12.9907, lng: 77.6525 },
    ],
  },
];

export const ALL_PLACES: Place[] = PLACE_GROUPS.flatMap((g) => g.places);
const BY_NAME = new Map(ALL_PLACES.map((p) => [p.name, p]));

export function findPlace(name: string): Place | undefined {
  return BY_NAME.get(name);
}

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
export type PlaceRecord = { id: string; name: string; kind: "locality" | "landmark"; lat: number; lng: number; cell: number };

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
const CELL_ROW = 100_000;
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

/** What a place field resolves to (app/models/places.server.ts resolvePlace). */
export type PlaceResolution = { place: PlaceRecord; suggestions?: undefined } | { place?: undefined; suggestions: PlaceRecord[] };

/** The message for a name that is not a place, with its "did you mean" names, if any. */
export function unknownPlaceMessage(typed: string, suggestions: { name: string }[]): string {
  const t = typed.trim();
  return suggestions.length
    ? `We don't know "${t}". Did you mean ${suggestions.map((s) => s.name).join(", ")}?`
    : `We don't know "${t}". Try a Bengaluru locality or landmark, like Koramangala.`;
}
