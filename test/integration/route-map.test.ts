// Issue 36, items 3 and 4: a map of the route on every ride, in the server's HTML (so it is
// there with JavaScript off and in print), and Namma Metro stations as places.
import { describe, expect, it } from "vitest";
import { WARD_NOTE } from "~/components/route-map";
import { CITY_OUTLINE } from "~/domain/city-map-data";
import { decodePolyline, project, WARD_LINE_WIDTHS, wardLineWidth } from "~/domain/map-geometry";
import { ORR_JUNCTIONS, ORR_NOTE } from "~/domain/ring-road";
import { addDays, istDate } from "~/domain/time";
import { placeByName } from "~/models/places.server";
import { createCommutePattern } from "../../db/factories";
import { createRide, createUser } from "../support/rides";
import { env } from "../support/env";
import { db, get, signedInUser } from "../support/worker";

const BUDGET = 60 * 1024;
const day = () => addDays(istDate(), 1);

async function html(path: string, cookie: string) {
  const res = await get(path, { cookie });
  expect(res.status, path).toBe(200);
  const text = await res.text();
  return { text, bytes: new TextEncoder().encode(text).length };
}

/** The first <svg> of the route map, as the server sent it. */
function mapSvg(page: string) {
  const at = page.indexOf('data-testid="route-map"');
  expect(at, "a route map on the page").toBeGreaterThan(0);
  const start = page.lastIndexOf("<svg", at);
  return page.slice(start, page.indexOf("</svg>", at) + "</svg>".length);
}

/** `n` drivers' rides from `from` to Whitefield tomorrow, leaving a minute apart from 8:10. */
async function ridesToWhitefield(n: number, from: string) {
  for (let i = 0; i < n; i++) {
    const driver = await createUser({ db: db() }, { fullName: `Driver ${i}` });
    await createRide(
      { db: db() },
      { driverId: driver.id, fromLocation: from, toLocation: "Whitefield", date: day(), time: `08:${10 + i}` },
    );
  }
}

describe("the route map", () => {
  it("is on the ride page as SVG with its points listed as text, the nearest metro, a scale and the sources", async () => {
    const driver = await createUser({ db: db() }, { fullName: "Asha Rao" });
    const ride = await createRide(
      { db: db() },
      { driverId: driver.id, fromLocation: "Baiyappanahalli Metro Station", toLocation: "Electronic City Phase 1" },
    );
    const rider = await signedInUser({ fullName: "Ravi Kumar" });
    const { text, bytes } = await html(`/rides/${ride.id}`, rider.cookie);
    const svg = mapSvg(text);
    expect(svg).toMatch(/role="img"/);
    expect(svg).toMatch(
      /<title id="[^"]+">Route map: Baiyappanahalli Metro Station to Electronic City Phase 1<\/title>/,
    );
    // The city's outline and the three metro lines are drawn in the map itself (no tiles, no script).
    expect(svg).toContain('class="city"');
    expect(svg).toContain('class="m purple"');
    expect(svg).toContain('class="m green"');
    expect(svg).toContain('class="m yellow"');
    // Nothing from another host (no tiles): the one image is the wards' file of this origin.
    expect(svg).not.toMatch(/href="(https?:)?\/\//);
    expect(svg.match(/<image /g)).toHaveLength(1);
    expect(svg).toContain('data-testid="scale-bar"');
    expect(svg).toMatch(/>\d+ km<\/text>/);
    // Start and end as marks and labels.
    expect(svg.match(/<circle /g)).toHaveLength(2);
    expect(svg).toContain(">Electronic City Phase 1</text>");
    // The text alternative: the points in trip order, and the nearest station to the pickup.
    expect(text).toMatch(
      /Start:<\/span> Baiyappanahalli Metro Station<\/li><li>.*End:<\/span> Electronic City Phase 1/,
    );
    expect(text).toContain("Nearest metro: Baiyappanahalli (Purple), under 100 m");
    expect(text).toContain("© OpenStreetMap contributors, ODbL");
    expect(text).toContain("CC BY-SA 2.5 IN");
    // The map is a few kilobytes of the page's budget.
    expect(svg.length).toBeLessThan(8 * 1024);
    expect(bytes).toBeLessThanOrEqual(BUDGET);
  });

  it("is on the booking page and the commute page", async () => {
    const driver = await createUser({ db: db() }, { fullName: "Asha Rao" });
    const ride = await createRide(
      { db: db() },
      { driverId: driver.id, fromLocation: "Whitefield", toLocation: "Electronic City Phase 1" },
    );
    const commute = await createCommutePattern(
      { db: db() },
      { driverId: driver.id, fromLocation: "HSR Layout", toLocation: "Manyata Tech Park" },
    );
    const rider = await signedInUser({ fullName: "Ravi Kumar" });
    const book = await html(`/rides/${ride.id}/book`, rider.cookie);
    expect(mapSvg(book.text)).toContain(">Route map: Whitefield to Electronic City Phase 1</title>");
    const page = await html(`/commutes/${commute.id}`, rider.cookie);
    expect(mapSvg(page.text)).toContain(">Route map: HSR Layout to Manyata Tech Park</title>");
    expect(page.text).toContain("Start:</span> HSR Layout");
  });

  it("leaves out the map of a ride with no points (from before places), and the page still works", async () => {
    const driver = await createUser({ db: db() }, { fullName: "Asha Rao" });
    const ride = await createRide({ db: db() }, { driverId: driver.id, fromLocation: "Old Town Hall Corner" });
    const rider = await signedInUser({ fullName: "Ravi Kumar" });
    const { text } = await html(`/rides/${ride.id}`, rider.cookie);
    expect(text).toContain("Old Town Hall Corner");
    expect(text).not.toContain('data-testid="route-map"');
  });

  it("draws a small map on each search result over one shared background, with the nearest metro", async () => {
    const rider = await signedInUser({ fullName: "Ravi Kumar" });
    await ridesToWhitefield(6, "Majestic Metro Station");
    // A station is a place: the search starts at it.
    const { text, bytes } = await html(
      `/rides?from=Majestic+Metro+Station&to=Whitefield&date=${day()}&time=08:15&window=60`,
      rider.cookie,
    );
    const cards = text.split('data-testid="ride-card"').slice(1);
    expect(cards.length).toBeGreaterThanOrEqual(6);
    for (const card of cards) {
      // A picture of the route the card's text names: hidden from screen readers, not repeated.
      expect(mapSvg(card)).toMatch(/^<svg [^>]*aria-hidden="true"/);
      expect(card).toContain('<use href="#lr-city"');
      expect(card).toContain("Nearest metro: Majestic (Purple, Green), under 100 m");
    }
    // The city outline once for the page, not once a card.
    expect(text.match(/id="lr-city"/g)).toHaveLength(1);
    expect(text.match(/class="m purple"/g)).toHaveLength(1);
    // Page CSS does not reach a <use>'s copy (Chromium drew the cards' lines black): the shared
    // lines carry their colours as attributes.
    expect(text).toMatch(/class="m purple" fill="none" stroke="#[0-9a-f]{6}"/);
    expect(mapSvg(cards[0]).length).toBeLessThan(500);
    expect(bytes).toBeLessThanOrEqual(BUDGET);
    // Discover's browse list (20 cards, no places searched) draws none: they would take it past
    // the page budget (html-budget.test.ts), and its rows carry no points.
    const browse = await html("/rides", rider.cookie);
    expect(browse.text).toContain('data-testid="ride-card"');
    expect(browse.text).not.toContain('data-testid="route-map"');
    expect(browse.text).not.toContain("fromLat");
  });
});

describe("the Outer Ring Road on the map (issue 36, item 3)", () => {
  it("is drawn on the ride page, named in the text alternative, and the page stays within 60 KB", async () => {
    const driver = await createUser({ db: db() }, { fullName: "Asha Rao" });
    const ride = await createRide(
      { db: db() },
      {
        driverId: driver.id,
        fromLocation: "Whitefield",
        toLocation: "Electronic City Phase 1",
        vias: ["Marathahalli"],
      },
    );
    const rider = await signedInUser({ fullName: "Ravi Kumar" });
    const { text, bytes } = await html(`/rides/${ride.id}`, rider.cookie);
    const svg = mapSvg(text);
    // A closed ring through every junction, under the metro lines, with its own colour.
    const orr = svg.match(/<path d="(M[^"]+z)" class="orr" fill="none" stroke="#[0-9a-f]{6}"/);
    expect(orr, "the ORR path").not.toBeNull();
    expect(orr![1].match(/-?\d+/g)).toHaveLength(2 * ORR_JUNCTIONS.length);
    expect(svg.indexOf('class="orr"')).toBeLessThan(svg.indexOf('class="m purple"'));
    expect(text).toContain(`${ORR_NOTE}.`);
    expect(text).toContain("Outer Ring Road junctions: GeoNames, CC BY 4.0");
    // The rest of the text alternative is as it was: the points in trip order.
    expect(text).toMatch(
      /Start:<\/span> Whitefield<\/li><li>.*Via:<\/span> Marathahalli<\/li><li>.*End:<\/span> Electronic City Phase 1/,
    );
    expect(svg.length).toBeLessThan(8 * 1024);
    expect(bytes).toBeLessThanOrEqual(BUDGET);
  });

  it("runs through its junctions at their places' points, around the city centre", () => {
    for (const [name, lat, lng] of ORR_JUNCTIONS) {
      const place = placeByName(name);
      expect(place, name).toBeDefined();
      expect([place!.lat, place!.lng], name).toEqual([lat, lng]);
    }
    // A ring: the centre (MG Road) is inside it, the city's edge (its outline) outside.
    const ring = ORR_JUNCTIONS.map(([, lat, lng]) => project({ lat, lng }));
    const inside = (p: { x: number; y: number }) => {
      let n = false;
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [a, b] = [ring[i], ring[j]];
        if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) n = !n;
      }
      return n;
    };
    expect(inside(project({ lat: 12.9757, lng: 77.6068 }))).toBe(true);
    expect(inside(project(placeByName("Whitefield")!))).toBe(false);
    expect(inside(project(placeByName("Electronic City Phase 1")!))).toBe(false);
  });
});

const WARDS_IMAGE =
  /<image href="(\/maps\/wards-([0-9a-f]{10})\.svg)#w(\d+)" x="(-?\d+)" y="(-?\d+)" width="(\d+)" height="(\d+)"/;
const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, "0")).join("");

// WCAG's relative luminance and contrast ratio, for the ward lines blended over the city's fill.
const luminance = (rgb: number[]) => {
  const [r, g, b] = rgb.map((c) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a: number[], b: number[]) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};
const rgbOf = (h: string) => [1, 3, 5].map((i) => Number.parseInt(h.slice(i, i + 2), 16));

describe("the ward outlines on the map (issue 36, item 3; ADR 0065)", () => {
  it("are one cached file in the map's own plane, under the ring road and metro, referenced by each map", async () => {
    const driver = await createUser({ db: db() }, { fullName: "Asha Rao" });
    const ride = await createRide(
      { db: db() },
      {
        driverId: driver.id,
        fromLocation: "Whitefield",
        toLocation: "Electronic City Phase 1",
        vias: ["Marathahalli"],
      },
    );
    const rider = await signedInUser({ fullName: "Ravi Kumar" });
    const { text, bytes } = await html(`/rides/${ride.id}`, rider.cookie);
    const svg = mapSvg(text);
    const image = svg.match(WARDS_IMAGE);
    expect(image, "the map's <image> of the ward outlines").not.toBeNull();
    const [, href, hash, width, ...box] = image!;
    // Over the city, under the ring road, the metro lines and the route.
    expect(svg.indexOf('class="city"')).toBeLessThan(svg.indexOf("<image "));
    expect(svg.indexOf("<image ")).toBeLessThan(svg.indexOf('class="orr"'));
    expect(svg.indexOf('class="m purple"')).toBeLessThan(svg.indexOf('class="route"'));
    // The line width the map asked for is the one that comes to about a pixel at its window.
    const [vx, vy, vw, vh] = svg
      .match(/viewBox="([^"]+)"/)![1]
      .split(" ")
      .map(Number);
    expect(Number(width)).toBe(wardLineWidth({ x: vx, y: vy, width: vw, height: vh }, 560));
    // The text alternative says what the faint lines are, and still lists the points in order.
    expect(text).toContain(`${WARD_NOTE}.`);
    expect(text).toContain("City outline and wards: BBMP wards (KSRSAC, via DataMeet), CC BY-SA 2.5 IN");
    expect(text).toMatch(
      /Start:<\/span> Whitefield<\/li><li>.*Via:<\/span> Marathahalli<\/li><li>.*End:<\/span> Electronic City Phase 1/,
    );
    expect(svg.length).toBeLessThan(8 * 1024);
    expect(bytes).toBeLessThanOrEqual(BUDGET);

    // The file itself, as the static assets serve it (public/, with public/_headers; in this
    // pool a request reaches the worker, not the assets' router, so through their binding):
    // an SVG, kept for a year, named by its content.
    const res = await env.ASSETS.fetch(`http://localhost${href}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^image\/svg\+xml/);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const body = await res.arrayBuffer();
    expect(hex(await crypto.subtle.digest("SHA-256", body)).slice(0, 10)).toBe(hash);
    expect(body.byteLength).toBeLessThan(40 * 1024);
    const file = new TextDecoder().decode(body);
    expect(file).not.toMatch(/<script|href=/);
    // One plane: the file's own box is where the map puts it...
    expect(
      file
        .match(/viewBox="([^"]+)"/)![1]
        .split(" ")
        .map(Number),
    ).toEqual(box.map(Number));
    // ...and that box is the city's as the maps project it (the outline is the union of the
    // same wards, simplified to 120 m: its extremes lie within 13 units, 130 m, of the box's).
    const outline = decodePolyline(CITY_OUTLINE).map(project);
    const [x, y, w, h] = box.map(Number);
    const xs = outline.map((p) => p.x);
    const ys = outline.map((p) => p.y);
    for (const [got, want] of [
      [Math.min(...xs), x],
      [Math.max(...xs), x + w],
      [Math.min(...ys), y],
      [Math.max(...ys), y + h],
    ]) {
      expect(Math.abs(got - want)).toBeLessThanOrEqual(13);
    }
    // Every width a map may ask for is in the file.
    for (const lw of WARD_LINE_WIDTHS) expect(file).toContain(`#w${lw}:target~path{stroke-width:${lw}}`);
    // Faint but visible on the light and the dark map's city fill (slate-100, slate-800).
    const [, stroke, opacity] = file.match(/stroke:(#[0-9a-f]{6});stroke-opacity:([.\d]+)/)!;
    for (const fill of ["#f1f5f9", "#1e293b"]) {
      const blend = rgbOf(stroke).map((c, i) => Number(opacity) * c + (1 - Number(opacity)) * rgbOf(fill)[i]);
      const ratio = contrast(blend, rgbOf(fill));
      expect(ratio, fill).toBeGreaterThanOrEqual(1.3);
      expect(ratio, fill).toBeLessThanOrEqual(2.5);
    }
  });

  it("are in the one background every search result's small map uses, once a page", async () => {
    const rider = await signedInUser({ fullName: "Ravi Kumar" });
    await ridesToWhitefield(10, "HSR Layout");
    const { text, bytes } = await html(
      `/rides?from=HSR+Layout&to=Whitefield&date=${day()}&time=08:15&window=60`,
      rider.cookie,
    );
    // The cards <use> one background, and the ward outlines are in it once, between the
    // city's outline and the ring road (each card's map stays under 0.5 KB).
    const cards = text.split('data-testid="ride-card"').slice(1);
    expect(cards.length).toBeGreaterThanOrEqual(10);
    for (const card of cards) expect(mapSvg(card)).toContain('<use href="#lr-city"');
    const shared = text.slice(text.indexOf('id="lr-city"'));
    expect(shared.match(WARDS_IMAGE)?.[3], "the shared background's ward outlines, 8 units wide").toBe("8");
    expect(shared.indexOf('class="city"')).toBeLessThan(shared.indexOf("<image "));
    expect(shared.indexOf("<image ")).toBeLessThan(shared.indexOf('class="orr"'));
    expect(text.match(/<image /g)).toHaveLength(1);
    expect(text).toContain("City outline and wards: BBMP wards");
    expect(bytes).toBeLessThanOrEqual(BUDGET);
  });
});
