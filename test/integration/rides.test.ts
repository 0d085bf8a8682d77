import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity } from "../../db/factories";
import { rideRequests } from "../../db/schema";
import { addDays, istDate } from "~/domain/time";
import { createRide as createRideModel, PROFILE_MISSING } from "~/models/ride-publishing.server";
import { discoverPageQuery, discoverRides } from "~/models/ride-discovery.server";
import { getRideDetail, getRideForBooking } from "~/models/rides.server";
import { requestSeats } from "~/models/ride-requests.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { NotFoundError } from "~/models/errors.server";
import { discoverFiltersSchema } from "~/schemas/ride-search";
import { createRideSchema } from "~/schemas/rides";
import { Browser, db, get, postForm, signedInUser, tableCounts, notificationsFor } from "../support/worker";
import {
  createRide,
  createRideRequest,
  createUser,
  driverWithRide,
  requestRow,
  rideRow,
  toastOf,
} from "../support/rides";

const tomorrow = () => addDays(istDate(), 1);

const validRide = (over: Record<string, string> = {}) => ({
  intent: "create",
  fromLocation: "HSR Layout",
  toLocation: "Manyata Tech Park",
  date: tomorrow(),
  time: "08:30",
  seats: "3",
  tripCost: "300",
  notes: "",
  communityId: "",
  ...over,
});

describe("create a ride", () => {
  it("creates an active ride in paise with its IST departure instant and goes to /dashboard/rides", async () => {
    const driver = await signedInUser();
    const res = await postForm("/rides/create", validRide({ notes: "AC car" }), { cookie: driver.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard/rides");
    expect(toastOf(res)?.title).toBe("Ride created successfully!");
    const row = await env.DB.prepare("SELECT * FROM rides WHERE driver_id = ?")
      .bind(driver.id)
      .first<Record<string, unknown>>();
    expect(row).toMatchObject({
      status: "active",
      seats: 3,
      booked_seats: 0,
      trip_cost_paise: 30000,
      notes: "AC car",
      from_location: "HSR Layout",
    });
    expect(new Date(row!.departs_at as number).toISOString()).toBe(`${tomorrow()}T03:00:00.000Z`);
  });

  it("shows every validation message and changes nothing", async () => {
    const driver = await signedInUser();
    const before = await tableCounts();
    const empty = await postForm("/rides/create", { intent: "create" }, { cookie: driver.cookie });
    expect(empty.status).toBe(400);
    const html = await empty.text();
    for (const msg of [
      "Please select pickup location",
      "Please select drop location",
      "Please select a date",
      "Please select time",
      "Please select number of seats",
    ]) {
      expect(html).toContain(msg);
    }
    const same = await (
      await postForm("/rides/create", validRide({ toLocation: "HSR Layout" }), { cookie: driver.cookie })
    ).text();
    expect(same).toContain("Pickup and drop locations cannot be the same");
    const past = await (
      await postForm("/rides/create", validRide({ date: addDays(istDate(), -1) }), { cookie: driver.cookie })
    ).text();
    expect(past).toContain("Date cannot be in the past");
    const seats = await (await postForm("/rides/create", validRide({ seats: "7" }), { cookie: driver.cookie })).text();
    expect(seats).toContain("Number of seats must be between 1 and 6");
    const zero = await (await postForm("/rides/create", validRide({ seats: "0" }), { cookie: driver.cookie })).text();
    expect(zero).toContain("Number of seats must be between 1 and 6");
    const earlier = await postForm("/rides/create", validRide({ date: istDate(Date.now() - 60_000), time: "00:00" }), {
      cookie: driver.cookie,
    });
    expect(earlier.status).toBe(400);
    expect(await tableCounts()).toEqual(before);
  });

  it("'today' at 23:30 UTC is already tomorrow in Bengaluru: the date check uses IST", () => {
    const at = Date.UTC(2026, 10, 22, 23, 30); // 05:00 on Nov 23 in Bengaluru
    const schema = createRideSchema(at);
    const base = { fromLocation: "HSR Layout", toLocation: "Koramangala", time: "09:00", seats: "2", tripCost: "100" };
    const utcToday = schema.safeParse({ ...base, date: "2026-11-22" });
    expect(utcToday.success).toBe(false);
    expect(utcToday.error!.issues.map((i) => i.message)).toContain("Date cannot be in the past");
    expect(schema.safeParse({ ...base, date: "2026-11-23" }).success).toBe(true);
    // 04:30 IST on the 23rd has already passed at 05:00 IST.
    const early = schema.safeParse({ ...base, date: "2026-11-23", time: "04:30" });
    expect(early.success).toBe(false);
  });

  it("only offers and accepts communities the driver is an approved member of", async () => {
    const driver = await signedInUser();
    const owner = await createUser({ db: db() });
    const mine = await createCommunity({ db: db() }, { createdBy: owner.id, name: "HSR Sector 2" });
    const pending = await createCommunity({ db: db() }, { createdBy: owner.id, name: "Pending Club" });
    await addMember({ db: db() }, { communityId: mine.id, userId: driver.id });
    await addMember({ db: db() }, { communityId: pending.id, userId: driver.id, status: "pending" });
    const page = await (await get("/rides/create", { cookie: driver.cookie })).text();
    expect(page).toContain("HSR Sector 2");
    expect(page).not.toContain("Pending Club");
    const refused = await postForm("/rides/create", validRide({ communityId: pending.id }), { cookie: driver.cookie });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("approved member");
    const ok = await postForm("/rides/create", validRide({ communityId: mine.id }), { cookie: driver.cookie });
    expect(ok.status).toBe(302);
  });

  it("shows the suggested cost, and 'Suggest cost' fills it in without JavaScript", async () => {
    const driver = await signedInUser();
    const res = await postForm(
      "/rides/create",
      { intent: "suggest", fromLocation: "HSR Layout", toLocation: "Manyata Tech Park" },
      { cookie: driver.cookie },
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/km straight line × 1\.4 road factor/);
    const rupees = /data-testid="suggested-cost">₹(\d+)</.exec(html)![1];
    expect(html).toMatch(new RegExp(`name="tripCost"[^>]*value="${rupees}"|value="${rupees}"[^>]*name="tripCost"`));
    expect(html).not.toContain("Please select a date");
  });

  it("needs a profile: without one the model refuses with the spec's message (and the route sends to onboarding)", async () => {
    const noProfile = await createUser({ db: db() }, { onboarded: null });
    const input = createRideSchema().parse({
      fromLocation: "HSR Layout",
      toLocation: "Koramangala",
      date: tomorrow(),
      time: "09:00",
      seats: "2",
      tripCost: "100",
    });
    await expect(createRideModel({ db: db() }, noProfile.id, input)).rejects.toThrow(
      new NotFoundError(PROFILE_MISSING),
    );
    const u = await signedInUser({ onboarded: null });
    const res = await postForm("/rides/create", validRide(), { cookie: u.cookie });
    expect(res.headers.get("Location")).toBe("/onboarding");
  });
});

describe("discover", () => {
  it("lists upcoming active rides of others in departure order with real stats and filters", async () => {
    const viewer = await signedInUser();
    const other = await createUser({ db: db() }, { fullName: "Arjun Rao" });
    const owner = await createUser({ db: db() });
    const community = await createCommunity({ db: db() }, { createdBy: owner.id });
    const d1 = addDays(istDate(), 1);
    const d2 = addDays(istDate(), 2);
    await createRide(
      { db: db() },
      {
        driverId: other.id,
        fromLocation: "Koramangala",
        toLocation: "MG Road",
        date: d2,
        time: "09:00",
        seats: 4,
        bookedSeats: 2,
        tripCostPaise: 8000,
      },
    );
    await createRide(
      { db: db() },
      {
        driverId: other.id,
        fromLocation: "Hebbal",
        toLocation: "UB City",
        date: d1,
        time: "18:00",
        seats: 2,
        tripCostPaise: 60000,
        communityId: community.id,
      },
    );
    await createRide({ db: db() }, { driverId: viewer.id, fromLocation: "Jayanagar", toLocation: "JP Nagar" });
    await createRide(
      { db: db() },
      { driverId: other.id, fromLocation: "Yelahanka", toLocation: "Hebbal", status: "cancelled" },
    );
    await createRide(
      { db: db() },
      { driverId: other.id, fromLocation: "Malleshwaram", toLocation: "Hebbal", date: addDays(istDate(), -1) },
    );

    // The community ride is for its members only (finding 9): not listed, not counted.
    const outside = await (await get("/rides", { cookie: viewer.cookie })).text();
    expect(outside).toContain("1 ride found");
    expect(outside).not.toContain("UB City");
    expect(await (await get("/rides?community=1", { cookie: viewer.cookie })).text()).toContain("No rides found");
    await addMember({ db: db() }, { communityId: community.id, userId: viewer.id });

    const html = await (await get("/rides", { cookie: viewer.cookie })).text();
    expect(html).toContain("2 rides found");
    expect(html).not.toContain("Jayanagar →");
    expect(html.indexOf("UB City")).toBeLessThan(html.indexOf("MG Road"));
    // The banner is city-wide over public rides (the viewer's own included, rides shared with
    // a community never): 2 + 3 open seats; kept by triggers in ride_hour_stats.
    expect(html).toMatch(/data-testid="stat-rides">2</);
    expect(html).toMatch(/data-testid="stat-seats">5</);
    expect(html).toMatch(/data-testid="stat-co2">5 kg</);
    expect(html).toContain("public rides available");
    expect(outside).toMatch(/data-testid="stat-rides">2</);
    expect(html).toContain("Arjun Rao");
    expect(html).toContain("₹20.00"); // 8000 / 4 seats
    const main = html.slice(html.indexOf('<main id="main"'), html.indexOf("</main>"));
    expect(main).not.toContain("$");

    expect(await (await get("/rides?q=koRAMan", { cookie: viewer.cookie })).text()).toContain("1 ride found");
    const cheap = await (await get("/rides?maxCost=25", { cookie: viewer.cookie })).text();
    expect(cheap).toContain("1 ride found");
    expect(cheap).toContain("Koramangala");
    const community1 = await (await get("/rides?community=1", { cookie: viewer.cookie })).text();
    expect(community1).toContain("1 ride found");
    expect(community1).toContain("UB City");
    const onDate = await (await get(`/rides?date=${d2}`, { cookie: viewer.cookie })).text();
    expect(onDate).toContain("1 ride found");
    // A place on a day goes through the place indexes: same answers.
    expect(await (await get(`/rides?q=koRAMan&date=${d2}`, { cookie: viewer.cookie })).text()).toContain(
      "1 ride found",
    );
    expect(await (await get(`/rides?q=mg%20road&date=${d2}`, { cookie: viewer.cookie })).text()).toContain(
      "1 ride found",
    );
    expect(await (await get(`/rides?q=koramangala&date=${d1}`, { cookie: viewer.cookie })).text()).toContain(
      "No rides found",
    );
    const none = await (await get("/rides?q=atlantis", { cookie: viewer.cookie })).text();
    expect(none).toContain("No rides found");
    expect(none).toContain("Clear Search");
  });

  it("Book Now reads Full when no seats are left; Save really saves and unsaves", async () => {
    const viewer = await signedInUser();
    const other = await createUser({ db: db() });
    const full = await createRide({ db: db() }, { driverId: other.id, seats: 2, bookedSeats: 2 });
    const html = await (await get("/rides", { cookie: viewer.cookie })).text();
    expect(html).toMatch(/<button[^>]*disabled[^>]*>Full<\/button>/);
    expect(html).not.toContain(`/rides/${full.id}/book`);
    // Share without JavaScript is a WhatsApp link whose message carries the ride's address.
    const share = html.match(new RegExp(`href="https://wa\\.me/\\?text=([^"]*${full.id}[^"]*)"`));
    expect(decodeURIComponent(share?.[1] ?? "")).toMatch(
      new RegExp(`^.+ → .+, .+, .+ http://localhost/rides/${full.id}$`),
    );
    expect(html).toContain(`/dashboard/messages?to=${other.id}`);
    const save = await postForm(
      "/rides",
      { intent: "save", rideId: full.id, redirectTo: "/rides?q=x" },
      { cookie: viewer.cookie },
    );
    expect(save.headers.get("Location")).toBe("/rides?q=x");
    await postForm("/rides", { intent: "save", rideId: full.id }, { cookie: viewer.cookie });
    const n = () =>
      env.DB.prepare("SELECT count(*) AS n FROM saved_rides WHERE user_id = ?").bind(viewer.id).first<{ n: number }>();
    expect((await n())!.n).toBe(1);
    expect(await (await get("/rides", { cookie: viewer.cookie })).text()).toContain(">Saved</button>");
    await postForm("/rides", { intent: "unsave", rideId: full.id }, { cookie: viewer.cookie });
    expect((await n())!.n).toBe(0);
    expect((await postForm("/rides", { intent: "accept", requestId: "x" }, { cookie: viewer.cookie })).status).toBe(
      400,
    );
  });

  it("paginates 20 per page with a next page link", async () => {
    const viewer = await signedInUser();
    const other = await createUser({ db: db() });
    for (let i = 0; i < 21; i++)
      await createRide(
        { db: db() },
        {
          driverId: other.id,
          time: `0${Math.floor(i / 6)}:${String((i % 6) * 10).padStart(2, "0")}`,
          date: addDays(istDate(), 2),
        },
      );
    const p1 = await (await get("/rides", { cookie: viewer.cookie })).text();
    expect(p1.match(/data-testid="ride-card"/g)).toHaveLength(20);
    expect(p1).toContain("21 rides found");
    expect(p1).toContain("Next page");
    const p2 = await (await get("/rides?page=2", { cookie: viewer.cookie })).text();
    expect(p2.match(/data-testid="ride-card"/g)).toHaveLength(1);
    expect(p2).toContain("Previous page");
  });

  it("a cost cap shows exactly the rides whose seat costs at most that many rupees, in departure order, page by page", async () => {
    // Seats at 19.99, 20, 20.01, 45 and 80 rupees, public and in the viewer's community and in
    // another, over three days: the cap is inclusive to the paisa, and a ride of a community the
    // viewer is not in never shows (ADR 0037 merges one index run per whole rupee).
    const viewer = await signedInUser({ fullName: "Asha Cost" });
    const other = await createUser({ db: db() });
    const mine = await createCommunity({ db: db() }, { createdBy: other.id, name: "Cost Riders" });
    await addMember({ db: db() }, { communityId: mine.id, userId: viewer.id });
    const theirs = await createCommunity({ db: db() }, { createdBy: other.id, name: "Other Riders" });
    const costs = [5997, 6000, 6003, 13500, 24000, 0];
    for (let i = 0; i < 84; i++) {
      await createRide(
        { db: db() },
        {
          driverId: other.id,
          seats: 3,
          tripCostPaise: costs[i % costs.length],
          date: addDays(istDate(), 1 + (i % 3)),
          time: `${String(6 + (i % 12)).padStart(2, "0")}:${i % 2 ? "15" : "45"}`,
          communityId: i % 4 === 1 ? mine.id : i % 4 === 3 ? theirs.id : null,
        },
      );
    }
    const now = Date.now();
    const want = async (maxCost: number, date?: string) =>
      (
        await env.DB.prepare(
          `SELECT id FROM rides WHERE status = 'active' AND departs_at >= ?1 AND driver_id <> ?2 AND trip_cost_paise <= ?3 * 100 * seats
             AND (community_id IS NULL OR community_id = ?4) ${date ? "AND date = ?5" : ""} ORDER BY departs_at, id`,
        )
          .bind(now, viewer.id, maxCost, mine.id, ...(date ? [date] : []))
          .all<{ id: string }>()
      ).results.map((r) => r.id);
    for (const [maxCost, date] of [
      [20, undefined],
      [45, undefined],
      [5, undefined],
      [20, addDays(istDate(), 2)],
    ] as const) {
      const all = await want(maxCost, date);
      if (maxCost !== 5 && !date) expect(all.length, `rides at most ${maxCost} rupees`).toBeGreaterThan(20);
      else expect(all.length, `rides at most ${maxCost} rupees on ${date}`).toBeGreaterThan(0);
      // Each page by its number, and by "Next page" from the one before (its `after` cursor).
      let after = "";
      for (const page of [1, 2, 3]) {
        const f = discoverFiltersSchema.parse({
          maxCost: String(maxCost),
          page: String(page),
          ...(date ? { date } : {}),
        });
        const shown = await discoverRides({ db: db() }, viewer.id, f, now);
        expect(
          shown.rides.map((r) => r.id),
          `at most ${maxCost} rupees, ${date ?? "any day"}, page ${page}`,
        ).toEqual(all.slice((page - 1) * 20, page * 20));
        // A cost cap counts only the pages up to this one ("40+ rides found" on page 2); a page
        // past the last found none.
        expect([shown.found, shown.foundMore]).toEqual([
          all.length > (page - 1) * 20 ? Math.min(page * 20, all.length) : 0,
          all.length > page * 20,
        ]);
        if (page > 1 && after)
          expect(
            (await discoverRides({ db: db() }, viewer.id, { ...f, after }, now)).rides.map((r) => r.id),
            `page ${page} by cursor`,
          ).toEqual(all.slice((page - 1) * 20, page * 20));
        // "Previous page" from this one: the page before, read backwards from its first ride.
        if (page > 1 && shown.prevBefore) {
          const prev = await discoverRides(
            { db: db() },
            viewer.id,
            { ...f, page: page - 1, before: shown.prevBefore },
            now,
          );
          expect(
            prev.rides.map((r) => r.id),
            `page ${page - 1} by its next page's cursor`,
          ).toEqual(all.slice((page - 2) * 20, (page - 1) * 20));
          expect([prev.found, prev.foundMore], `page ${page - 1}'s count`).toEqual([(page - 1) * 20, true]);
          // A stale link whose number says page 7 but whose rides are the first: counted as page 1.
          if (page === 2)
            expect(
              [(await discoverRides({ db: db() }, viewer.id, { ...f, page: 7, before: shown.prevBefore }, now)).found],
              "a stale page number",
            ).toEqual([20]);
        }
        after = shown.nextAfter ?? "";
        expect(Boolean(after)).toBe(shown.hasMore);
      }
    }
  });

  it("a place text shows exactly the rides from or to a matching place that the viewer may see, in departure order, page by page", async () => {
    // "kora" names four places (Koramangala, its I Block and VI Bk, Korati). Rides leave from or
    // go to them, or both (listed once), or neither; public, in the viewer's community, in
    // another; some by a driver the viewer has blocked; seats at 20 and 80 rupees, over three
    // days (ADR 0038 merges one index run per place and end).
    const viewer = await signedInUser({ fullName: "Asha Place" });
    const other = await createUser({ db: db() });
    const blocked = await createUser({ db: db() });
    await env.DB.prepare("INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
      .bind(viewer.id, blocked.id, Date.now())
      .run();
    const mine = await createCommunity({ db: db() }, { createdBy: other.id, name: "Place Riders" });
    await addMember({ db: db() }, { communityId: mine.id, userId: viewer.id });
    const theirs = await createCommunity({ db: db() }, { createdBy: other.id, name: "Other Place Riders" });
    const ends = [
      ["Koramangala", "Manyata Tech Park"],
      ["HSR Layout", "Korati"],
      ["Koramangala I Block", "Koramangala VI Bk"],
      ["HSR Layout", "MG Road"],
      ["Korati", "Koramangala"],
      ["Whitefield ITPL", "Koramangala VI Bk"],
      ["Koramangala VI Bk", "HSR Layout"],
    ];
    for (let i = 0; i < 150; i++) {
      const [fromLocation, toLocation] = ends[i % ends.length];
      await createRide(
        { db: db() },
        {
          driverId: i % 11 === 5 ? blocked.id : other.id,
          fromLocation,
          toLocation,
          seats: 3,
          tripCostPaise: i % 3 === 0 ? 6000 : 24000,
          date: addDays(istDate(), 1 + (i % 3)),
          time: `${String(6 + (i % 12)).padStart(2, "0")}:${i % 2 ? "15" : "45"}`,
          communityId: i % 4 === 1 ? mine.id : i % 4 === 3 ? theirs.id : null,
        },
      );
    }
    const now = Date.now();
    const names = ["Koramangala", "Koramangala I Block", "Koramangala VI Bk", "Korati"];
    const want = async ({ maxCost, date, community }: { maxCost?: number; date?: string; community?: boolean }) =>
      (
        await env.DB.prepare(
          `SELECT id FROM rides WHERE status = 'active' AND departs_at >= ?1 AND driver_id <> ?2 AND driver_id <> ?3
             AND (from_location IN (${names.map((_, i) => `?${5 + i}`).join(", ")}) OR to_location IN (${names.map((_, i) => `?${5 + i}`).join(", ")}))
             AND (${community ? "" : "community_id IS NULL OR "}community_id = ?4)
             ${maxCost ? `AND trip_cost_paise <= ${maxCost} * 100 * seats` : ""} ${date ? `AND date = '${date}'` : ""} ORDER BY departs_at, id`,
        )
          .bind(now, viewer.id, blocked.id, mine.id, ...names)
          .all<{ id: string }>()
      ).results.map((r) => r.id);
    const cases = [
      {},
      { community: true },
      { maxCost: 20 },
      { date: addDays(istDate(), 2) },
      { maxCost: 20, community: true },
    ];
    for (const c of cases) {
      const all = await want(c);
      expect(all.length, JSON.stringify(c)).toBeGreaterThan(c.maxCost || c.date ? 0 : c.community ? 20 : 40);
      let after = "";
      for (const page of [1, 2, 3]) {
        const f = discoverFiltersSchema.parse({
          q: "kora",
          page: String(page),
          ...(c.maxCost ? { maxCost: String(c.maxCost) } : {}),
          ...(c.date ? { date: c.date } : {}),
          ...(c.community ? { community: "1" } : {}),
        });
        const shown = await discoverRides({ db: db() }, viewer.id, f, now);
        expect(
          shown.rides.map((r) => r.id),
          `${JSON.stringify(c)}, page ${page}`,
        ).toEqual(all.slice((page - 1) * 20, page * 20));
        expect(shown.hasMore, `${JSON.stringify(c)}, page ${page}`).toBe(all.length > page * 20);
        // The same page by "Next page" from the one before.
        if (page > 1 && after)
          expect(
            (await discoverRides({ db: db() }, viewer.id, { ...f, after }, now)).rides.map((r) => r.id),
            `${JSON.stringify(c)}, page ${page} by cursor`,
          ).toEqual(all.slice((page - 1) * 20, page * 20));
        if (page > 1 && shown.prevBefore)
          expect(
            (
              await discoverRides({ db: db() }, viewer.id, { ...f, page: page - 1, before: shown.prevBefore }, now)
            ).rides.map((r) => r.id),
            `${JSON.stringify(c)}, page ${page - 1} backwards`,
          ).toEqual(all.slice((page - 2) * 20, (page - 1) * 20));
        after = shown.nextAfter ?? "";
      }
    }
    // A text no place holds finds nothing, and the widest text (40 places) stays within D1's 100 bound parameters.
    expect(
      (await discoverRides({ db: db() }, viewer.id, discoverFiltersSchema.parse({ q: "atlantis" }), now)).rides,
    ).toEqual([]);
    for (const community of [{}, { community: "1" }]) {
      const widest = discoverPageQuery(
        db(),
        viewer.id,
        discoverFiltersSchema.parse({
          q: "a",
          maxCost: "20",
          women: "1",
          date: addDays(istDate(), 2),
          before: `${now + 86_400_000}.zz`,
          ...community,
        }),
      ).toSQL();
      expect(widest.params.length, JSON.stringify(community)).toBeLessThanOrEqual(100);
      await env.DB.prepare(widest.sql)
        .bind(...widest.params)
        .all();
    }
    // "Previous page" with a cursor before every ride (its ride left, or a crafted link): nothing
    // before it, no next page, no previous link; a backwards read that reaches the first ride
    // is page 1 (no previous link), whatever its number says.
    const f2 = discoverFiltersSchema.parse({ q: "kora", page: "3" });
    const stale = await discoverRides({ db: db() }, viewer.id, { ...f2, before: `${now - 60_000}.a` }, now);
    expect([stale.rides.length, stale.hasMore, stale.prevBefore, stale.reachedStart]).toEqual([0, false, null, true]);
    const all = await want({});
    const fromSecond = await discoverRides(
      { db: db() },
      viewer.id,
      {
        ...f2,
        page: 2,
        before: `${(await env.DB.prepare("SELECT departs_at FROM rides WHERE id = ?").bind(all[10]).first<{ departs_at: number }>())!.departs_at}.${all[10]}`,
      },
      now,
    );
    expect(fromSecond.rides.map((r) => r.id)).toEqual(all.slice(0, 10));
    expect([fromSecond.hasMore, fromSecond.prevBefore, fromSecond.reachedStart]).toEqual([true, null, true]);
  });

  it("the discover query reads rides by index, never a SCAN of rides, with 10,000 active rides", async () => {
    const driver = await createUser({ db: db() });
    const values: string[] = [];
    const base = Date.now() + 86_400_000;
    for (let i = 0; i < 10_000; i++) {
      values.push(
        `('r${i}', '${driver.id}', 'HSR Layout', 'Koramangala', '2030-01-01', '08:00', ${base + i * 60_000}, 3, 0, 30000, 'active', 0)`,
      );
    }
    for (let i = 0; i < values.length; i += 500) {
      await env.DB.prepare(
        `INSERT INTO rides (id, driver_id, from_location, to_location, date, time, departs_at, seats, booked_seats, trip_cost_paise, status, created_at) VALUES ${values.slice(i, i + 500).join(",")}`,
      ).run();
    }
    await env.DB.prepare("ANALYZE").run();
    const planOf = async (params: Record<string, string>) => {
      const q = discoverPageQuery(db(), "viewer-x", discoverFiltersSchema.parse(params)).toSQL();
      return (
        await env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
          .bind(...q.params)
          .all<{ detail: string }>()
      ).results.map((r) => r.detail);
    };
    // A place text merges one run of rides_from_idx or rides_to_idx per place and end, in
    // (departs_at, id) order: no sort, and no walk of every upcoming ride (ADR 0038).
    const text = await planOf({ q: "kora", maxCost: "20" });
    for (const end of ["from", "to"])
      expect(
        text.some((d) =>
          new RegExp(
            `SEARCH rides USING INDEX rides_${end}_idx \\(status=\\? AND ${end}_location=\\? AND departs_at>\\?\\)`,
          ).test(d),
        ),
        text.join("\n"),
      ).toBe(true);
    expect(
      text.some((d) => /rides_discover_idx|USE TEMP B-TREE FOR (LAST TERM|RIGHT PART)/.test(d)),
      text.join("\n"),
    ).toBe(false);
    // Without one, the public rides and each of the viewer's communities' rides come in order
    // from rides_community_idx (ADR 0035): no sort reads past the page.
    for (const params of [{}, { date: addDays(istDate(), 3) }, { community: "1" }] as Record<string, string>[]) {
      const details = await planOf(params);
      expect(
        details.some((d) =>
          /SEARCH rides USING INDEX rides_community_idx \(community_id=\? AND status=\? AND departs_at>\?/.test(d),
        ),
        JSON.stringify(params),
      ).toBe(true);
      expect(
        details.some((d) => /USE TEMP B-TREE FOR (LAST TERM|RIGHT PART)/.test(d)),
        JSON.stringify(params),
      ).toBe(false);
    }
    // A cost cap: the public rides come from one run of rides_seat_rupees_idx per whole rupee (ADR 0037).
    const cheap = [await planOf({ maxCost: "20" }), await planOf({ maxCost: "45", date: addDays(istDate(), 3) })];
    for (const details of cheap)
      expect(
        details.some((d) =>
          /SEARCH rides USING INDEX rides_seat_rupees_idx \((community_id=\?|ANY\(community_id\)) AND status=\? AND <expr>=\? AND/.test(
            d,
          ),
        ),
        details.join("\n"),
      ).toBe(true);
    // "Women-only seats": both paths read rides_women_idx, which holds only those rides.
    const women = await planOf({ women: "1" });
    expect(
      women.filter((d) =>
        /SEARCH rides USING INDEX rides_women_idx \((community_id=\?|ANY\(community_id\)) AND status=\? AND departs_at>\?/.test(
          d,
        ),
      ).length,
      women.join("\n"),
    ).toBeGreaterThanOrEqual(2);
    for (const details of [text, await planOf({}), await planOf({ community: "1" }), ...cheap, women])
      expect(details.some((d) => /SCAN rides\b/.test(d))).toBe(false);
  });
});

describe("requesting seats", () => {
  it("books through the form: a pending request, the driver notified in the same batch, then the confirmation page", async () => {
    const { driver, ride } = await driverWithRide({ seats: 3 });
    const rider = await signedInUser({ fullName: "Kavya Nair" });
    const res = await postForm(
      `/rides/${ride.id}/book`,
      { seats: "2", notes: "Near Agara Lake" },
      { cookie: rider.cookie },
    );
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    expect(location).toMatch(/^\/booking-confirmation\/[a-z0-9]+$/);
    expect(toastOf(res)).toMatchObject({
      title: "Ride request submitted!",
      description: "Your request has been sent to the driver. You'll be notified when they respond.",
    });
    const requestId = location.split("/").pop()!;
    expect(await requestRow(requestId)).toEqual({ status: "pending", seats: 2 });
    const [n] = await notificationsFor(driver.id);
    expect(n.type).toBe("ride_request");
    expect(n.data).toEqual({
      ride_id: ride.id,
      request_id: requestId,
      seats: 2,
      from: "HSR Layout",
      to: "Manyata Tech Park",
      date: ride.date,
      time: ride.time,
    });
    const page = await (await get(location, { cookie: rider.cookie })).text();
    expect(page).toContain("Booking Confirmation");
    expect(page).toContain("Waiting for driver confirmation...");
    expect(page).toContain("Near Agara Lake");
    expect(page).toContain("₹100.00 × 2 = ₹200.00");
    expect(page).toMatch(/requested (just now|1 minute ago)/);
    expect(page).toContain('aria-valuenow="25"');
  });

  it("refuses more seats than available, a duplicate live request, an own ride and a past ride", async () => {
    const { driver, ride } = await driverWithRide({ seats: 3, bookedSeats: 1 });
    const rider = await signedInUser();
    const tooMany = await postForm(`/rides/${ride.id}/book`, { seats: "3" }, { cookie: rider.cookie });
    expect(tooMany.status).toBe(409);
    const tooManyHtml = await tooMany.text();
    expect(tooManyHtml).toContain("Not enough seats available");
    expect(tooManyHtml).toContain("Only 2 seats are available for this ride.");
    expect((await postForm(`/rides/${ride.id}/book`, { seats: "1" }, { cookie: rider.cookie })).status).toBe(302);
    const past = await createRide({ db: db() }, { driverId: driver.id, date: addDays(istDate(), -1) });
    const cancelled = await createRide({ db: db() }, { driverId: driver.id, status: "cancelled" });
    const before = await tableCounts();
    const dup = await postForm(`/rides/${ride.id}/book`, { seats: "1" }, { cookie: rider.cookie });
    expect(dup.status).toBe(409);
    expect(await dup.text()).toContain("You already have a pending or accepted request for this ride.");
    const own = await postForm(`/rides/${ride.id}/book`, { seats: "1" }, { cookie: driver.cookie });
    expect(own.status).toBe(403);
    const late = await postForm(`/rides/${past.id}/book`, { seats: "1" }, { cookie: rider.cookie });
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("This ride has already departed.");
    expect((await postForm(`/rides/${cancelled.id}/book`, { seats: "1" }, { cookie: rider.cookie })).status).toBe(409);
    expect(await tableCounts()).toEqual(before);
    const missing = await postForm(`/rides/${ride.id}/book`, {}, { cookie: rider.cookie });
    expect(await missing.text()).toContain("Please select number of seats");
  });

  it("20 concurrent duplicate requests leave one row", async () => {
    const { ride } = await driverWithRide({ seats: 6 });
    const rider = await signedInUser();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => postForm(`/rides/${ride.id}/book`, { seats: "1" }, { cookie: rider.cookie })),
    );
    expect(results.filter((r) => r.status === 302)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(19);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM ride_requests WHERE ride_id = ?")
      .bind(ride.id)
      .first<{ n: number }>();
    expect(n!.n).toBe(1);
    const notes = await env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE type = 'ride_request'").first<{
      n: number;
    }>();
    expect(notes!.n).toBe(1);
  });
});

describe("accepting and rejecting", () => {
  it("only the driver can accept or reject, only while pending; the rider is notified", async () => {
    const { driver, ride } = await driverWithRide({ seats: 3 });
    const rider = await signedInUser();
    const stranger = await signedInUser();
    const req = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, seats: 2 });
    for (const who of [rider, stranger]) {
      expect(
        (await postForm(`/rides/${ride.id}`, { intent: "accept", requestId: req.id }, { cookie: who.cookie })).status,
      ).toBe(403);
      expect(
        (await postForm("/dashboard/rides", { intent: "reject", requestId: req.id }, { cookie: who.cookie })).status,
      ).toBe(403);
    }
    expect(await requestRow(req.id)).toEqual({ status: "pending", seats: 2 });
    const ok = await postForm(
      "/dashboard/rides",
      { intent: "accept", requestId: req.id, redirectTo: "/dashboard/rides?tab=manage" },
      { cookie: driver.cookie },
    );
    expect(ok.headers.get("Location")).toBe("/dashboard/rides?tab=manage");
    expect(toastOf(ok)?.title).toBe("Request accepted successfully!");
    expect(await requestRow(req.id)).toEqual({ status: "accepted", seats: 2 });
    expect((await rideRow(ride.id))!.booked_seats).toBe(2);
    const notes = await notificationsFor(rider.id);
    expect(notes).toEqual([
      {
        type: "ride_update",
        title: "Request accepted",
        data: { ride_id: ride.id, request_id: req.id, status: "accepted" },
      },
    ]);
    // Not pending any more: refused, nothing changes.
    const again = await postForm(
      `/rides/${ride.id}`,
      { intent: "reject", requestId: req.id },
      { cookie: driver.cookie },
    );
    expect(toastOf(again)).toMatchObject({ type: "error", description: "This request is no longer pending." });
    expect(await requestRow(req.id)).toEqual({ status: "accepted", seats: 2 });
    expect(await notificationsFor(rider.id)).toHaveLength(1);

    const other = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: stranger.id, seats: 1 });
    const rej = await postForm(
      `/rides/${ride.id}`,
      { intent: "reject", requestId: other.id },
      { cookie: driver.cookie },
    );
    expect(toastOf(rej)?.title).toBe("Request rejected successfully!");
    expect(await requestRow(other.id)).toEqual({ status: "rejected", seats: 1 });
    expect((await notificationsFor(stranger.id))[0].data).toEqual({
      ride_id: ride.id,
      request_id: other.id,
      status: "rejected",
    });
  });

  it("a request that no longer fits cannot be accepted: clear message, nothing changes", async () => {
    const { driver, ride } = await driverWithRide({ seats: 3 });
    const a = await signedInUser();
    const b = await signedInUser();
    const ra = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: a.id, seats: 2 });
    const rb = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: b.id, seats: 2 });
    await postForm(`/rides/${ride.id}`, { intent: "accept", requestId: ra.id }, { cookie: driver.cookie });
    const before = await tableCounts();
    const res = await postForm(`/rides/${ride.id}`, { intent: "accept", requestId: rb.id }, { cookie: driver.cookie });
    expect(toastOf(res)).toEqual({
      title: "Not enough seats available",
      description: "Only 1 seat is available for this ride.",
      type: "error",
    });
    expect(await requestRow(rb.id)).toEqual({ status: "pending", seats: 2 });
    expect((await rideRow(ride.id))!.booked_seats).toBe(2);
    expect(await tableCounts()).toEqual(before);
  });

  it("Manage Bookings shows Accept disabled, with the seat rule's reason, on a request that no longer fits", async () => {
    const { driver, ride } = await driverWithRide({ seats: 3 });
    const a = await createUser({ db: db() }, { fullName: "Asha Accepted" });
    const b = await createUser({ db: db() }, { fullName: "Bala Toomany" });
    const c = await createUser({ db: db() }, { fullName: "Chitra Fits" });
    const ra = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: a.id, seats: 2 });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: b.id, seats: 2 });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: c.id, seats: 1 });
    await postForm(`/rides/${ride.id}`, { intent: "accept", requestId: ra.id }, { cookie: driver.cookie });
    const html = await (await get("/dashboard/rides?tab=manage&status=pending", { cookie: driver.cookie })).text();
    const cards = html.split('data-testid="request-card"').slice(1);
    const card = (name: string) => cards.find((x) => x.includes(name)) ?? "";
    const tooMany = card("Bala Toomany");
    expect(tooMany).toMatch(/<button type="button" disabled="" aria-describedby="accept-refused-[^"]+"[^>]*>Accept</);
    expect(tooMany).toContain("Can&#x27;t accept: Only 1 seat is available for this ride.");
    expect(tooMany).not.toContain('value="accept"');
    const fits = card("Chitra Fits");
    expect(fits).toContain('value="accept"');
    expect(fits).not.toContain("Can&#x27;t accept");
  });

  it("20 concurrent accepts of 1-seat requests on a 3-seat ride leave exactly 3 accepted (repeated 20 times)", async () => {
    const driver = await signedInUser();
    const riders = await Promise.all(Array.from({ length: 20 }, () => createUser({ db: db() })));
    for (let round = 0; round < 20; round++) {
      const ride = await createRide({ db: db() }, { driverId: driver.id, seats: 3 });
      const reqs = riders.map((r, i) => ({
        id: `q${round}x${i}${ride.id}`,
        rideId: ride.id,
        riderId: r.id,
        seats: 1,
        status: "pending",
        createdAt: Date.now(),
      }));
      await db().batch([
        db().insert(rideRequests).values(reqs.slice(0, 10)),
        db().insert(rideRequests).values(reqs.slice(10)),
      ]);
      const results = await Promise.all(
        reqs.map((q) =>
          postForm(`/rides/${ride.id}`, { intent: "accept", requestId: q.id }, { cookie: driver.cookie }),
        ),
      );
      expect(results.every((r) => r.status === 302)).toBe(true);
      const counts = await env.DB.prepare(
        "SELECT status, count(*) AS n FROM ride_requests WHERE ride_id = ? GROUP BY status ORDER BY status",
      )
        .bind(ride.id)
        .all<{ status: string; n: number }>();
      expect(counts.results).toEqual([
        { status: "accepted", n: 3 },
        { status: "pending", n: 17 },
      ]);
      expect((await rideRow(ride.id))!.booked_seats).toBe(3);
      const notes = await env.DB.prepare(
        "SELECT count(*) AS n FROM notifications WHERE type = 'ride_update' AND json_extract(data, '$.ride_id') = ?",
      )
        .bind(ride.id)
        .first<{ n: number }>();
      expect(notes!.n).toBe(3);
    }
  }, 400_000); // 400 requests; minutes on a loaded 2-core machine
});

describe("cancelling", () => {
  it("the passenger cancels a pending request; others cannot", async () => {
    const { driver, ride } = await driverWithRide();
    const rider = await signedInUser();
    const req = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id });
    expect(
      (await postForm(`/rides/${ride.id}`, { intent: "cancel-request", requestId: req.id }, { cookie: driver.cookie }))
        .status,
    ).toBe(403);
    const res = await postForm(
      `/booking-confirmation/${req.id}`,
      { intent: "cancel-request", requestId: req.id },
      { cookie: rider.cookie },
    );
    expect(toastOf(res)?.title).toBe("Request Cancelled");
    expect(await requestRow(req.id)).toEqual({ status: "cancelled", seats: 1 });
    // A new request is allowed once the old one is cancelled.
    expect((await postForm(`/rides/${ride.id}/book`, { seats: "1" }, { cookie: rider.cookie })).status).toBe(302);
  });

  it("an accepted seat may be cancelled up to 2 hours before departure (seats released, driver notified); later is refused", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const far = await createRide({ db: db() }, { driverId: driver.id, seats: 3 });
    const req = await createRideRequest(
      { db: db() },
      { rideId: far.id, riderId: rider.id, seats: 2, status: "accepted" },
    );
    expect((await rideRow(far.id))!.booked_seats).toBe(2);
    const ok = await postForm(
      `/rides/${far.id}`,
      { intent: "cancel-request", requestId: req.id },
      { cookie: rider.cookie },
    );
    expect(toastOf(ok)?.title).toBe("Request Cancelled");
    expect((await rideRow(far.id))!.booked_seats).toBe(0);
    expect((await notificationsFor(driver.id)).map((n) => n.data.status)).toEqual(["cancelled"]);

    const soon = Date.now() + 90 * 60_000; // departs in 1.5 h
    const near = await createRide(
      { db: db() },
      {
        driverId: driver.id,
        seats: 3,
        date: istDate(soon),
        time: new Date(soon + 5.5 * 3600_000).toISOString().slice(11, 16),
      },
    );
    const late = await createRideRequest(
      { db: db() },
      { rideId: near.id, riderId: rider.id, seats: 1, status: "accepted" },
    );
    const before = await tableCounts();
    const refused = await postForm(
      `/rides/${near.id}`,
      { intent: "cancel-request", requestId: late.id },
      { cookie: rider.cookie },
    );
    expect(toastOf(refused)).toMatchObject({
      type: "error",
      description: "Seats can only be cancelled up to 2 hours before departure.",
    });
    expect(await requestRow(late.id)).toEqual({ status: "accepted", seats: 1 });
    expect((await rideRow(near.id))!.booked_seats).toBe(1);
    expect(await tableCounts()).toEqual(before);
  });

  it("the driver cancels the whole ride: every pending or accepted rider is notified", async () => {
    const { driver, ride } = await driverWithRide({ seats: 4 });
    const [a, b, c] = await Promise.all([signedInUser(), signedInUser(), signedInUser()]);
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: a.id, status: "accepted" });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: b.id });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: c.id, status: "rejected" });
    expect(
      (await postForm(`/rides/${ride.id}`, { intent: "cancel-ride", rideId: ride.id }, { cookie: a.cookie })).status,
    ).toBe(403);
    await postForm(`/rides/${ride.id}`, { intent: "cancel-ride", rideId: ride.id }, { cookie: driver.cookie });
    expect((await rideRow(ride.id))!.status).toBe("cancelled");
    expect((await notificationsFor(a.id))[0]).toMatchObject({
      title: "Ride cancelled",
      data: { ride_id: ride.id, status: "cancelled" },
    });
    expect(await notificationsFor(b.id)).toHaveLength(1);
    expect(await notificationsFor(c.id)).toHaveLength(0);
  });
});

describe("ride detail, booking confirmation and My Rides", () => {
  it("only the requester and the driver can read a request", async () => {
    const { driver, ride } = await driverWithRide();
    const rider = await signedInUser();
    const stranger = await signedInUser();
    const req = await createRideRequest(
      { db: db() },
      { rideId: ride.id, riderId: rider.id, notes: "secret pickup spot" },
    );
    expect((await get(`/booking-confirmation/${req.id}`, { cookie: rider.cookie })).status).toBe(200);
    expect((await get(`/booking-confirmation/${req.id}`, { cookie: driver.cookie })).status).toBe(200);
    const other = await get(`/booking-confirmation/${req.id}`, { cookie: stranger.cookie });
    expect(other.status).toBe(404);
    const html = await other.text();
    expect(html).toContain("Booking not found");
    expect(html).not.toContain("secret pickup spot");
    expect((await get("/booking-confirmation", { cookie: rider.cookie })).headers.get("Location")).toBe(
      "/dashboard/rides?tab=booked",
    );
  });

  it("the ride page shows the driver's requests to the driver only, and Ride Not Found for a missing ride", async () => {
    const { driver, ride } = await driverWithRide();
    const rider = await signedInUser({ fullName: "Rahul Verma" });
    const stranger = await signedInUser();
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, notes: "by the bus stop" });
    const asDriver = await (await get(`/rides/${ride.id}`, { cookie: driver.cookie })).text();
    expect(asDriver).toContain("Rahul Verma");
    expect(asDriver).toContain("by the bus stop");
    expect(asDriver).toContain(">Accept<");
    expect(asDriver).toMatch(/Rating: <span[^>]*>New<\/span>/);
    expect(asDriver).not.toContain("Request to Join");
    const asRider = await (await get(`/rides/${ride.id}`, { cookie: rider.cookie })).text();
    expect(asRider).toContain("Request Pending");
    const asStranger = await (await get(`/rides/${ride.id}`, { cookie: stranger.cookie })).text();
    expect(asStranger).toContain("Request to Join");
    expect(asStranger).not.toContain("Rahul Verma");
    const missing = await get("/rides/nope", { cookie: stranger.cookie });
    expect(missing.status).toBe(404);
    const missingHtml = await missing.text();
    expect(missingHtml).toContain("Ride Not Found");
    expect(missingHtml).toContain('href="/dashboard/my-rides"');
  });

  it("My Rides shows the three tabs, their empty states, filters and search", async () => {
    const user = await signedInUser();
    const empty = await (await get("/dashboard/rides", { cookie: user.cookie })).text();
    expect(empty).toContain("You haven&#x27;t created any rides yet");
    expect(empty).toContain("Create Your First Ride");
    expect(await (await get("/dashboard/my-rides?tab=booked", { cookie: user.cookie })).text()).toContain(
      "Find Rides to Book",
    );
    const manageEmpty = await (await get("/dashboard/rides?tab=manage", { cookie: user.cookie })).text();
    expect(manageEmpty).toContain("No active rides found");
    expect(manageEmpty).toContain("Create a Ride");

    const ride = await createRide(
      { db: db() },
      { driverId: user.id, date: "2031-01-05", time: "15:00", seats: 4, tripCostPaise: 40000 },
    );
    const a = await createUser({ db: db() }, { fullName: "Sneha Kulkarni" });
    const b = await createUser({ db: db() }, { fullName: "Vikram Reddy" });
    const ghost = await createUser({ db: db() }, { onboarded: null });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: a.id, seats: 2, notes: "Two of us" });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: b.id, status: "rejected" });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: ghost.id });
    const manage = await (await get("/dashboard/rides?tab=manage", { cookie: user.cookie })).text();
    expect(manage).toContain("Search by passenger name or location...");
    expect(manage).toContain("Sneha Kulkarni");
    expect(manage).toContain("Jan 5, 2031");
    expect(manage).toContain("₹100.00 × 2 = ₹200.00");
    expect(manage).toContain("Two of us");
    expect(manage).toContain("User data not available for this request");
    for (const label of ["Active Rides", "Pending Requests", "Accepted", "Rejected"]) expect(manage).toContain(label);
    const rejected = await (await get("/dashboard/rides?tab=manage&status=rejected", { cookie: user.cookie })).text();
    expect(rejected).toContain("Vikram Reddy");
    expect(rejected).not.toContain("Sneha Kulkarni");
    const search = await (await get("/dashboard/rides?tab=manage&q=sneha", { cookie: user.cookie })).text();
    expect(search.match(/data-testid="request-card"/g)).toHaveLength(1);
    const nothing = await (await get("/dashboard/rides?tab=manage&status=accepted", { cookie: user.cookie })).text();
    expect(nothing).toContain("No requests found");
    const created = await (await get("/dashboard/rides?tab=created", { cookie: user.cookie })).text();
    expect(created).toContain("0/4 seats booked");
    expect(created).toContain("Manage Bookings");
  });
});

describe("a browser-like journey", () => {
  it("book, accept, see it confirmed", async () => {
    const { driver, ride } = await driverWithRide({ seats: 3 });
    const rider = new Browser();
    const r = await signedInUser();
    rider.cookies.set("lr_session", r.cookie.split("=")[1]);
    const { url } = await rider.follow(await rider.post(`/rides/${ride.id}/book`, { seats: "1" }));
    const requestId = url.split("/").pop()!;
    await postForm("/dashboard/rides", { intent: "accept", requestId }, { cookie: driver.cookie });
    const page = await (await rider.get(url)).text();
    expect(page).toContain("Your ride is confirmed!");
    expect(page).toContain('aria-valuenow="100"');
  });
});

// Finding 9 (issue 19): a ride shared with a community is for that community's approved
// members (and its driver, and riders who already asked for a seat). Everyone else gets
// exactly what a missing ride gives: no listing, 404 on its page (HTML and .data), the
// booking form and booking refused as for a missing ride, nothing saved, nothing changed.
describe("community rides are for the community's members only", () => {
  async function communityRide() {
    const driver = await signedInUser({ fullName: "Deepa Driver" });
    const community = await createCommunity({ db: db() }, { createdBy: driver.id, name: "Closed Circle Residents" });
    const member = await signedInUser({ fullName: "Mala Member" });
    await addMember({ db: db() }, { communityId: community.id, userId: member.id });
    const outsider = await signedInUser({ fullName: "Omar Outsider" });
    const pending = await signedInUser();
    await addMember({ db: db() }, { communityId: community.id, userId: pending.id, status: "pending" });
    const rejected = await signedInUser();
    await addMember({ db: db() }, { communityId: community.id, userId: rejected.id, status: "rejected" });
    const date = addDays(istDate(), 2);
    const ride = await createRide(
      { db: db() },
      {
        driverId: driver.id,
        communityId: community.id,
        fromLocation: "Bagmane Tech Park",
        toLocation: "Electronic City Phase 1",
        date,
        time: "07:40",
        notes: "CIRCLE-ONLY-NOTE",
      },
    );
    return { driver, community, member, outsider, pending, rejected, ride, date };
  }

  it("is not listed to outsiders in Discover, search, place-on-a-day search or the community filter; members see it", async () => {
    const { member, outsider, pending, rejected, date } = await communityRide();
    const pages = [
      "/rides",
      "/rides?q=bagmane",
      `/rides?q=bagmane&date=${date}`,
      `/rides?date=${date}`,
      "/rides?community=1",
    ];
    for (const who of [outsider, pending, rejected]) {
      for (const path of pages) {
        const html = await (await get(path, { cookie: who.cookie })).text();
        expect(html, path).not.toContain("Electronic City Phase 1");
        expect(html, path).toContain("No rides found");
        const data = await (await get(path.replace("/rides", "/rides.data"), { cookie: who.cookie })).text();
        expect(data, `${path} .data`).not.toContain("CIRCLE-ONLY-NOTE");
        expect(data, `${path} .data`).not.toContain("Closed Circle Residents");
      }
    }
    for (const path of pages)
      expect(await (await get(path, { cookie: member.cookie })).text(), path).toContain("Electronic City Phase 1");
  });

  it("its page answers 404 (HTML and .data) to outsiders, like a missing ride; 200 to members, the driver and riders with a request", async () => {
    const { driver, member, outsider, pending, rejected, ride, community } = await communityRide();
    const missing = await get("/rides/no-such-ride", { cookie: outsider.cookie });
    expect(missing.status).toBe(404);
    for (const who of [outsider, pending, rejected]) {
      const res = await get(`/rides/${ride.id}`, { cookie: who.cookie });
      expect(res.status).toBe(404);
      const html = await res.text();
      expect(html).toContain("Ride Not Found");
      for (const secret of ["CIRCLE-ONLY-NOTE", "Deepa Driver", "Closed Circle Residents", "Bagmane Tech Park"])
        expect(html).not.toContain(secret);
      const data = await get(`/rides/${ride.id}.data`, { cookie: who.cookie });
      const body = await data.text();
      for (const secret of ["CIRCLE-ONLY-NOTE", "Deepa Driver", "Closed Circle Residents", driver.id])
        expect(body).not.toContain(secret);
    }
    for (const who of [member, driver])
      expect((await get(`/rides/${ride.id}`, { cookie: who.cookie })).status).toBe(200);
    // A rider who asked for a seat and then left the community keeps seeing the ride they booked.
    const leaver = await signedInUser();
    await addMember({ db: db() }, { communityId: community.id, userId: leaver.id });
    const req = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: leaver.id, status: "accepted" });
    await env.DB.prepare("DELETE FROM community_members WHERE community_id = ? AND user_id = ?")
      .bind(community.id, leaver.id)
      .run();
    expect((await get(`/rides/${ride.id}`, { cookie: leaver.cookie })).status).toBe(200);
    expect((await get(`/booking-confirmation/${req.id}`, { cookie: leaver.cookie })).status).toBe(200);
    // The driver sees their ride even after leaving the community.
    await env.DB.prepare("DELETE FROM community_members WHERE community_id = ? AND user_id = ?")
      .bind(community.id, driver.id)
      .run();
    expect((await get(`/rides/${ride.id}`, { cookie: driver.cookie })).status).toBe(200);
  });

  it("outsiders cannot open its booking form, book it or save it: refused as for a missing ride, nothing changes", async () => {
    const { member, outsider, pending, ride } = await communityRide();
    for (const who of [outsider, pending]) {
      const form = await get(`/rides/${ride.id}/book`, { cookie: who.cookie });
      expect(form.status).toBe(302);
      expect(form.headers.get("Location")).toBe("/rides");
      expect(toastOf(form)?.description).toBe("This ride could not be found.");
      const before = await dbChecksum();
      const book = await postForm(`/rides/${ride.id}/book`, { seats: "1", notes: "let me in" }, { cookie: who.cookie });
      expect(book.status).toBe(302);
      expect(book.headers.get("Location")).toBe("/rides");
      expect(toastOf(book)?.type).toBe("error");
      const save = await postForm("/rides", { intent: "save", rideId: ride.id }, { cookie: who.cookie });
      expect(save.status).toBe(404);
      expect(changedTables(before, await dbChecksum())).toEqual([]);
    }
    await expect(requestSeats({ db: db() }, outsider.id, ride.id, { seats: 1, notes: null })).rejects.toThrow(
      NotFoundError,
    );
    await expect(getRideDetail({ db: db() }, outsider.id, ride.id)).rejects.toThrow(NotFoundError);
    await expect(getRideForBooking({ db: db() }, outsider.id, ride.id)).rejects.toThrow(NotFoundError);
    // A member books and saves it.
    const booked = await postForm(`/rides/${ride.id}/book`, { seats: "1", notes: "" }, { cookie: member.cookie });
    expect(booked.headers.get("Location")).toMatch(/^\/booking-confirmation\//);
    expect((await postForm("/rides", { intent: "save", rideId: ride.id }, { cookie: member.cookie })).status).toBe(302);
    const saved = await env.DB.prepare("SELECT count(*) AS n FROM saved_rides WHERE ride_id = ? AND user_id = ?")
      .bind(ride.id, member.id)
      .first<{ n: number }>();
    expect(saved!.n).toBe(1);
  });
});
