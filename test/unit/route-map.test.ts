// Issue 36, items 3 and 4: the route map's geometry and the Namma Metro stations (pure code).
import { describe, expect, it } from "vitest";
import { CITY_OUTLINE } from "~/domain/city-map-data";
import {
  decodePolyline,
  encodePolyline,
  ORIGIN,
  pathOf,
  project,
  scaleBar,
  simplify,
  unproject,
  viewFor,
  wardLineWidth,
} from "~/domain/map-geometry";
import {
  METRO_LINES,
  METRO_STATIONS,
  metroPlaceName,
  nearestMetro,
  nearestMetroText,
  walkDistance,
} from "~/domain/metro-stations";
import { straightLineKm } from "~/domain/places";
import { METRO_PLACES, PLACES, resolvePlace, suggestPlaces } from "~/models/places.server";

const KM_PER_DEG = (Math.PI * 6371) / 180;
const south = (p: { lat: number; lng: number }, km: number) => ({ lat: p.lat - km / KM_PER_DEG, lng: p.lng });
const station = (name: string) => METRO_STATIONS.find((s) => s.name === name)!;

// Ray casting: whether the point lies inside the ring.
function inside(p: { lat: number; lng: number }, ring: { lat: number; lng: number }[]) {
  let odd = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const a = ring[i];
    const b = ring[j];
    if (a.lat > p.lat !== b.lat > p.lat && p.lng < ((b.lng - a.lng) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lng) {
      odd = !odd;
    }
  }
  return odd;
}

describe("the map's geometry", () => {
  it("encodes points as a polyline and decodes them back (the format's published example)", () => {
    const points = [
      { lat: 38.5, lng: -120.2 },
      { lat: 40.7, lng: -120.95 },
      { lat: 43.252, lng: -126.453 },
    ];
    expect(encodePolyline(points, 1e5)).toBe("_p~iF~ps|U_ulLnnqC_mqNvxq`@");
    expect(decodePolyline("_p~iF~ps|U_ulLnnqC_mqNvxq`@", 1e5)).toEqual(points);
    const city = [
      { lat: 12.9716, lng: 77.5946 },
      { lat: 12.8399, lng: 77.677 },
      { lat: 13.0359, lng: 77.597 },
    ];
    expect(decodePolyline(encodePolyline(city))).toEqual(city);
  });

  it("simplifies a line to the points that matter, keeping every dropped point within the tolerance", () => {
    const straight = [0, 1, 2, 3, 4].map((x) => ({ x, y: 0 }));
    expect(simplify(straight, 0.1)).toEqual([straight[0], straight[4]]);
    const spike = [
      { x: 0, y: 0 },
      { x: 1, y: 0.05 },
      { x: 2, y: 5 },
      { x: 3, y: 0 },
      { x: 4, y: 0 },
    ];
    // The small bump (0.05) and the corner after the spike (0.93 off the line) go; the spike stays.
    expect(simplify(spike, 1)).toEqual([spike[0], spike[2], spike[4]]);
    expect(simplify(spike, 10)).toEqual([spike[0], spike[4]]);
  });

  it("projects the city onto one plane of 10 m units, north up, and back", () => {
    expect(project(ORIGIN)).toEqual({ x: 0, y: 0 });
    const kmNorth = project({ lat: ORIGIN.lat + 1 / KM_PER_DEG, lng: ORIGIN.lng });
    expect(kmNorth.x).toBeCloseTo(0, 6);
    expect(kmNorth.y).toBeCloseTo(-100, 6);
    // A kilometre east is 100 units too: the longitude is scaled by the cosine of the latitude.
    const east = { lat: ORIGIN.lat, lng: ORIGIN.lng + 0.02 };
    expect(project(east).x).toBeCloseTo(straightLineKm(ORIGIN, east) * 100, 0);
    const back = unproject(project({ lat: 12.8399, lng: 77.677 }));
    expect(back.lat).toBeCloseTo(12.8399, 9);
    expect(back.lng).toBeCloseTo(77.677, 9);
    // Whole units, relative moves, no repeated points.
    expect(
      pathOf([
        { x: 0.4, y: 0 },
        { x: 10, y: -5.2 },
        { x: 10, y: -5 },
        { x: 3, y: 2 },
      ]),
    ).toBe("M0 0l10-5-7 7");
  });

  it("picks a window that shows every point, at the map's shape, never under 6 km across", () => {
    const a = project({ lat: 12.9698, lng: 77.75 });
    const b = project({ lat: 12.8399, lng: 77.677 });
    const view = viewFor([a, b], 1.6);
    for (const p of [a, b]) {
      expect(p.x).toBeGreaterThan(view.x);
      expect(p.x).toBeLessThan(view.x + view.width);
      expect(p.y).toBeGreaterThan(view.y);
      expect(p.y).toBeLessThan(view.y + view.height);
    }
    expect(view.width / view.height).toBeCloseTo(1.6, 2);
    const short = viewFor([a, { x: a.x + 10, y: a.y }], 2);
    expect(short.width).toBeGreaterThanOrEqual(600);
    expect(short.height).toBeGreaterThanOrEqual(300);
  });

  it("sizes the scale bar to a round length within a quarter of the map", () => {
    expect(scaleBar({ x: 0, y: 0, width: 600, height: 300 })).toEqual({ km: 1, length: 100, label: "1 km" });
    expect(scaleBar({ x: 0, y: 0, width: 4000, height: 2500 })).toEqual({ km: 10, length: 1000, label: "10 km" });
    expect(scaleBar({ x: 0, y: 0, width: 300, height: 200 }).label).toBe("500 m");
  });

  it("gives the ward outlines (an image, whose lines scale with the map) the width nearest a pixel", () => {
    const view = (km: number) => ({ x: 0, y: 0, width: km * 100, height: km * 50 });
    // A full map, about 560 px: 6 km is about a unit a pixel; 20 km is 3.6.
    expect(wardLineWidth(view(6), 560)).toBe(1);
    expect(wardLineWidth(view(20), 560)).toBe(4);
    // A card's 160 px: 12 km is 7.5 units a pixel; the whole city, 60 km, 37.5.
    expect(wardLineWidth(view(12), 160)).toBe(8);
    expect(wardLineWidth(view(60), 160)).toBe(32);
    // Never under the thinnest or over the widest the file has.
    expect(wardLineWidth(view(1), 560)).toBe(1);
    expect(wardLineWidth(view(500), 160)).toBe(32);
  });

  it("ships the city's outline (BBMP's wards) holding the city and not the country around it", () => {
    const ring = decodePolyline(CITY_OUTLINE);
    expect(ring.length).toBeGreaterThan(100);
    expect(ring.length).toBeLessThan(400);
    const lats = ring.map((p) => p.lat);
    const lngs = ring.map((p) => p.lng);
    expect(Math.min(...lats)).toBeGreaterThan(12.8);
    expect(Math.max(...lats)).toBeLessThan(13.2);
    expect(Math.min(...lngs)).toBeGreaterThan(77.4);
    expect(Math.max(...lngs)).toBeLessThan(77.8);
    for (const p of [
      { lat: 12.9756, lng: 77.6067 }, // MG Road
      { lat: 12.9121, lng: 77.6446 }, // HSR Layout
      { lat: 13.0358, lng: 77.597 }, // Hebbal
    ]) {
      expect(inside(p, ring), JSON.stringify(p)).toBe(true);
    }
    expect(inside({ lat: 12.7227, lng: 77.6765 }, ring), "Anekal").toBe(false);
    expect(inside({ lat: 13.1986, lng: 77.7066 }, ring), "the airport").toBe(false);
  });
});

describe("Namma Metro", () => {
  it("lists every operational station of the three lines, in order, inside the city, each name once", () => {
    expect(METRO_LINES.purple).toHaveLength(37);
    expect(METRO_LINES.green).toHaveLength(32);
    expect(METRO_LINES.yellow).toHaveLength(16);
    expect(METRO_LINES.purple[0][0]).toBe("Whitefield (Kadugodi)");
    expect(METRO_LINES.purple.at(-1)![0]).toBe("Challaghatta");
    expect(METRO_LINES.green[0][0]).toBe("Madavara");
    expect(METRO_LINES.green.at(-1)![0]).toBe("Silk Institute");
    expect(METRO_LINES.yellow[0][0]).toBe("RV Road");
    expect(METRO_LINES.yellow.at(-1)![0]).toBe("Bommasandra");
    // Two interchanges: 37 + 32 + 16 - 2.
    expect(METRO_STATIONS).toHaveLength(83);
    expect(new Set(METRO_STATIONS.map((s) => s.name)).size).toBe(83);
    expect(station("Majestic").lines).toEqual(["purple", "green"]);
    expect(station("RV Road").lines).toEqual(["green", "yellow"]);
    for (const s of METRO_STATIONS) {
      expect(s.lat, s.name).toBeGreaterThan(12.8);
      expect(s.lat, s.name).toBeLessThan(13.1);
      expect(s.lng, s.name).toBeGreaterThan(77.45);
      expect(s.lng, s.name).toBeLessThan(77.77);
    }
    // Running order: neighbours on a line are 0.4-3 km apart (a swapped or misplaced station is not).
    for (const rows of Object.values(METRO_LINES)) {
      for (let i = 1; i < rows.length; i++) {
        const km = straightLineKm({ lat: rows[i - 1][2], lng: rows[i - 1][3] }, { lat: rows[i][2], lng: rows[i][3] });
        expect(km, `${rows[i - 1][0]} - ${rows[i][0]}`).toBeGreaterThan(0.4);
        expect(km, `${rows[i - 1][0]} - ${rows[i][0]}`).toBeLessThan(3);
      }
    }
  });

  it("names the nearest station to a pickup with its line and the walk, and none past 3 km", () => {
    const baiyappanahalli = station("Baiyappanahalli");
    expect(nearestMetroText(south(baiyappanahalli, 0.6))).toBe("Nearest metro: Baiyappanahalli (Purple), 600 m");
    expect(nearestMetroText(station("Majestic"))).toBe("Nearest metro: Majestic (Purple, Green), under 100 m");
    const eCity = nearestMetro({ lat: 12.8399, lng: 77.677 })!;
    expect(eCity.station.name).toBe("Huskur Road");
    expect(nearestMetroText(south(station("Silk Institute"), 1.4))).toBe(
      "Nearest metro: Silk Institute (Green), 1.4 km",
    );
    expect(nearestMetroText({ lat: 12.7227, lng: 77.6765 })).toBeNull();
    expect(nearestMetroText(null)).toBeNull();
    expect(walkDistance(0.05)).toBe("under 100 m");
    expect(walkDistance(0.94)).toBe("900 m");
    expect(walkDistance(0.96)).toBe("1.0 km");
  });

  it("makes every station a place that can be typed and picked", () => {
    // Baiyappanahalli was a curated landmark already: it keeps its place (rides refer to it).
    expect(METRO_PLACES).toHaveLength(82);
    expect(PLACES.filter((p) => p.name.endsWith(" Metro Station"))).toHaveLength(83);
    expect(new Set(PLACES.map((p) => p.id)).size).toBe(PLACES.length);
    expect(resolvePlace("majestic metro station").place).toMatchObject({
      id: "metro-majestic",
      kind: "landmark",
      lat: station("Majestic").lat,
    });
    expect(resolvePlace("Baiyappanahalli Metro Station").place?.id).toBe("baiyappanahalli-metro-station");
    expect(suggestPlaces("silk board").map((p) => p.name)).toContain(metroPlaceName(station("Silk Board")));
  });
});
