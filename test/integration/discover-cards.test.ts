// Discover sends each card only the fields it shows, and leaves out the null and false ones
// (issue 17, ADR 0025: the loader data is serialised into the page). A card must read a
// missing field as the empty value it stands for, and never lose one that is set.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createRide } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { db, get, postForm, signedInUser } from "../support/worker";

describe("a Discover card", () => {
  it("shows what its ride says whether a field is set, zero or left out, and nothing it does not show", async () => {
    const driver = await signedInUser({ fullName: "Priya Sharma", profile: { gender: "female" } });
    const viewer = await signedInUser({ fullName: "Sneha Iyer", profile: { gender: "female" } });
    const date = addDays(istDate(), 3);
    const ride = (notes: string) => createRide({ db: db() }, { driverId: driver.id, date, notes });
    const plain = await ride("Gate 3 pickup, plain");
    const womenOnly = await ride("Gate 3 pickup, women only");
    const locked = await ride("Gate 3 pickup, locked");
    const saved = await ride("Gate 3 pickup, saved");
    await env.DB.prepare("UPDATE rides SET women_only = 1 WHERE id = ?").bind(womenOnly.id).run();
    // Locked with no seats booked yet: 0 is a value, not an empty field.
    await env.DB.prepare("UPDATE rides SET women_lock_booked = 0 WHERE id = ?").bind(locked.id).run();
    expect(
      (await postForm("/rides", { intent: "save", rideId: saved.id, redirectTo: "/rides" }, { cookie: viewer.cookie }))
        .status,
    ).toBe(302);

    const html = await (await get(`/rides?date=${date}`, { cookie: viewer.cookie })).text();
    const cards = html.split('data-testid="ride-card"').slice(1);
    const cardOf = (id: string) => cards.find((c) => c.includes(`href="/rides/${id}"`)) ?? "";
    expect(cards).toHaveLength(4);

    expect(cardOf(plain.id)).not.toContain('data-testid="women-only"');
    expect(cardOf(plain.id)).toMatch(/aria-pressed="false">Save</);
    expect(cardOf(plain.id)).toContain("Book Now");
    expect(cardOf(plain.id)).toContain("Priya Sharma");
    expect(cardOf(womenOnly.id)).toMatch(/data-testid="women-only">Women only</);
    expect(cardOf(locked.id)).toMatch(/data-testid="women-only">Open seats for women</);
    expect(cardOf(saved.id)).toMatch(/aria-pressed="true">Saved</);
    // A card does not show the ride's notes, so the page (loader data included) does not carry them.
    expect(html).not.toContain("Gate 3 pickup");
  });
});

describe("a card's Save, without a redirectTo of its own", () => {
  it("goes back to the search it was pressed on (same-site Referer), never to another site", async () => {
    const driver = await signedInUser({ fullName: "Arjun Rao" });
    const viewer = await signedInUser({ fullName: "Kavya Nair" });
    const ride = await createRide({ db: db() }, { driverId: driver.id, date: addDays(istDate(), 3) });
    const search = "/rides?from=HSR+Layout&to=Whitefield+ITPL&time=08:30&radius=10&window=60";
    const page = await (await get(search, { cookie: viewer.cookie })).text();
    // The cards' forms carry the ride, not the page's address (only "Save this search" does).
    expect(page.split('name="redirectTo" value="/rides?from=').length - 1).toBeLessThanOrEqual(1);
    const saved = await postForm(
      "/rides?index",
      { intent: "save", rideId: ride.id },
      { cookie: viewer.cookie, headers: { Referer: `http://localhost${search}` } },
    );
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(search);
    const elsewhere = await postForm(
      "/rides?index",
      { intent: "unsave", rideId: ride.id },
      { cookie: viewer.cookie, headers: { Referer: "https://evil.example/rides?x=1" } },
    );
    expect(elsewhere.headers.get("Location")).toBe("/rides");
  });
});
