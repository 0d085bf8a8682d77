// Issue 36 (ADR 0049, passing times): the corridor index's rows of a route. A search ranges a
// pickup's cells by these times, so every point of the line must lie in a cell with a row at
// most CELL_SLICE_MINUTES (+ rounding) before the driver passes it, and never after.
import { describe, expect, it } from "vitest";
import { cellOf, cellsWithin, straightLineKm } from "~/domain/places";
import { CELL_SLICE_MINUTES, CITY_KMH, routeCellTimes, routeCells } from "~/domain/ride-match";
import { ROAD_FACTOR } from "~/domain/ride-limits";

const whitefield = { lat: 12.9698, lng: 77.75 };
const marathahalli = { lat: 12.9569, lng: 77.7011 };
const ecity = { lat: 12.8452, lng: 77.6602 };

describe("routeCellTimes", () => {
  it("names every cell of routeCells, the start at minute 0, and each point's cell at most a slice before it is passed", () => {
    const route = [whitefield, marathahalli, ecity];
    const rows = routeCellTimes(route, cellsWithin);
    expect(new Set(rows.map(([c]) => c))).toEqual(new Set(routeCells(route, cellsWithin)));
    expect(rows.find(([c]) => c === cellOf(whitefield.lat, whitefield.lng))![1]).toBe(0);
    // A drop row (two elements) once per cell; later slices carry a 0.
    const drops = rows.filter((r) => r.length === 2).map(([c]) => c);
    expect(drops.length).toBe(new Set(drops).size);
    expect(rows.filter((r) => r.length === 3).every((r) => r[2] === 0)).toBe(true);
    let along = 0;
    for (let i = 0; i + 1 < route.length; i++) {
      const [a, b] = [route[i], route[i + 1]];
      const km = straightLineKm(a, b);
      for (let k = 0; k <= 173; k++) {
        const t = k / 173;
        const p = { lat: a.lat + (b.lat - a.lat) * t, lng: a.lng + (b.lng - a.lng) * t };
        const minutes = (((along + km * t) * ROAD_FACTOR) / CITY_KMH) * 60;
        const times = rows.filter(([c]) => c === cellOf(p.lat, p.lng)).map(([, m]) => m);
        expect(times.some((m) => m <= minutes + 0.25 && m >= minutes - CELL_SLICE_MINUTES - 1)).toBe(true);
      }
      along += km;
    }
    // The end is reached at the route's road minutes (about 58 here).
    const total = ((along * ROAD_FACTOR) / CITY_KMH) * 60;
    expect(Math.max(...rows.map(([, m]) => m))).toBeLessThanOrEqual(total);
    expect(Math.max(...rows.map(([, m]) => m))).toBeGreaterThan(total - CELL_SLICE_MINUTES - 1);
  });
});
