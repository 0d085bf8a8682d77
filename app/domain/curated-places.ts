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

/** Where most of the city works: a new rider's commute search offers these first (issue 38). */
export const MAIN_TECH_PARKS = [
  "Manyata Tech Park",
  "Electronic City Phase 1",
  "Whitefield ITPL",
  "RMZ Ecospace",
  "Bagmane Tech Park",
] as const;
const BY_NAME = new Map(ALL_PLACES.map((p) => [p.name, p]));

export function findPlace(name: string): Place | undefined {
  return BY_NAME.get(name);
}
