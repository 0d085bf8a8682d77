// After every journey (project "after-journeys"): the whole-database invariants over the
// journeys' server database, demo data and everything both projects wrote included, in one read.
// The mixed-load test checks the same on its own server's database (load.spec.ts).
import { expect, test } from "@playwright/test";
import { e2ePersistDir, queryE2eDb } from "../support/d1-local";
import { CHECKS, violationCountSql } from "../support/invariant-sql";

test("after the journeys, every database invariant holds over what they wrote", () => {
  const [counts] = queryE2eDb<Record<string, number>>(`SELECT ${CHECKS.map((c, i) => `(${violationCountSql(c.name)}) AS c${i}`).join(", ")}`);
  const broken = CHECKS.flatMap((c, i) => (counts[`c${i}`] === 0 ? [] : [`${c.name}: ${counts[`c${i}`]} rows`]));
  expect(broken).toEqual([]);
  // The read covered the journeys' writes: more people and requests than the seeded database has.
  const sql = "SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM ride_requests) AS requests";
  const [now] = queryE2eDb<{ users: number; requests: number }>(sql);
  const [seeded] = queryE2eDb<{ users: number; requests: number }>(sql, { persistTo: `${e2ePersistDir()}-seeded` });
  expect(now.users).toBeGreaterThan(seeded.users);
  expect(now.requests).toBeGreaterThan(seeded.requests);
});
