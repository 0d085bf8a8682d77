// Generates app/domain/city-map-data.ts: the route map's city outline (ADR 0050), from BBMP's
// 243 ward boundaries (2022 delimitation, KSRSAC; published by DataMeet in
// datameet/Municipal_Spatial_Data, Bangalore/BBMP.geojson, CC BY-SA 2.5 India). Run by hand:
//   npx vite-node --config scripts/vite-node.config.ts scripts/places/build-city-map.ts -- BBMP.geojson
// The outline is the union of the wards: an edge that only one ward has lies on the city's
// edge (shared edges are the wards' borders with each other). The data's wards share their
// vertices exactly, so the edges match as they stand.
// It also writes the ward outlines (the edges two wards share) as one static SVG file,
// public/maps/wards-<hash>.svg, in the maps' plane (ADR 0065), and its name and box into
// city-map-data.ts.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import {
  encodePolyline,
  project,
  simplify,
  WARD_LINE_WIDTHS,
  type LatLng,
  type XY,
} from "../../app/domain/map-geometry";

const file = process.argv.slice(2).filter((a) => a !== "--")[0] ?? "BBMP.geojson";
type Ring = [number, number][];
type Feature = { geometry: { type: "Polygon" | "MultiPolygon"; coordinates: Ring[] | Ring[][] } };
const wards = (JSON.parse(readFileSync(file, "utf8")) as { features: Feature[] }).features;

const key = ([lng, lat]: [number, number]) => `${lng.toFixed(6)},${lat.toFixed(6)}`;
const count = new Map<string, number>();
const edges: [string, string][] = [];
for (const w of wards) {
  const polygons = (w.geometry.type === "Polygon" ? [w.geometry.coordinates] : w.geometry.coordinates) as Ring[][];
  for (const ring of polygons.flat()) {
    for (let i = 0; i + 1 < ring.length; i++) {
      const a = key(ring[i]);
      const b = key(ring[i + 1]);
      if (a === b) continue;
      const k = a < b ? `${a}|${b}` : `${b}|${a}`;
      count.set(k, (count.get(k) ?? 0) + 1);
      edges.push([a, b]);
    }
  }
}
// The city's edge, walked from vertex to vertex.
const next = new Map<string, string[]>();
for (const [a, b] of edges) {
  if (count.get(a < b ? `${a}|${b}` : `${b}|${a}`) !== 1) continue;
  next.set(a, [...(next.get(a) ?? []), b]);
}
const rings: string[][] = [];
while (next.size) {
  const start = next.keys().next().value as string;
  const ring = [start];
  let at = start;
  for (;;) {
    const outs = next.get(at);
    if (!outs?.length) break;
    const to = outs.shift()!;
    if (!outs.length) next.delete(at);
    if (to === start) break;
    ring.push(to);
    at = to;
  }
  rings.push(ring);
}
rings.sort((a, b) => b.length - a.length);
const outline = rings[0].map((k) => {
  const [lng, lat] = k.split(",").map(Number);
  return { lat, lng, ...project({ lat, lng }) };
});
// 12 units = 120 m: invisible on a map a few hundred pixels across the city's 50 km.
const simple = simplify(outline, 12);
const points: LatLng[] = simple.map(({ lat, lng }) => ({ lat, lng }));
console.log(`${rings.length} rings; the outline: ${outline.length} points, simplified ${simple.length}`);

// The wards' borders with each other: the edges two wards share, walked into lines from one
// junction (where three or more wards meet) to the next, so each border is drawn once.
const xyOf = (k: string) => {
  const [lng, lat] = k.split(",").map(Number);
  return project({ lat, lng });
};
const around = new Map<string, string[]>();
for (const [k, n] of count) {
  if (n < 2) continue;
  const [a, b] = k.split("|");
  around.set(a, [...(around.get(a) ?? []), b]);
  around.set(b, [...(around.get(b) ?? []), a]);
}
const walked = new Set<string>();
const edgeKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);
function walk(from: string, to: string): string[] {
  const line = [from, to];
  walked.add(edgeKey(from, to));
  let [prev, at] = [from, to];
  while (around.get(at)!.length === 2) {
    const on = around.get(at)!.find((v) => v !== prev)!;
    if (walked.has(edgeKey(at, on))) break;
    walked.add(edgeKey(at, on));
    line.push(on);
    [prev, at] = [at, on];
  }
  return line;
}
const borders: string[][] = [];
// From the junctions first; what is left are closed rings (a ward inside one other).
for (const junctionsOnly of [true, false]) {
  for (const [v, ns] of around) {
    if (junctionsOnly && ns.length === 2) continue;
    for (const n of ns) if (!walked.has(edgeKey(v, n))) borders.push(walk(v, n));
  }
}
// 3 units = 30 m: under 3 pixels on the closest map (6 km across), and the file about 25 KB.
const WARD_TOLERANCE = 3;
const wardLines = borders.map((b) => simplify(b.map(xyOf), WARD_TOLERANCE));
// Each line is a relative move from the last one's end: nearest next (turned round if its far
// end is nearer) keeps the moves short.
const ordered: XY[][] = [];
const left = new Set(wardLines);
let here: XY = { x: 0, y: 0 };
while (left.size) {
  let best: XY[] = [];
  let bestD = Number.POSITIVE_INFINITY;
  let flip = false;
  for (const l of left) {
    for (const [end, f] of [
      [l[0], false],
      [l[l.length - 1], true],
    ] as const) {
      const d = Math.abs(end.x - here.x) + Math.abs(end.y - here.y);
      if (d < bestD) [best, bestD, flip] = [l, d, f];
    }
  }
  left.delete(best);
  const line = flip ? [...best].reverse() : best;
  ordered.push(line);
  here = line[line.length - 1];
}
// One path: "m" starts a line, "l" and spaces continue it; a line that starts where the last
// ended just continues it.
let d = "";
let [px, py] = [0, 0];
let cmd = "M";
for (const line of ordered) {
  line.forEach((p, i) => {
    const [x, y] = [Math.round(p.x), Math.round(p.y)];
    if (d && x === px && y === py) return;
    if (i === 0 && d) cmd = "m";
    d += cmd === "M" ? `M${x} ${y}` : `${cmd}${x - px} ${y - py}`.replace(/ -/g, "-");
    cmd = cmd === "l" || cmd === " " ? " " : "l";
    [px, py] = [x, y];
  });
}
// The box of every ward (the city's), whole units outwards: the file's viewBox and the
// <image>'s place on each map, so the two planes are one.
const all = wards.flatMap((w) =>
  ((w.geometry.type === "Polygon" ? [w.geometry.coordinates] : w.geometry.coordinates) as Ring[][])
    .flat(2)
    .map(([lng, lat]) => project({ lat, lng })),
);
const x0 = Math.floor(Math.min(...all.map((p) => p.x)));
const y0 = Math.floor(Math.min(...all.map((p) => p.y)));
const box = {
  x: x0,
  y: y0,
  width: Math.ceil(Math.max(...all.map((p) => p.x))) - x0,
  height: Math.ceil(Math.max(...all.map((p) => p.y))) - y0,
};
// Lines inside an <image> scale with the map (non-scaling-stroke does not reach into it), so
// the URL's fragment picks the width: "#w8" makes them 8 units (80 m) wide through :target.
// Grey at 45 %: faint on the light and the dark map alike (the file cannot see the page's theme).
const widths = WARD_LINE_WIDTHS.map((w) => `#w${w}:target~path{stroke-width:${w}}`).join("");
const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${box.x} ${box.y} ${box.width} ${box.height}">
<!-- Bengaluru's 243 BBMP wards (2022 delimitation, KSRSAC), their borders with each other, from DataMeet's datameet/Municipal_Spatial_Data (Bangalore/BBMP.geojson), CC BY-SA 2.5 India; simplified to 30 m by LoopRide, same licence. Plane: app/domain/map-geometry.ts, 1 unit = 10 m. -->
<style>path{fill:none;stroke:#64748b;stroke-opacity:.45;stroke-width:4;stroke-linejoin:round}${widths}</style>
${WARD_LINE_WIDTHS.map((w) => `<g id="w${w}"/>`).join("")}<path d="${d}"/>
</svg>
`;
const hash = createHash("sha256").update(svg).digest("hex").slice(0, 10);
mkdirSync("public/maps", { recursive: true });
for (const old of readdirSync("public/maps")) if (/^wards-.*\.svg$/.test(old)) unlinkSync(`public/maps/${old}`);
writeFileSync(`public/maps/wards-${hash}.svg`, svg);
const wardPoints = ordered.reduce((n, l) => n + l.length, 0);
console.log(`wards: ${borders.length} borders, ${wardPoints} points, ${svg.length} bytes: wards-${hash}.svg`);

writeFileSync(
  "app/domain/city-map-data.ts",
  `// GENERATED by scripts/places/build-city-map.ts: do not edit by hand.
// Bengaluru's city (BBMP) outline: the union of its 243 wards (2022 delimitation, KSRSAC), from
// DataMeet's datameet/Municipal_Spatial_Data (Bangalore/BBMP.geojson), CC BY-SA 2.5 India;
// simplified to 120 m and encoded as a polyline at 1e-4 degrees (app/domain/map-geometry.ts).
// ${points.length} points of the ${outline.length} of the data. Licence: app/domain/GEODATA.md.
export const CITY_OUTLINE = ${JSON.stringify(encodePolyline(points))};

// The wards' borders: a static file (public/maps, named by its content's hash, cached for a
// year) drawn as an <image> over exactly this box of the plane (ADR 0065).
export const WARD_MAP = ${JSON.stringify({ href: `/maps/wards-${hash}.svg`, ...box })} as const;
`,
);
