import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createRide } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { fairSeatPaise, suggestTripCost } from "~/domain/trip-cost";
import { placeByName } from "~/models/places.server";
import { db, get, postForm, signedInUser } from "../support/worker";

// Issue 38 item 2, ADR 0054: a seat's label is measured against its fair share of the trip
// (the create form's suggestion, split over the seats), and the cost filter runs ₹0-₹500 or Any.

const uptoValue = (html: string) => /<input id="upto"[^>]* value="([^"]*)"/.exec(html)?.[1];
const tomorrow = () => addDays(istDate(), 1);
const band = (html: string) => [...html.matchAll(/class="lr-tag-band">([^<]*)</g)].map((m) => m[1]);
const hsr = placeByName("HSR Layout")!;
// Due north of HSR Layout by 24.49 km: 24.49 × 1.4 × ₹7 (petrol) = ₹240 a trip, ₹80 a seat of three.
const north = { lat: hsr.lat + (24.49 / 6371) * (180 / Math.PI), lng: hsr.lng };

async function eightyRupeeShare(tripCostPaise: number, driverId: string) {
  const ride = await createRide(
    { db: db() },
    { driverId, fromLocation: "HSR Layout", toLocation: "Hebbal", toPoint: north, seats: 3, tripCostPaise },
  );
  expect(fairSeatPaise({ ...ride, vehicleType: null })).toBe(8000);
  return ride;
}

describe("price labels in rupees", () => {
  it("a Rs 60 seat on a trip whose fair share is Rs 80 reads Budget on Discover, the ride page and the booking page", async () => {
    const driver = await signedInUser({ fullName: "Kavya Iyer" });
    const viewer = await signedInUser({ fullName: "Rohan Das" });
    const ride = await eightyRupeeShare(18000, driver.id);
    const discover = await (await get("/rides", { cookie: viewer.cookie })).text();
    expect(discover).toContain("₹60.00");
    expect(band(discover)).toEqual(["Budget"]);
    expect(band(await (await get(`/rides/${ride.id}`, { cookie: viewer.cookie })).text())).toEqual(["Budget"]);
    expect(band(await (await get(`/rides/${ride.id}/book`, { cookie: viewer.cookie })).text())).toEqual(["Budget"]);
  });

  it("Rs 64 is Budget, Rs 64.01 Fair, Rs 96 Fair and Rs 96.01 Premium on a Rs 80 share", async () => {
    const driver = await signedInUser();
    const viewer = await signedInUser();
    const labels: Record<number, string | undefined> = {};
    for (const seat of [6400, 6401, 9600, 9601]) {
      const ride = await eightyRupeeShare(seat * 3, driver.id);
      labels[seat] = band(await (await get(`/rides/${ride.id}`, { cookie: viewer.cookie })).text())[0];
    }
    expect(labels).toEqual({ 6400: "Budget", 6401: "Fair", 9600: "Fair", 9601: "Premium" });
  });

  it("a ride offered at the create form's suggested cost reads Fair", async () => {
    const driver = await signedInUser({ fullName: "Meera Nair" });
    const viewer = await signedInUser();
    const suggested = suggestTripCost("HSR Layout", "Manyata Tech Park", "petrol", placeByName)!;
    const res = await postForm(
      "/rides/create",
      {
        intent: "create",
        fromLocation: "HSR Layout",
        toLocation: "Manyata Tech Park",
        date: tomorrow(),
        time: "08:30",
        seats: "3",
        tripCost: String(suggested.paise / 100),
        notes: "",
        communityId: "",
      },
      { cookie: driver.cookie },
    );
    expect(res.status).toBe(302);
    const created = await env.DB.prepare("SELECT id, trip_cost_paise FROM rides WHERE driver_id = ?")
      .bind(driver.id)
      .first<{ id: string; trip_cost_paise: number }>();
    expect(created?.trip_cost_paise).toBe(suggested.paise);
    const id = created?.id;
    expect(band(await (await get(`/rides/${id}`, { cookie: viewer.cookie })).text())).toEqual(["Fair"]);
  });

  it("labels the distance search's cards against each ride's own fair share", async () => {
    const driver = await signedInUser();
    const viewer = await signedInUser();
    const manyata = placeByName("Manyata Tech Park")!;
    const facts = { fromLat: hsr.lat, fromLng: hsr.lng, toLat: manyata.lat, toLng: manyata.lng, vehicleType: null };
    const fair = fairSeatPaise({ ...facts, seats: 3 })!;
    for (const [time, seat] of [
      ["08:30", Math.floor(fair * 0.75)],
      ["08:40", Math.ceil(fair * 1.5)],
    ] as const)
      await createRide({ db: db() }, { driverId: driver.id, time, seats: 3, tripCostPaise: seat * 3 });
    const html = await (
      await get(`/rides?from=HSR+Layout&to=Manyata+Tech+Park&date=${tomorrow()}&time=08:30`, { cookie: viewer.cookie })
    ).text();
    expect(html).toContain("2 rides found");
    expect(band(html)).toEqual(["Budget", "Premium"]);
  });
});

describe("the cost filter: Rs 0-Rs 500 in steps of Rs 10, or Any", () => {
  async function threeRides() {
    const driver = await signedInUser();
    const viewer = await signedInUser();
    const at = { driverId: driver.id, seats: 2 };
    await createRide({ db: db() }, { ...at, fromLocation: "Koramangala", tripCostPaise: 12000 }); // ₹60 a seat
    await createRide({ db: db() }, { ...at, fromLocation: "Jayanagar", tripCostPaise: 20000 }); // ₹100
    await createRide({ db: db() }, { ...at, fromLocation: "Indiranagar", tripCostPaise: 20002 }); // ₹100.01
    await createRide({ db: db() }, { ...at, fromLocation: "Whitefield", tripCostPaise: 30000 }); // ₹150
    return viewer;
  }
  const from = (html: string) => {
    const list = html.slice(html.indexOf('data-testid="rides-found"'));
    return ["Koramangala", "Jayanagar", "Indiranagar", "Whitefield"].filter((p) => list.includes(`${p} `));
  };

  it("up to Rs 100 shows the seats of Rs 100 and less, and says so in its field", async () => {
    const viewer = await threeRides();
    const html = await (await get("/rides?upto=100", { cookie: viewer.cookie })).text();
    expect(html).toContain("2 rides found");
    expect(from(html)).toEqual(["Koramangala", "Jayanagar"]);
    expect(uptoValue(html)).toBe("100");
    expect(from(await (await get("/rides?upto=60", { cookie: viewer.cookie })).text())).toEqual(["Koramangala"]);
    expect(from(await (await get("/rides?upto=500", { cookie: viewer.cookie })).text())).toHaveLength(4);
    expect(from(await (await get("/rides?upto=0", { cookie: viewer.cookie })).text())).toEqual([]);
  });

  it("Any is the default, a choice of its own, and what a blank or unreadable value means", async () => {
    const viewer = await threeRides();
    for (const path of ["/rides", "/rides?upto=", "/rides?upto=any", "/rides?upto=900", "/rides?upto=-10"]) {
      const html = await (await get(path, { cookie: viewer.cookie })).text();
      expect(from(html), path).toHaveLength(4);
      expect(uptoValue(html), path).toBe("");
    }
    const page = await (await get("/rides", { cookie: viewer.cookie })).text();
    expect(page).toMatch(/<label for="upto"[^>]*>Max cost per seat \(₹\)<\/label>/);
    expect(page).toMatch(
      /<input id="upto" name="upto" type="number"[^>]* min="0" max="500" step="10" placeholder="Any"/,
    );
    expect(page).toContain("₹0 to ₹500 in steps of ₹10; empty for any price.");
  });

  it("reads the old slider's links as they were meant: maxCost=50 any price, below it a cap", async () => {
    const viewer = await threeRides();
    expect(from(await (await get("/rides?maxCost=50", { cookie: viewer.cookie })).text())).toHaveLength(4);
    const old = await (await get("/rides?maxCost=45", { cookie: viewer.cookie })).text();
    expect(from(old)).toEqual([]);
    // The field shows the old cap: the page never shows Any for a capped list.
    expect(uptoValue(old)).toBe("45");
    // The new choice wins over an old one carried along in the same link.
    expect(from(await (await get("/rides?maxCost=20&upto=100", { cookie: viewer.cookie })).text())).toHaveLength(2);
  });
});
