// Reads the e2e server's local D1 from the Node side (Playwright specs), through
// wrangler's own CLI against the persist directory scripts/e2e-server.mjs uses.
import { execFileSync } from "node:child_process";
import { CHECKS, violationCountSql } from "./invariant-sql";

/** The state directory of the e2e server on `port` (scripts/e2e-server.mjs). */
export function e2ePersistDir(port = process.env.E2E_PORT): string {
  if (!port) throw new Error("E2E_PORT is not set (playwright.config.ts sets it)");
  return `.wrangler/e2e-${port}`;
}

/**
 * Runs one read-only SQL statement and returns its rows: by default on the journeys' server
 * database, or on the database in `persistTo` (the load test's server, the seeded copy).
 */
export function queryE2eDb<T = Record<string, unknown>>(sql: string, { persistTo = e2ePersistDir() } = {}): T[] {
  const out = execFileSync(
    "node_modules/.bin/wrangler",
    ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--json", "--command", sql],
    {
      encoding: "utf8",
      env: { ...process.env, CI: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const parsed = JSON.parse(out) as Array<{ results: T[] }>;
  return parsed.flatMap((r) => r.results);
}

/**
 * Every whole-database invariant (invariant-sql.ts) checked in one read; returns the broken ones
 * with their count of offending rows (empty when all hold).
 */
export function brokenInvariants(options: { persistTo?: string } = {}): string[] {
  const [counts] = queryE2eDb<Record<string, number>>(
    `SELECT ${CHECKS.map((c, i) => `(${violationCountSql(c.name)}) AS c${i}`).join(", ")}`,
    options,
  );
  return CHECKS.flatMap((c, i) => (counts[`c${i}`] === 0 ? [] : [`${c.name}: ${counts[`c${i}`]} rows`]));
}

/** Runs SQL that writes (a journey's set-up that the UI would need dozens of sign-ups for). */
export function writeE2eDb(sql: string, options: { persistTo?: string } = {}): void {
  queryE2eDb(sql, options);
}
