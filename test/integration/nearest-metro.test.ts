import { afterEach, describe, expect, it, vi } from "vitest";
import { METRO_STATIONS, nearestMetro, nearestMetroText } from "~/domain/metro-stations";
import { straightLineKm } from "~/domain/places";

// ADR 0066: every search card asks for its nearest station. The scan keeps straightLineKm's
// arithmetic but takes an arcsine only where a station can be nearer than the best so far.

afterEach(() => vi.restoreAllMocks());

/** The rule as first written: straightLineKm to every station, the first nearest kept. */
function bruteForce(at: { lat: number; lng: number }) {
  let best: { name: string; km: number } | null = null;
  for (const s of METRO_STATIONS) {
    const km = straightLineKm(at, s);
    if (!best || km < best.km) best = { name: s.name, km };
  }
  return best && best.km <= 3 ? best : null;
}

// A 2 km grid over the city and beyond, every station's own point, and points between two.
const points = [
  ...Array.from({ length: 40 * 40 }, (_, i) => ({
    lat: 12.7 + Math.floor(i / 40) * 0.018,
    lng: 77.35 + (i % 40) * 0.018,
  })),
  ...METRO_STATIONS.map((s) => ({ lat: s.lat, lng: s.lng })),
  ...METRO_STATIONS.slice(1).map((s, i) => ({
    lat: (s.lat + METRO_STATIONS[i].lat) / 2,
    lng: (s.lng + METRO_STATIONS[i].lng) / 2,
  })),
];

describe("the nearest metro station (ADR 0066)", () => {
  it("is the station and distance straightLineKm finds, to the last bit", () => {
    let found = 0;
    for (const at of points) {
      const fast = nearestMetro(at);
      const slow = bruteForce(at);
      expect(fast && { name: fast.station.name, km: fast.km }).toEqual(slow);
      if (slow) found++;
    }
    // Both sides of the 3 km cut are in the sample.
    expect(found).toBeGreaterThan(100);
    expect(found).toBeLessThan(points.length);
    expect(nearestMetroText({ lat: 12.9906, lng: 77.6529 })).toBe(
      "Nearest metro: Baiyappanahalli (Purple), under 100 m",
    );
    expect(nearestMetro({ lat: Number.NaN, lng: 77.6 })).toBeNull();
  });

  it("takes the arcsine only for stations that may be nearer (a card's cost)", () => {
    const asin = vi.spyOn(Math, "asin");
    nearestMetro({ lat: 12.9716, lng: 77.5946 });
    expect(asin.mock.calls.length).toBeLessThan(METRO_STATIONS.length / 2);
  });
});
