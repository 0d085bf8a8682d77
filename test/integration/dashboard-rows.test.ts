// Issue 40: the dashboard reads at most 1,000 rows however long a person's history is. It read
// every ride a driver ever drove and every seat ever taken on them for Co-Passengers (1,094
// rows for the bench's busy driver); the count is now kept by the database (ADR 0064), so
// rides older than the dashboard's 8 weeks add no row to the page.
import { env } from "../support/env";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE, signedInUser } from "../support/worker";
import { debugFetch } from "../support/worker-fetch";

const DAY = 86_400_000;
const RIDERS = 60;

function rowsRead(res: Response) {
  const m = /d1;(?:dur=[\d.]+;)?desc="([^"]*)"/.exec(res.headers.get("Server-Timing") ?? "");
  expect(m, "Server-Timing d1 entry").not.toBeNull();
  const stats = Object.fromEntries(m![1].split(" ").map((kv) => kv.split("="))) as Record<string, string>;
  return { rows: Number(stats.rows_read), queries: Number(stats.queries) };
}

const seq = (n: number) => `WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${n - 1})`;

/**
 * `count` completed rides of `driverId` from `daysAgo` back, one a day, each with three accepted
 * riders of the pool (seats booked to match), ids prefixed by `tag`.
 */
async function history(driverId: string, tag: string, count: number, daysAgo: number, now: number) {
  const t = `${now - daysAgo * DAY} - n * ${DAY}`;
  await env.DB.batch([
    env.DB.prepare(
      `${seq(count)} INSERT INTO rides (id, driver_id, from_location, to_location, date, time, departs_at, seats, booked_seats, trip_cost_paise, status, created_at, completed_at)
       SELECT '${tag}' || n, ?1, 'HSR Layout', 'Whitefield ITPL', strftime('%Y-%m-%d', (${t}) / 1000 + 19800, 'unixepoch'),
              strftime('%H:%M', (${t}) / 1000 + 19800, 'unixepoch'), ${t}, 4, 3, 40000, 'completed', ${t} - ${DAY}, ${t} + 3600000 FROM seq`,
    ).bind(driverId),
    env.DB.prepare(
      `${seq(count * 3)} INSERT INTO ride_requests (id, ride_id, rider_id, seats, status, created_at, decided_at)
       SELECT '${tag}q' || n, '${tag}' || (n / 3), 'hist-rider-' || ((n * 7 + n / 3) % ${RIDERS}), 1, 'accepted', ${now - daysAgo * DAY - 400 * DAY}, ${now - daysAgo * DAY - 400 * DAY} FROM seq`,
    ),
  ]);
}

let driver: Awaited<ReturnType<typeof signedInUser>>;
let now: number;
const visit = () => debugFetch(`${BASE}/dashboard`, { headers: { Cookie: driver.cookie } });

beforeAll(async () => {
  now = Date.now();
  driver = await signedInUser({ fullName: "Long History Driver" });
  await env.DB.prepare(
    `${seq(RIDERS)} INSERT INTO users (id, email, created_at) SELECT 'hist-rider-' || n, 'hist' || n || '@example.test', ${now - 800 * DAY} FROM seq`,
  ).run();
  // Eight weeks of daily rides, and 150 more before them.
  await history(driver.id, "hist-recent-", 56, 1, now);
  await history(driver.id, "hist-old-", 150, 60, now);
  // Upcoming rides with pending requests (the badge's count).
  await env.DB.batch([
    env.DB.prepare(
      `${seq(30)} INSERT INTO rides (id, driver_id, from_location, to_location, date, time, departs_at, seats, booked_seats, trip_cost_paise, status, created_at)
       SELECT 'hist-next-' || n, ?1, 'HSR Layout', 'Whitefield ITPL', strftime('%Y-%m-%d', t / 1000 + 19800, 'unixepoch'),
              strftime('%H:%M', t / 1000 + 19800, 'unixepoch'), t, 4, 0, 40000, 'active', ${now} FROM (SELECT n, ${now} + 3600000 + n * ${DAY / 2} AS t FROM seq)`,
    ).bind(driver.id),
    env.DB.prepare(
      `${seq(120)} INSERT INTO ride_requests (id, ride_id, rider_id, seats, status, created_at)
       SELECT 'hist-nextq-' || n, 'hist-next-' || (n / 4), 'hist-rider-' || (n % ${RIDERS}), 1, 'pending', ${now} FROM seq`,
    ),
  ]);
}, 120_000);

describe("the dashboard of a driver with a long history", () => {
  it("reads at most 1,000 rows in 2 round trips and shows every co-passenger of all time", async () => {
    const res = await visit();
    expect(res.status).toBe(200);
    const { rows, queries } = rowsRead(res);
    expect(queries).toBeLessThanOrEqual(2);
    expect(rows).toBeLessThanOrEqual(1000);
    const html = await res.text();
    expect(Number(/data-testid="stat-co-passengers">(\d+)</.exec(html)?.[1])).toBe(RIDERS);
  });

  it("reads exactly as many rows when 300 more rides lie before the dashboard's 8 weeks", async () => {
    const before = rowsRead(await visit()).rows;
    await history(driver.id, "hist-older-", 300, 300, now);
    const res = await visit();
    expect(rowsRead(res).rows).toBe(before);
    // Two hundred more riders' worth of history is still the same sixty people.
    expect(Number(/data-testid="stat-co-passengers">(\d+)</.exec(await res.text())?.[1])).toBe(RIDERS);
  });
});
