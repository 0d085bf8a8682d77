// Issue 35, item 1: the scheduled work runs on the local server as `npm start` serves it
// (wrangler dev, started by the same helper), through its HTTP route for each cron of
// wrangler.toml, and does its work in D1. Node-side, no browser. The database is a copy of the
// demo database the e2e server seeded (as in the backup drill), so nothing is migrated here.
// docs/decisions/0040-scheduled-work-locally.md says why the route is wrangler's /__scheduled.
import { expect, test } from "@playwright/test";
import type { ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error plain ESM helper without types
import { cronMatches, readCrons, runScheduled } from "../../scripts/lib/schedule.mjs";
// @ts-expect-error plain ESM helper without types
import { ensureDevVars } from "../../scripts/lib/process.mjs";
import { freePort, startLocalServer, stopGroup, waitFor } from "../../scripts/lib/server.mjs";
import { queryE2eDb, writeE2eDb } from "../support/d1-local";

const HOUR = 3_600_000;
const crons: string[] = readCrons(readFileSync("wrangler.toml", "utf8"));
const FIVE_MINUTES = "*/5 * * * *";
const DAILY_TOP_UP = "30 0 * * *";

test("each cron of wrangler.toml does its work through the local server's scheduled route", async () => {
  test.setTimeout(180_000);
  expect(crons).toEqual([FIVE_MINUTES, DAILY_TOP_UP]);
  const dir = mkdtempSync(join(tmpdir(), "loopride-scheduled-"));
  const persistTo = join(dir, "state");
  let server: ChildProcess | undefined;
  try {
    const seeded = `.wrangler/e2e-${process.env.E2E_PORT}-seeded`;
    expect(existsSync(seeded), `${seeded}: the e2e server's seeded copy (playwright.config.ts starts the server)`).toBe(
      true,
    );
    cpSync(seeded, persistTo, { recursive: true });
    // A commute with none of its days written yet (the top-up writes them), and a pending
    // request on a ride that left an hour ago (the 5-minute run expires it).
    const now = Date.now();
    const departed = new Date(now - HOUR + 5.5 * HOUR).toISOString();
    const driver = "(SELECT user_id FROM user_profiles ORDER BY user_id LIMIT 1)";
    const rider = "(SELECT user_id FROM user_profiles ORDER BY user_id DESC LIMIT 1)";
    writeE2eDb(
      [
        `INSERT INTO commutes (id, driver_id, from_location, to_location, weekdays, time, seats, trip_cost_paise, start_date, status, created_at, updated_at)
         VALUES ('sched-commute', ${driver}, 'HSR Layout', 'Manyata Tech Park', 127, '09:00', 3, 20000, '2000-01-01', 'active', ${now}, ${now})`,
        `INSERT INTO rides (id, driver_id, from_location, to_location, date, time, departs_at, seats, trip_cost_paise, created_at)
         VALUES ('sched-ride', ${driver}, 'HSR Layout', 'Koramangala', '${departed.slice(0, 10)}', '${departed.slice(11, 16)}', ${now - HOUR}, 3, 10000, ${now - 48 * HOUR})`,
        `INSERT INTO ride_requests (id, ride_id, rider_id, seats, status, created_at)
         VALUES ('sched-request', 'sched-ride', ${rider}, 1, 'pending', ${now - 24 * HOUR})`,
      ].join("; "),
      { persistTo },
    );
    const state = () =>
      queryE2eDb<{ days: number; request: string }>(
        `SELECT (SELECT count(*) FROM rides WHERE commute_id = 'sched-commute') AS days,
                (SELECT status FROM ride_requests WHERE id = 'sched-request') AS request`,
        { persistTo },
      )[0];

    const port = await freePort();
    let log = "";
    // The local secrets, as `npm start` makes them (a fresh clone has no .dev.vars).
    await ensureDevVars();
    server = (await startLocalServer({
      port,
      persist: persistTo,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    })) as ChildProcess;
    server.stdout!.on("data", (d) => (log += d));
    server.stderr!.on("data", (d) => (log += d));
    const origin = `http://127.0.0.1:${port}`;
    await waitFor(`${origin}/pricing`, 120_000, { child: server, stderr: () => log.slice(-3000) });

    // A failed run says what the server printed.
    const run = (cron: string) =>
      runScheduled(origin, cron).catch((e: Error) =>
        Promise.reject(new Error(`${e.message}\n${log.slice(-4000)}`, { cause: e })),
      );
    // The daily top-up writes the commute's days and expires nothing.
    await run(DAILY_TOP_UP);
    const afterTopUp = state();
    expect(afterTopUp.days).toBeGreaterThanOrEqual(13);
    expect(afterTopUp.request).toBe("pending");

    // The 5-minute run expires the request of the departed ride.
    await run(FIVE_MINUTES);
    expect(state()).toEqual({ days: afterTopUp.days, request: "expired" });
  } finally {
    if (server) {
      const exited = new Promise((resolve) => server!.once("exit", resolve));
      if (server.exitCode === null && server.signalCode === null) {
        stopGroup(server);
        await exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  }
});

test("npm start's schedule fires each cron in its UTC minute only", () => {
  const at = (iso: string) => new Date(iso);
  expect(cronMatches(FIVE_MINUTES, at("2026-12-03T04:35:00Z"))).toBe(true);
  expect(cronMatches(FIVE_MINUTES, at("2026-12-03T04:36:00Z"))).toBe(false);
  // 00:30 UTC is 06:00 IST: the top-up runs then and at no other minute of the day.
  expect(cronMatches(DAILY_TOP_UP, at("2026-12-03T00:30:00Z"))).toBe(true);
  expect(cronMatches(DAILY_TOP_UP, at("2026-12-03T06:00:00Z"))).toBe(false);
  expect(cronMatches(DAILY_TOP_UP, at("2026-12-03T00:35:00Z"))).toBe(false);
  // Fields the schedule does not use yet still read as Cloudflare reads them (7 is Sunday).
  expect(cronMatches("0 9 * * 1-5", at("2026-12-05T09:00:00Z"))).toBe(false);
  expect(cronMatches("0 9 * * 7", at("2026-12-06T09:00:00Z"))).toBe(true);
  expect(() => cronMatches("61 * * * *", at("2026-12-03T00:00:00Z"))).toThrow();
});
