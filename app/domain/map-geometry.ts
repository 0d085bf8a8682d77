// The route map's geometry (app/components/route-map.tsx, ADR 0050): the compact encoding the
// shipped geography is stored in, its simplification, and one fixed projection of the city.
// Everything is drawn in that one plane, so the background (outline, metro) is the same path
// on every map and each map only chooses its window (the SVG viewBox).

export type LatLng = { lat: number; lng: number };
export type XY = { x: number; y: number };

// The Google "encoded polyline" format: signed deltas, 5-bit chunks, as printable characters.
// About 4-6 bytes a point at 1e4 (11 m), against 20 for "[77.5946,12.9716]".
export function encodePolyline(points: readonly LatLng[], precision = 1e4): string {
  let out = "";
  let lastLat = 0;
  let lastLng = 0;
  const put = (delta: number) => {
    let v = delta < 0 ? ~(delta << 1) : delta << 1;
    while (v >= 0x20) {
      out += String.fromCharCode((0x20 | (v & 0x1f)) + 63);
      v >>= 5;
    }
    out += String.fromCharCode(v + 63);
  };
  for (const p of points) {
    const lat = Math.round(p.lat * precision);
    const lng = Math.round(p.lng * precision);
    put(lat - lastLat);
    put(lng - lastLng);
    lastLat = lat;
    lastLng = lng;
  }
  return out;
}

export function decodePolyline(text: string, precision = 1e4): LatLng[] {
  const points: LatLng[] = [];
  let i = 0;
  let lat = 0;
  let lng = 0;
  const next = () => {
    let shift = 0;
    let v = 0;
    let b: number;
    do {
      b = text.charCodeAt(i++) - 63;
      v |= (b & 0x1f) << shift;
      shift += 5;
    } while (b >= 0x20 && i < text.length);
    return v & 1 ? ~(v >> 1) : v >> 1;
  };
  while (i < text.length) {
    lat += next();
    lng += next();
    points.push({ lat: lat / precision, lng: lng / precision });
  }
  return points;
}

/** Distance of p from the segment a-b, in the plane's units. */
export function distanceToSegment(p: XY, a: XY, b: XY): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len2));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/**
 * Douglas-Peucker: the fewest points whose line stays within `tolerance` of every dropped
 * point. Iterative (a 4,000-point city outline would recurse deep).
 */
export function simplify<T extends XY>(points: readonly T[], tolerance: number): T[] {
  if (points.length <= 2) return [...points];
  const keep = new Uint8Array(points.length);
  keep[0] = 1;
  keep[points.length - 1] = 1;
  const stack: [number, number][] = [[0, points.length - 1]];
  while (stack.length) {
    const [from, to] = stack.pop()!;
    let worst = -1;
    let at = -1;
    for (let i = from + 1; i < to; i++) {
      const d = distanceToSegment(points[i], points[from], points[to]);
      if (d > worst) {
        worst = d;
        at = i;
      }
    }
    if (at >= 0 && worst > tolerance) {
      keep[at] = 1;
      stack.push([from, at], [at, to]);
    }
  }
  return points.filter((_, i) => keep[i]);
}

// The plane: an equirectangular projection about the city's centre, one unit = 10 m. Over the
// 50 km the city spans, its scale error against a true local projection is under 0.3%
// (the cosine of latitude changes that little between 12.8 and 13.2 degrees).
export const ORIGIN: LatLng = { lat: 12.97, lng: 77.59 };
const M_PER_DEG = (Math.PI * 6_371_000) / 180;
const COS0 = Math.cos((ORIGIN.lat * Math.PI) / 180);
export const UNIT_M = 10;

export function project(p: LatLng): XY {
  return {
    x: ((p.lng - ORIGIN.lng) * COS0 * M_PER_DEG) / UNIT_M,
    // SVG's y grows downwards: north is up.
    y: ((ORIGIN.lat - p.lat) * M_PER_DEG) / UNIT_M,
  };
}

export function unproject(p: XY): LatLng {
  return {
    lat: ORIGIN.lat - (p.y * UNIT_M) / M_PER_DEG,
    lng: ORIGIN.lng + (p.x * UNIT_M) / (COS0 * M_PER_DEG),
  };
}

/** An SVG path through the points, whole units, relative moves after the first (shorter). */
export function pathOf(points: readonly XY[], closed = false): string {
  if (!points.length) return "";
  let px = Math.round(points[0].x);
  let py = Math.round(points[0].y);
  let d = `M${px} ${py}`;
  let sep = "l";
  for (const p of points.slice(1)) {
    const x = Math.round(p.x);
    const y = Math.round(p.y);
    if (x === px && y === py) continue;
    d += `${sep}${x - px} ${y - py}`.replace(/ -/g, "-");
    sep = " ";
    px = x;
    py = y;
  }
  return closed ? `${d}z` : d;
}

export type View = { x: number; y: number; width: number; height: number };

/**
 * The window that shows every point with a margin, at the map's aspect ratio, never narrower
 * than `minSpanKm` (a 2 km trip would otherwise fill the map with two dots).
 */
export function viewFor(points: readonly XY[], aspect: number, minSpanKm = 6, margin = 0.15): View {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const cy = (Math.min(...ys) + Math.max(...ys)) / 2;
  const min = (minSpanKm * 1000) / UNIT_M;
  let width = Math.max((Math.max(...xs) - Math.min(...xs)) * (1 + 2 * margin), min);
  let height = Math.max((Math.max(...ys) - Math.min(...ys)) * (1 + 2 * margin), min / aspect);
  if (width / height > aspect) height = width / aspect;
  else width = height * aspect;
  return {
    x: Math.round(cx - width / 2),
    y: Math.round(cy - height / 2),
    width: Math.round(width),
    height: Math.round(height),
  };
}

// The ward outlines are a static SVG file drawn as an <image> in this plane (ADR 0065). Lines in
// an image scale with the map's window (non-scaling-stroke does not reach into it), so the file
// has these widths, in units, and the URL's fragment picks one ("#w8").
export const WARD_LINE_WIDTHS = [1, 2, 4, 8, 16, 32] as const;

/** The ward lines' width, in units, that comes nearest one pixel on a map `shownPx` wide. */
export function wardLineWidth(view: View, shownPx: number): number {
  const unitsPerPx = view.width / shownPx;
  const off = (w: number) => Math.abs(Math.log(w / unitsPerPx));
  return WARD_LINE_WIDTHS.reduce((best, w) => (off(w) < off(best) ? w : best));
}

const NICE_KM = [0.5, 1, 2, 5, 10, 20, 50];

/** The scale bar: the longest round length that fits in a quarter of the map's width. */
export function scaleBar(view: View): { km: number; length: number; label: string } {
  const quarterKm = (view.width * UNIT_M) / 1000 / 4;
  const km = [...NICE_KM].reverse().find((k) => k <= quarterKm) ?? NICE_KM[0];
  return { km, length: (km * 1000) / UNIT_M, label: km < 1 ? `${km * 1000} m` : `${km} km` };
}
