// After every journey (project "after-journeys"): the whole-database invariants over the
// journeys' server database, demo data and everything both projects wrote included, in one read.
// The mixed-load test checks the same on its own server's database (load.spec.ts).
import { expect, test } from "@playwright/test";
import { brokenInvariants, e2ePersistDir, queryE2eDb } from "../support/d1-local";

test("after the journeys, every database invariant holds over what they wrote", () => {
  expect(brokenInvariants()).toEqual([]);
  // The read covered the journeys' writes: more people and requests than the seeded database has.
  const sql = "SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM ride_requests) AS requests";
  const [now] = queryE2eDb<{ users: number; requests: number }>(sql);
  const [seeded] = queryE2eDb<{ users: number; requests: number }>(sql, { persistTo: `${e2ePersistDir()}-seeded` });
  expect(now.users).toBeGreaterThan(seeded.users);
  expect(now.requests).toBeGreaterThan(seeded.requests);
});
