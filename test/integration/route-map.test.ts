// Issue 36, items 3 and 4: a map of the route on every ride, in the server's HTML (so it is
// there with JavaScript off and in print), and Namma Metro stations as places.
import { describe, expect, it } from "vitest";
import { project } from "~/domain/map-geometry";
import { ORR_JUNCTIONS, ORR_NOTE } from "~/domain/ring-road";
import { addDays, istDate } from "~/domain/time";
import { placeByName } from "~/models/places.server";
import { createCommutePattern } from "../../db/factories";
import { createRide, createUser } from "../support/rides";
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
    expect(svg).not.toMatch(/<image|href="http/);
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
    for (let i = 0; i < 6; i++) {
      const driver = await createUser({ db: db() }, { fullName: `Driver ${i}` });
      await createRide(
        { db: db() },
        {
          driverId: driver.id,
          fromLocation: "Majestic Metro Station",
          toLocation: "Whitefield",
          date: day(),
          time: `08:${10 + i}`,
        },
      );
    }
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
