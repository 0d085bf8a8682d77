// The bench's peer (ADR 0060): its "limit" stands for the floor's page only if the template
// strings write what React renders for it, escaping included; else the ratio to the limit
// would compare LoopRide with a different page.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { rideListHtml } from "../../scripts/bench/peer/limit";
import { RideList } from "../../scripts/bench/peer/app/ride-list";
import type { Ride } from "../../scripts/bench/peer/app/rides";

const ride = (i: number, over: Partial<Ride> = {}): Ride => ({
  id: `r${i}`,
  driver: "Priya S.",
  from_place: "Koramangala",
  to_place: "Manyata Tech Park",
  departs_at: Date.UTC(2026, 10, 30, 2, 7 * i),
  seats_left: 1 + (i % 4),
  seat_rupees: 40 + i,
  ...over,
});

describe("the bench peer's limit writes the floor's markup", () => {
  it("byte for byte, on plain cards and on text React must escape", () => {
    const rides = [
      ride(0),
      ride(1, { driver: `O'Brien "Bob" <b>`, from_place: "HSR & Agara", to_place: "Tin Factory > KR Puram" }),
      ride(2, { id: `a"b&c` }),
    ];
    const html = rideListHtml(rides);
    expect(html).toBe(renderToString(createElement(RideList, { rides })));
    expect(html).toContain("HSR &amp; Agara");
    expect(html).toContain("Mon 30 Nov, 7:37 am");
  });

  it("no cards: the empty list", () => {
    expect(rideListHtml([])).toBe(renderToString(createElement(RideList, { rides: [] })));
  });
});
