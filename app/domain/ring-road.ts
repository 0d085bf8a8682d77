// The Outer Ring Road on the route map (issue 36, item 3; ADR 0062). No ORR geometry with a
// clear licence could be reached from here, so the line is approximate: straight lines through
// the ORR's junctions, each at the point of the place list (app/models/places-data.server.ts,
// GeoNames, CC BY 4.0) or of the Namma Metro station (app/domain/metro-stations.ts, ODbL) of
// that name. A test checks every point against its place. Off the road by up to about 1 km
// (a PIN-code centroid, or a station a block from the junction). Licence: GEODATA.md.

/** [the place or station of the place list, lat, lng], clockwise from Hebbal; the ring closes. */
export const ORR_JUNCTIONS: readonly (readonly [string, number, number])[] = [
  ["Hebbal", 13.0358, 77.597],
  // Nagawara junction, at Manyata's gate.
  ["Manyata Tech Park", 13.0474, 77.6207],
  ["KR Puram Metro Station", 13.0001, 77.6776],
  ["Marathahalli", 12.9569, 77.7011],
  ["Bellandur", 12.92987, 77.68484],
  ["Silk Board Metro Station", 12.9163, 77.6204],
  ["BTM Layout Metro Station", 12.9164, 77.6081],
  ["Jayadeva Hospital Metro Station", 12.9166, 77.5998],
  ["JP Nagar", 12.9063, 77.5857],
  ["Kathriguppe", 12.9306, 77.54337],
  // Mysuru Road junction.
  ["Nayandahalli Metro Station", 12.9418, 77.5235],
  ["Nagarbhavi", 12.97193, 77.51281],
  // Tumakuru Road junction.
  ["Goraguntepalya Metro Station", 13.0283, 77.5408],
  // BEL Circle.
  ["Mathikere", 13.03466, 77.5572],
];

/** What the map's caption and GEODATA.md say of the line. */
export const ORR_NOTE = "Outer Ring Road (grey): approximate, through its junctions";
