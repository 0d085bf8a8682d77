import { useId } from "react";
import { CITY_OUTLINE, WARD_MAP } from "~/domain/city-map-data";
import {
  decodePolyline,
  pathOf,
  project,
  scaleBar,
  viewFor,
  WARD_LINE_WIDTHS,
  wardLineWidth,
  type XY,
} from "~/domain/map-geometry";
import { METRO_LINE_NAMES, METRO_LINES, type MetroLine, nearestMetroText } from "~/domain/metro-stations";
import { ORR_JUNCTIONS, ORR_NOTE } from "~/domain/ring-road";

// Issue 36, item 3: a map of a ride's route, server-rendered SVG (no tiles, no key, no
// script: it prints and works with JavaScript off). Everything is drawn in one fixed plane
// of the city (app/domain/map-geometry.ts), so the background is one constant path and each
// map only picks its window. ADR 0050.

/** `time`: when the driver is there ("9:05 AM"), for a rider's pickup; the caption says it. */
export type MapPoint = { name: string; lat: number | null | undefined; lng: number | null | undefined; time?: string };
type Located = { name: string; lat: number; lng: number; time?: string };

const located = (p: MapPoint | null | undefined): p is Located =>
  p != null && Number.isFinite(p.lat) && Number.isFinite(p.lng) && p.lat !== null && p.lng !== null;

// Built once per module: the same strings on the server and in the browser (hydration).
const OUTLINE_PATH = pathOf(decodePolyline(CITY_OUTLINE).map(project), true);
const METRO_PATHS = (Object.keys(METRO_LINES) as MetroLine[]).map((line) => ({
  line,
  d: pathOf(METRO_LINES[line].map(([, , lat, lng]) => project({ lat, lng }))),
}));
const ORR_PATH = pathOf(
  ORR_JUNCTIONS.map(([, lat, lng]) => project({ lat, lng })),
  true,
);
export const WARD_NOTE = "Faint lines: the 243 BBMP ward outlines (2022)";
const METRO_LINE_NAMES_TEXT = Object.values(METRO_LINE_NAMES).join(", ");

/** The city outline, its wards and the lines: drawn inline, or once per page for small maps. */
// Page CSS does not reach the copy a <use> makes (Chromium): the metro lines carry their own
// colours, and the outline takes its fill and stroke from the <use> (app.css, .lr-map use).
const METRO_COLOUR: Record<MetroLine, string> = { purple: "#9333ea", green: "#16a34a", yellow: "#eab308" };

// A full map fills the page's column, about this many CSS pixels wide.
const FULL_MAP_PX = 560;
// The cards' maps share one background, so one ward line width: a card's map is 160 px wide
// and most show 10-25 km, where 8 units (80 m) come to 0.5-1.3 px.
const CARD_WARD_LINE: (typeof WARD_LINE_WIDTHS)[number] = 8;

function CityBackground({ id, wardLine }: { id?: string; wardLine: number }) {
  return (
    <g id={id}>
      <path d={OUTLINE_PATH} className="city" vectorEffect="non-scaling-stroke" />
      {/* The ward outlines: one static, cached file in this plane over the city's box (ADR 0065),
          about 100 bytes here instead of 22 KB of path. Its fragment sets the lines' width. */}
      <image
        href={`${WARD_MAP.href}#w${wardLine}`}
        x={WARD_MAP.x}
        y={WARD_MAP.y}
        width={WARD_MAP.width}
        height={WARD_MAP.height}
      />
      {/* Under the metro lines; its own colour, as they (a <use> copy takes no page CSS). */}
      <path
        d={ORR_PATH}
        className="orr"
        fill="none"
        stroke="#64748b"
        strokeWidth={2}
        strokeOpacity={0.6}
        vectorEffect="non-scaling-stroke"
      />
      {METRO_PATHS.map(({ line, d }) => (
        <path
          key={line}
          d={d}
          className={`m ${line}`}
          fill="none"
          stroke={METRO_COLOUR[line]}
          strokeWidth={2}
          strokeOpacity={0.75}
          vectorEffect="non-scaling-stroke"
        />
      ))}
    </g>
  );
}

const SHARED_ID = "lr-city";

/** Once on a page of small maps (the search results): the background they all <use>. */
export function CityMapDefs() {
  return (
    <svg width="0" height="0" aria-hidden="true" focusable="false" className="lr-map absolute">
      <defs>
        <CityBackground id={SHARED_ID} wardLine={CARD_WARD_LINE} />
      </defs>
    </svg>
  );
}

/** Where the map data comes from (CC BY-SA and ODbL ask for it where the map is shown). */
export function MapAttribution() {
  return (
    <p className="text-xs text-slate-700 dark:text-slate-300">
      City outline and wards: BBMP wards (KSRSAC, via DataMeet), CC BY-SA 2.5 IN. Metro: © OpenStreetMap contributors,
      ODbL. Outer Ring Road junctions: GeoNames, CC BY 4.0.
    </p>
  );
}

export type RouteMapProps = {
  from: MapPoint;
  to: MapPoint;
  /** The driver's via places, in order (issue 36 item 1 passes them). */
  vias?: MapPoint[];
  /** A rider's pickup and drop along the route, when they differ from the start and end. */
  pickup?: MapPoint | null;
  drop?: MapPoint | null;
  /** "small": a search card's map, no captions, the page's shared background (CityMapDefs). */
  size?: "full" | "small";
};

/** The points a map shows, in the order of the trip, each with its role. */
export function routePoints({ from, to, vias = [], pickup, drop }: RouteMapProps) {
  const points: { role: "Start" | "Via" | "Pickup" | "Drop" | "End"; at: Located }[] = [];
  if (located(from)) points.push({ role: "Start", at: from });
  for (const v of vias) if (located(v)) points.push({ role: "Via", at: v });
  if (located(pickup)) points.push({ role: "Pickup", at: pickup });
  if (located(drop)) points.push({ role: "Drop", at: drop });
  if (located(to)) points.push({ role: "End", at: to });
  return points;
}

export function RouteMap(props: RouteMapProps) {
  const titleId = useId();
  const points = routePoints(props);
  // Without both ends on the map there is no route to draw (a ride from before places had points).
  if (!located(props.from) || !located(props.to)) return null;
  const small = props.size === "small";
  const xy = points.map((p) => ({ ...p, xy: project(p.at) }));
  const aspect = small ? 2 : 1.6;
  const view = viewFor(
    xy.map((p) => p.xy),
    aspect,
  );
  const bar = scaleBar(view);
  // Sizes in the plane's units, so they look the same in every window.
  const u = view.width / (small ? 160 : 320);
  const route: XY[] = xy.filter((p) => p.role !== "Pickup" && p.role !== "Drop").map((p) => p.xy);
  const riderLeg = xy.filter((p) => p.role === "Pickup" || p.role === "Drop").map((p) => p.xy);
  const pickupAt = located(props.pickup) ? props.pickup : props.from;
  const metro = nearestMetroText(pickupAt);
  const label = `Route map: ${props.from.name} to ${props.to.name}`;
  const right = (p: XY) => p.x > view.x + view.width / 2;
  const svg = (
    <svg
      viewBox={`${view.x} ${view.y} ${view.width} ${view.height}`}
      // A card's map is a picture of the route its text already names; a full map is labelled
      // and its caption lists the points.
      {...(small ? { "aria-hidden": true } : { role: "img", "aria-labelledby": titleId })}
      className={small ? "lr-map lr-map-sm" : "lr-map h-auto w-full rounded"}
      data-testid="route-map"
    >
      {small ? null : <title id={titleId}>{label}</title>}
      {small ? <use href={`#${SHARED_ID}`} /> : <CityBackground wardLine={wardLineWidth(view, FULL_MAP_PX)} />}
      <path d={pathOf(route)} className="route" />
      {riderLeg.length === 2 ? <path d={pathOf(riderLeg)} className="rider" /> : null}
      {xy.map((p) => (
        <circle
          key={`${p.role}-${p.at.name}`}
          cx={Math.round(p.xy.x)}
          cy={Math.round(p.xy.y)}
          r={Math.round(u * (p.role === "Via" ? 3 : 5))}
          className={p.role.toLowerCase()}
        />
      ))}
      {small
        ? null
        : xy.map((p) => (
            <text
              key={`${p.role}-${p.at.name}`}
              // A point in the map's right half is labelled on its left, so the name stays on the map.
              textAnchor={right(p.xy) ? "end" : undefined}
              // Above the mark, clear of a route running through it.
              x={Math.round(p.xy.x + (right(p.xy) ? -u * 4 : u * 4))}
              y={Math.round(p.xy.y - u * 8)}
              fontSize={Math.round(u * 9)}
            >
              {p.at.name}
            </text>
          ))}
      <g data-testid="scale-bar">
        <path
          d={`M${Math.round(view.x + u * 10)} ${Math.round(view.y + view.height - u * 10)}h${Math.round(bar.length)}`}
          className="bar"
        />
        <text
          x={Math.round(view.x + u * 10)}
          y={Math.round(view.y + view.height - u * 14)}
          fontSize={Math.round(u * (small ? 16 : 9))}
        >
          {bar.label}
        </text>
      </g>
    </svg>
  );
  if (small) return svg;
  return (
    <figure className="space-y-2" aria-label="Route map">
      {svg}
      <figcaption className="space-y-1 text-sm">
        <ol className="flex flex-wrap gap-x-4 gap-y-1" aria-label="Points on the map">
          {points.map((p) => (
            <li key={`${p.role}-${p.at.name}`}>
              <span className="font-semibold">{`${p.role}:`}</span>
              {` ${p.at.name}${p.at.time ? `, around ${p.at.time}` : ""}`}
            </li>
          ))}
        </ol>
        {metro ? <p data-testid="nearest-metro">{metro}</p> : null}
        <p className="text-xs text-slate-700 dark:text-slate-300">
          {`Straight lines between the points, not the roads. ${WARD_NOTE}. Metro lines: ${METRO_LINE_NAMES_TEXT}. ${ORR_NOTE}. Scale bar: ${bar.label}.`}
        </p>
        <MapAttribution />
      </figcaption>
    </figure>
  );
}
