// Issue 17: rows read by the widest searches on a dataset shaped like the bench's worst case
// (ADR 0030): thousands of commutes and rides between a few places, all within a few morning
// hours. The place search on a date, the 10 km +-60 min distance search and the weekday
// commute search each read at most 1,000 rows per page, and return exactly the rides a
// brute-force reading of every row finds, in the same order (page 1 and "More" pages).
import { env } from "../support/env";
import { beforeAll, describe, expect, it } from "vitest";
import { ALL_PLACES } from "~/domain/curated-places";
import { cellOf, cellsAround, cellsWithin, straightLineKm } from "~/domain/places";
import { routeBox, routeCellTimes } from "~/domain/ride-match";
import { NEAR_PAGE_SIZE, WEEKDAY_PAGE_SIZE } from "~/domain/rides";
import { addDays, istDate, istToInstant } from "~/domain/time";
import { createDb } from "~/models/db.server";
import { topUpCommutes } from "~/models/commutes.server";
import { placeByName } from "~/models/places.server";
import { BASE, signedInUser } from "../support/worker";
import { debugFetch } from "../support/worker-fetch";
import { linkHref } from "../support/pages";

const MIGRATION_0010 = Object.values(
  import.meta.glob("../../migrations/0010_places.sql", { query: "?raw", import: "default", eager: true }),
)[0] as string;

type Row = {
  id: string;
  driver_id: string;
  community_id: string | null;
  from_location: string;
  to_location: string;
  date: string;
  departs_at: number;
  seats: number;
  trip_cost_paise: number;
  from_lat: number;
  from_lng: number;
  to_lat: number;
  to_lng: number;
  commute_id: string | null;
  status: string;
};
type Commute = {
  id: string;
  driver_id: string;
  community_id: string | null;
  weekdays: number;
  time: string;
  end_date: string | null;
  status: string;
  from_lat: number;
  from_lng: number;
  to_lat: number;
  to_lng: number;
};

const COMMUTES = 2000;
const RIDES = 1200;
let viewer: { id: string; cookie: string };
let day: string;

/**
 * The bench's worst case (scripts/bench/seed.ts): 2,000 commutes between the 29 curated places
 * at 06:00-10:45 with the bench's weekday sets, their next 14 days from the app's own top-up,
 * and 1,200 one-off rides at the same hours on one day; every tenth in a community the viewer
 * is not in, a few commutes ended. Rows are made in SQLite and placed by migration 0010's
 * mapping, as test/support/city-scale.ts does.
 */
async function seedWorstCase(now: number) {
  const names = ALL_PLACES.map((p) => `'${p.name.replace(/'/g, "''")}'`);
  const place = (expr: string) =>
    `(CASE (${expr}) % ${names.length} ${names.map((p, i) => `WHEN ${i} THEN ${p}`).join(" ")} END)`;
  const seq = (n: number) => `WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${n - 1})`;
  // A quarter-hour slot between 06:00 and 10:45, and a destination other than the origin.
  const time = (expr: string) => `printf('%02d:%02d', 6 + ((${expr}) % 20) / 4, ((${expr}) % 4) * 15)`;
  const tomorrow = addDays(istDate(now), 1);
  await env.DB.batch(
    [
      `${seq(200)} INSERT INTO users (id, email, phone, created_at) SELECT 'sd' || n, 'sd' || n || '@example.test', NULL, ${now} FROM seq`,
      `INSERT INTO communities (id, name, type, location, description, created_by, member_count, created_at) VALUES ('sc0', 'Closed circle', 'workplace', 'Bengaluru', 'Not the viewer''s', 'sd0', 0, ${now})`,
      // Its drivers are its members: the top-up adds days only for a driver in good standing (issue 34).
      `${seq(200)} INSERT INTO community_members (id, community_id, user_id, status, role, requested_at) SELECT 'sdm' || n, 'sc0', 'sd' || n, 'approved', 'member', ${now} FROM seq`,
      `${seq(COMMUTES)} INSERT INTO commutes (id, driver_id, community_id, from_location, to_location, weekdays, time, seats, trip_cost_paise, start_date, end_date, status, created_at, updated_at)
         SELECT 'sk' || n, 'sd' || (n % 200), CASE WHEN n % 10 = 3 THEN 'sc0' END, ${place("n * 7 + n / 29")}, ${place("n * 7 + n / 29 + 1 + n % 27")},
                CASE n % 5 WHEN 0 THEN 62 WHEN 1 THEN 62 WHEN 2 THEN 14 WHEN 3 THEN 42 ELSE 127 END, ${time("n * 13")}, 3, 20000 + (n % 20) * 1000,
                '${tomorrow}', CASE WHEN n % 20 = 7 THEN '${tomorrow}' END, CASE WHEN n % 40 = 11 THEN 'ended' ELSE 'active' END, ${now}, ${now} FROM seq`,
      `${seq(RIDES)} INSERT INTO rides (id, driver_id, community_id, from_location, to_location, date, time, departs_at, seats, booked_seats, trip_cost_paise, distance_km, notes, vehicle_type, status, created_at)
         SELECT 'sr' || n, 'sd' || (n % 200), CASE WHEN n % 10 = 5 THEN 'sc0' END, ${place("n * 11 + n / 29")}, ${place("n * 11 + n / 29 + 1 + n % 27")},
                '${addDays(tomorrow, 1)}', t, ${istToInstant(addDays(tomorrow, 1), "00:00")} + (CAST(substr(t, 1, 2) AS INTEGER) * 60 + CAST(substr(t, 4, 2) AS INTEGER)) * 60000,
                1 + n % 4, 0, 3000 + (n % 30) * 500, 12, 'Ride ' || n, 'petrol', 'active', ${now}
           FROM (SELECT n, ${time("n * 17")} AS t FROM seq)`,
      ...MIGRATION_0010.split("--> statement-breakpoint")
        .filter((st) => /UPDATE `rides`/.test(st))
        .flatMap((st) => [st, st.replaceAll("`rides`", "`commutes`")]),
    ].map((s) => env.DB.prepare(s)),
  );
  await topUpCommutes({ db: createDb(env.DB) }, now);
  // The one-off rides keep their routes' cells, as a published ride does (ADR 0049): the corridor
  // index then holds a row for each cell a route passes, as on the bench city, where every ride
  // crossing Whitefield's 10 km circle was read once a cell (5,993 rows a page).
  const oneOff = await all<Row>("SELECT * FROM rides WHERE id LIKE 'sr%'");
  await env.DB.batch(
    oneOff.map((r) => {
      const route = [
        { lat: r.from_lat, lng: r.from_lng },
        { lat: r.to_lat, lng: r.to_lng },
      ];
      const box = routeBox(route);
      return env.DB.prepare(
        "UPDATE rides SET route_cells = ?, route_south = ?, route_north = ?, route_west = ?, route_east = ? WHERE id = ?",
      ).bind(
        JSON.stringify(routeCellTimes(route, cellsWithin)),
        box.routeSouth,
        box.routeNorth,
        box.routeWest,
        box.routeEast,
        r.id,
      );
    }),
  );
}

const rowsRead = (res: Response) => Number(/rows_read=(\d+)/.exec(res.headers.get("Server-Timing") ?? "")?.[1] ?? NaN);

/** The ride cards' ids on a Discover page, in order. */
async function page(path: string, cookie = viewer.cookie) {
  const res = await debugFetch(`${BASE}${path}`, { headers: { Cookie: cookie } });
  expect(res.status, path).toBe(200);
  const html = await res.text();
  const ids = [...new Set([...html.matchAll(/href="\/rides\/([a-z0-9]+)"/g)].map((m) => m[1]))].filter(
    (id) => id !== "create",
  );
  return { ids, rows: rowsRead(res), html };
}

const all = async <T>(sql: string) => (await env.DB.prepare(sql).all<T>()).results;
// Every row a search could want, read whole (a test may scan; pages may not).
type Who = { id: string; communities: string[]; blocked: string[]; communityOnly?: boolean };
const visibleTo = (
  r: { driver_id: string; community_id: string | null },
  who: Who = { id: viewer.id, communities: [], blocked: [] },
) =>
  r.driver_id !== who.id &&
  !who.blocked.includes(r.driver_id) &&
  (r.community_id === null ? !who.communityOnly : who.communities.includes(r.community_id));
const score = (
  r: Row,
  at: number,
  from: { lat: number; lng: number },
  to: { lat: number; lng: number },
  radiusKm: number,
  windowMin: number,
) => {
  const p = straightLineKm(from, { lat: r.from_lat, lng: r.from_lng });
  const d = straightLineKm(to, { lat: r.to_lat, lng: r.to_lng });
  if (p > radiusKm || d > radiusKm || Math.abs(r.departs_at - at) > windowMin * 60_000) return null;
  return (p + d) * 12 + Math.abs(Math.round((r.departs_at - at) / 60_000));
};
const best = (scored: { r: Row; s: number | null }[]) =>
  scored
    .filter((x): x is { r: Row; s: number } => x.s !== null)
    .sort((a, b) => a.s - b.s || a.r.departs_at - b.r.departs_at || a.r.id.localeCompare(b.r.id))
    .map((x) => x.r.id);

const MON_FRI = 0b0111110;
/** Every commute's next open Monday-Friday occurrence, ranked around 08:30 ±60 min, 10 km, by brute force. */
async function weekdayMatches() {
  const now = Date.now();
  const today = istDate(now);
  const commutes = await all<Commute>("SELECT * FROM commutes");
  const occurrences = await all<Row>(
    `SELECT * FROM rides WHERE commute_id IS NOT NULL AND status = 'active' AND date >= '${today}' ORDER BY date`,
  );
  return (from: { lat: number; lng: number }, to: { lat: number; lng: number }, who?: Who) =>
    best(
      commutes
        .filter(
          (c) =>
            c.status === "active" &&
            visibleTo(c, who) &&
            (c.weekdays & MON_FRI) !== 0 &&
            c.time >= "07:30" &&
            c.time <= "09:30" &&
            (c.end_date === null || c.end_date >= today),
        )
        .map((c) =>
          occurrences.find(
            (r) =>
              r.commute_id === c.id &&
              r.departs_at >= now &&
              (MON_FRI >> new Date(`${r.date}T00:00:00Z`).getUTCDay()) & 1,
          ),
        )
        .filter((r): r is Row => r !== undefined)
        .map((r) => ({ r, s: score(r, istToInstant(r.date, "08:30"), from, to, 10, 60) })),
    );
}

beforeAll(async () => {
  viewer = await signedInUser({ fullName: "Searching Rider" });
  const now = Date.now();
  await seedWorstCase(now);
  day = addDays(istDate(now), 2);
}, 120_000);

describe("the widest searches on a bench-shaped dataset (issue 17)", () => {
  const hsr = () => placeByName("HSR Layout")!;
  const whitefield = () => placeByName("Whitefield ITPL")!;

  it("is as dense as the bench's worst case: hundreds of rides in the window on one day", async () => {
    const [n] = await all<{ n: number }>(
      `SELECT count(*) AS n FROM rides WHERE status = 'active' AND date = '${day}' AND time BETWEEN '07:30' AND '09:30'`,
    );
    expect(n.n).toBeGreaterThan(800);
    const [c] = await all<{ n: number }>("SELECT count(*) AS n FROM rides WHERE commute_id IS NOT NULL");
    expect(c.n).toBeGreaterThan(10_000);
  });

  it("10 km and +-60 min on a date: at most 1,000 rows, the brute-force ranking in order, page by page", async () => {
    const at = istToInstant(day, "08:30");
    const rides = await all<Row>(`SELECT * FROM rides WHERE status = 'active' AND date = '${day}'`);
    const expected = best(
      rides.filter((r) => visibleTo(r)).map((r) => ({ r, s: score(r, at, hsr(), whitefield(), 10, 60) })),
    );
    // Fewer matches than the 200 candidates a search ranks, so the whole ranking is comparable.
    expect(expected.length).toBeGreaterThan(20);
    expect(expected.length).toBeLessThan(200);
    for (const [from, to, want] of [
      ["HSR+Layout", "Whitefield+ITPL", expected],
      [
        "Whitefield+ITPL",
        "HSR+Layout",
        best(rides.filter((r) => visibleTo(r)).map((r) => ({ r, s: score(r, at, whitefield(), hsr(), 10, 60) }))),
      ],
    ] as const) {
      const got = await page(`/rides?from=${from}&to=${to}&date=${day}&time=08:30&radius=10&window=60`);
      console.log(`date search ${from} -> ${to}: ${want.length} matches, rows_read=${got.rows}`);
      expect(got.rows, `${from} -> ${to} rows read`).toBeLessThanOrEqual(1000);
      expect(got.ids, `${from} -> ${to}`).toEqual(want.slice(0, NEAR_PAGE_SIZE));
      // The next page ranks on from where this one stopped, through the page's own link (a
      // plain link: no JavaScript needed) that keeps the search.
      // "+": the candidates now include rides that might match along their route (issue 36), so
      // the 200 ranked may not be all there are.
      // A wide search reads only the rides with the lowest score bounds (ADR 0049, "the widest
      // date search"): it counts the matches among them, with "+" when it left some unread.
      const found = /(\d+)(\+?) rides? found/.exec(got.html);
      expect(found, "rides found").not.toBeNull();
      if (found![2]) expect(Number(found![1])).toBeLessThanOrEqual(want.length);
      else expect(Number(found![1])).toBe(want.length);
      // A full page of results stays within the HTML budget (issue 17: 60 KB).
      expect(new TextEncoder().encode(got.html).length, "HTML bytes").toBeLessThanOrEqual(60 * 1024);
      const href = linkHref(got.html, "next-page");
      expect(href, "Next page link").toBe(
        `/rides?from=${from}&to=${to}&date=${day}&time=08%3A30&radius=10&window=60&page=2`,
      );
      const next = await page(href!);
      expect(next.ids, `${from} -> ${to} page 2`).toEqual(want.slice(NEAR_PAGE_SIZE, 2 * NEAR_PAGE_SIZE));
      console.log(`page 2 rows_read=${next.rows}`);
      expect(next.rows, `${from} -> ${to} page 2 rows read`).toBeLessThanOrEqual(1000);
      // Issue 40: page 2 reads 2.5 pages' more candidates than page 1 (a bound with the
      // largest detour any driver allows), where it read three times as many (about 160
      // rows more here; on the bench city 1,180 rows, over the budget).
      expect(next.rows - got.rows, `${from} -> ${to} page 2 over page 1`).toBeLessThanOrEqual(100);
    }
  });

  it("10 km and +-60 min on weekdays: at most 1,000 rows, each commute by its next open weekday, ranked as brute force ranks them", async () => {
    const expected = await weekdayMatches();
    const want = expected(placeByName("HSR Layout")!, placeByName("Whitefield ITPL")!);
    expect(want.length).toBeGreaterThan(20);
    expect(want.length).toBeLessThan(200);
    const weekdays = ["mon", "tue", "wed", "thu", "fri"].map((d) => `weekdays=${d}`).join("&");
    for (const [from, to, ids] of [
      ["HSR+Layout", "Whitefield+ITPL", want],
      ["Whitefield+ITPL", "HSR+Layout", expected(whitefield(), hsr())],
    ] as const) {
      const got = await page(`/rides?from=${from}&to=${to}&time=08:30&radius=10&window=60&mode=weekdays&${weekdays}`);
      console.log(`weekday search ${from} -> ${to}: ${ids.length} matches, rows_read=${got.rows}`);
      expect(got.rows, `${from} -> ${to} rows read`).toBeLessThanOrEqual(1000);
      expect(got.ids, `${from} -> ${to}`).toEqual(ids.slice(0, WEEKDAY_PAGE_SIZE));
      // The bench's budget is 60,000 bytes (scripts/bench/run.mjs), not 60 KiB (issue 40).
      const bytes = new TextEncoder().encode(got.html).length;
      console.log(`weekday search ${from} -> ${to}: ${bytes} bytes of HTML`);
      expect(bytes, "HTML bytes").toBeLessThanOrEqual(60_000);
      const next = await page(
        `/rides?from=${from}&to=${to}&time=08:30&radius=10&window=60&mode=weekdays&${weekdays}&page=2`,
      );
      expect(next.ids, `${from} -> ${to} page 2`).toEqual(ids.slice(WEEKDAY_PAGE_SIZE, 2 * WEEKDAY_PAGE_SIZE));
      // Issue 40: the commutes ending in the circle, ranked by their score bound from an index
      // alone, then only the best few read, where 160 were read in the corridor's order (about
      // 850 rows here; on the bench city 1,212, over the budget).
      console.log(`weekday search ${from} -> ${to}: page 2 rows_read=${next.rows}`);
      for (const [n, rows] of [
        [1, got.rows],
        [2, next.rows],
      ])
        expect(rows, `${from} -> ${to} page ${n} rows read`).toBeLessThanOrEqual(700);
    }
  });

  it("a place on a date with a cost limit: at most 1,000 rows a page, page 1 and the next in departure order", async () => {
    const start = istToInstant(day, "00:00");
    const rides = await all<Row>(
      `SELECT * FROM rides WHERE status = 'active' AND departs_at >= ${start} AND departs_at < ${istToInstant(addDays(day, 1), "00:00")}`,
    );
    const expected = rides
      .filter(
        (r) =>
          visibleTo(r) &&
          [r.from_location, r.to_location].some((n) => n.toLowerCase().includes("koramangala")) &&
          r.trip_cost_paise <= 3000 * r.seats,
      )
      .sort((a, b) => a.departs_at - b.departs_at || (a.id < b.id ? -1 : 1))
      .map((r) => r.id);
    expect(expected.length).toBeGreaterThan(20);
    const first = await page(`/rides?q=Koramangala&maxCost=30&date=${day}`);
    const second = await page(`/rides?q=Koramangala&maxCost=30&date=${day}&page=2`);
    console.log(`place search: ${expected.length} matches, rows_read=${first.rows} and ${second.rows}`);
    expect(first.rows).toBeLessThanOrEqual(1000);
    expect(second.rows).toBeLessThanOrEqual(1000);
    expect(first.ids).toEqual(expected.slice(0, 20));
    expect(second.ids).toEqual(expected.slice(20, 40));
  });
});

describe("cellsWithin: the cells a search circle reaches (issue 17)", () => {
  it("holds the cell of every point within the radius, and fewer cells than the bounding square", () => {
    // A fixed pseudo-random walk (no Math.random: a failure must reproduce).
    let seed = 17;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const KM_PER_DEG = (Math.PI * 6371) / 180;
    for (const centre of [
      placeByName("HSR Layout")!,
      placeByName("Whitefield ITPL")!,
      placeByName("Anekal")!,
      { lat: 12.96, lng: 77.6 },
    ]) {
      for (const km of [0.5, 2, 5, 10]) {
        const cells = new Set(cellsWithin(centre.lat, centre.lng, km));
        expect(cells.size).toBeLessThanOrEqual(cellsAround(centre.lat, centre.lng, km).length);
        if (km === 10) expect(cells.size).toBeLessThan(cellsAround(centre.lat, centre.lng, km).length);
        let inside = 0;
        for (let i = 0; i < 4000; i++) {
          // Points in the bounding box, many near the circle's edge.
          const edge = i % 2 === 0;
          const r = edge ? km * (0.97 + 0.03 * rand()) : km * rand();
          const bearing = 2 * Math.PI * rand();
          const p = {
            lat: centre.lat + (r / KM_PER_DEG) * Math.cos(bearing),
            lng: centre.lng + (r / (KM_PER_DEG * Math.cos((centre.lat * Math.PI) / 180))) * Math.sin(bearing),
          };
          if (straightLineKm(centre, p) > km) continue;
          inside++;
          expect(
            cells.has(cellOf(p.lat, p.lng)),
            `${JSON.stringify(p)} within ${km} km of ${JSON.stringify(centre)}`,
          ).toBe(true);
        }
        expect(inside).toBeGreaterThan(3000);
      }
    }
  });
});

describe("who the widest searches show (issue 17: commutes are narrowed before their days are read)", () => {
  it("a member sees their community's commutes and rides (and with 'Community rides only' nothing else), never their own nor a blocked driver's", async () => {
    const member = await signedInUser({ fullName: "Member Rider" });
    const now = Date.now();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO community_members (id, community_id, user_id, status, role, requested_at) VALUES ('srm', 'sc0', ?, 'approved', 'member', ?)",
      ).bind(member.id, now),
      env.DB.prepare("INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES (?, 'sd13', ?)").bind(
        member.id,
        now,
      ),
      // The member's own commute, right on the search.
      env.DB.prepare(
        `INSERT INTO commutes (id, driver_id, community_id, from_location, to_location, weekdays, time, seats, trip_cost_paise, start_date, status, created_at, updated_at)
         VALUES ('skm', ?, NULL, 'HSR Layout', 'Whitefield ITPL', 62, '08:30', 3, 30000, ?, 'active', ?, ?)`,
      ).bind(member.id, addDays(istDate(now), 1), now, now),
      // One-off rides on the search: in the community (one by the blocked driver) and public.
      env.DB.prepare(
        `INSERT INTO rides (id, driver_id, community_id, from_location, to_location, date, time, departs_at, seats, booked_seats, trip_cost_paise, distance_km, notes, vehicle_type, status, created_at)
         VALUES ('srx1', 'sd14', 'sc0', 'HSR Layout', 'Whitefield ITPL', ?1, '08:15', ?2, 3, 0, 30000, 12, 'x', 'petrol', 'active', ?3),
                ('srx2', 'sd13', 'sc0', 'HSR Layout', 'Whitefield ITPL', ?1, '08:15', ?2, 3, 0, 30000, 12, 'x', 'petrol', 'active', ?3),
                ('srx3', 'sd13', NULL, 'HSR Layout', 'Whitefield ITPL', ?1, '08:15', ?2, 3, 0, 30000, 12, 'x', 'petrol', 'active', ?3)`,
      ).bind(day, istToInstant(day, "08:15"), now),
      ...MIGRATION_0010.split("--> statement-breakpoint")
        .filter((st) => /UPDATE `rides`/.test(st))
        .flatMap((st) => [st, st.replaceAll("`rides`", "`commutes`")])
        .map((st) => env.DB.prepare(st)),
    ]);
    await topUpCommutes({ db: createDb(env.DB) }, now);
    const who: Who = { id: member.id, communities: ["sc0"], blocked: ["sd13"] };
    const [hsr, whitefield] = [placeByName("HSR Layout")!, placeByName("Whitefield ITPL")!];
    const expected = await weekdayMatches();
    const weekdays = ["mon", "tue", "wed", "thu", "fri"].map((d) => `weekdays=${d}`).join("&");
    const path = `/rides?from=HSR+Layout&to=Whitefield+ITPL&time=08:30&radius=10&window=60&mode=weekdays&${weekdays}`;

    const everyone = expected(hsr, whitefield, who);
    const got = await page(path, member.cookie);
    expect(got.ids).toEqual(everyone.slice(0, WEEKDAY_PAGE_SIZE));
    expect(got.rows).toBeLessThanOrEqual(1000);
    const mine = await all<{ id: string }>("SELECT id FROM rides WHERE commute_id = 'skm'");
    expect(mine.length).toBeGreaterThan(0);
    expect(got.ids.some((id) => mine.some((m) => m.id === id))).toBe(false);

    const communityOnly = expected(hsr, whitefield, { ...who, communityOnly: true });
    const rows = await all<Row>(
      `SELECT * FROM rides WHERE id IN (${communityOnly.map((id) => `'${id}'`).join(", ") || "''"})`,
    );
    expect(communityOnly.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.community_id === "sc0" && r.driver_id !== "sd13")).toBe(true);
    expect((await page(`${path}&community=1`, member.cookie)).ids).toEqual(communityOnly.slice(0, WEEKDAY_PAGE_SIZE));
    // The blocked driver drives some of these commutes: the brute force would show them otherwise.
    expect(expected(hsr, whitefield, { ...who, blocked: [] }).length).toBeGreaterThan(everyone.length);

    // The same rule on a date.
    const at = istToInstant(day, "08:30");
    const onDay = await all<Row>(`SELECT * FROM rides WHERE status = 'active' AND date = '${day}'`);
    for (const communityOnlyDate of [false, true]) {
      const want = best(
        onDay
          .filter((r) => visibleTo(r, { ...who, communityOnly: communityOnlyDate }))
          .map((r) => ({ r, s: score(r, at, hsr, whitefield, 10, 60) })),
      );
      const dated = await page(
        `/rides?from=HSR+Layout&to=Whitefield+ITPL&date=${day}&time=08:30&radius=10&window=60${communityOnlyDate ? "&community=1" : ""}`,
        member.cookie,
      );
      expect(dated.ids, `community only: ${communityOnlyDate}`).toEqual(want.slice(0, NEAR_PAGE_SIZE));
      expect(dated.ids).toContain("srx1");
      expect(dated.ids).not.toContain("srx2");
      expect(dated.ids).not.toContain("srx3");
    }
  });
});
