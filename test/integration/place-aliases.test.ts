// Issue 36, item 5: the names people use resolve to places of the list, on every typed field.
import { describe, expect, it } from "vitest";
import { PLACE_ALIASES } from "~/domain/place-aliases";
import { addDays, istDate } from "~/domain/time";
import { placeByName, resolvePlace, suggestPlaces } from "~/models/places.server";
import { parseNearSearch } from "~/utils/near-search.server";
import { signedInUser, postForm, db } from "../support/worker";
import { rides } from "../../db/schema";
import { eq } from "drizzle-orm";

describe("place aliases", () => {
  it("point only at places of the list, and never shadow a place's own name", () => {
    for (const [alias, name] of Object.entries(PLACE_ALIASES)) {
      expect(placeByName(name)?.name, `${alias} -> ${name}`).toBe(name);
      // A place called like the alias keeps its own name (the alias is only a fallback).
      const own = placeByName(alias);
      expect(own, alias).toBeDefined();
      expect([name, alias.trim()].map((n) => n.toLowerCase())).toContain(own!.name.toLowerCase());
    }
  });

  it("resolve the common names and spellings, case and punctuation aside", () => {
    const cases: [string, string][] = [
      ["Electronic City", "Electronic City Phase 1"],
      ["electronic city", "Electronic City Phase 1"],
      ["ITPL", "Whitefield ITPL"],
      ["Whitefield ITPL", "Whitefield ITPL"],
      ["Silk Board", "BTM Layout"],
      ["Manyata", "Manyata Tech Park"],
      ["Manyata Tech Park", "Manyata Tech Park"],
      ["ORR Bellandur", "Bellandur"],
      ["Outer Ring Road, Marathahalli", "Marathahalli"],
      ["Belandur", "Bellandur"],
      ["Marthahalli", "Marathahalli"],
      ["Kormangala", "Koramangala"],
    ];
    for (const [typed, name] of cases) expect(resolvePlace(typed).place?.name, typed).toBe(name);
    // The locality "Electronics City" is its own place, not the alias's target.
    expect(resolvePlace("Electronics City").place?.name).toBe("Electronics City");
  });

  it("suggest their place while the name is being typed", () => {
    expect(suggestPlaces("silk").map((p) => p.name)).toContain("BTM Layout");
    expect(suggestPlaces("manya").map((p) => p.name)[0]).toBe("Manyata Tech Park");
  });

  it("work in the search and in Create Ride, which stores the list's name", async () => {
    const day = addDays(istDate(), 1);
    const { search } = parseNearSearch(
      new URLSearchParams({ from: "Belandur", to: "Electronic City", date: day, time: "08:50" }),
    );
    expect([search?.from, search?.to].map((p) => (typeof p === "object" ? p.name : p))).toEqual([
      "Bellandur",
      "Electronic City Phase 1",
    ]);
    const driver = await signedInUser();
    const res = await postForm(
      "/rides/create",
      {
        intent: "create",
        fromLocation: "ITPL",
        toLocation: "Electronic City",
        date: day,
        time: "08:30",
        seats: "3",
        tripCost: "300",
      },
      { cookie: driver.cookie },
    );
    expect(res.status, await res.clone().text()).toBe(302);
    const [ride] = await db().select().from(rides).where(eq(rides.driverId, driver.id));
    expect([ride.fromLocation, ride.toLocation]).toEqual(["Whitefield ITPL", "Electronic City Phase 1"]);
  });
});
