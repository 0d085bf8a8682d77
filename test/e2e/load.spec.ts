// Issue 9, item 8: 60 s of mixed traffic (browse, offer rides, request seats, accept,
// message) at concurrency 32 on loopback, through the same module `npm run bench`
// uses. Runs once (project "load"), beside the journeys, against a server of its own (the same
// worker, a copy of the seeded database: scripts/e2e-server.mjs), with 32 users of its own made
// through the sign-up form. Afterwards the database invariants must hold on its database.
import { expect, test } from "@playwright/test";
import { mixedLoad, signUpAndOnboard, type Client } from "../../scripts/bench/mixed-load.mjs";
import { brokenInvariants, e2ePersistDir, queryE2eDb } from "../support/d1-local";

const USERS = 32;
const DURATION_MS = 60_000;
// The load server's database.
const db = { persistTo: e2ePersistDir(process.env.E2E_LOAD_PORT) };

test("60 s of mixed load at concurrency 32: zero errors, invariants hold", async ({ baseURL }) => {
  test.setTimeout(180_000);
  const run = Date.now().toString(36);
  const signedUp: Array<{ client: Client; email: string; driver: boolean }> = [];
  // Sign up in small groups: each sign-up hashes a password (deliberately slow).
  for (let i = 0; i < USERS; i += 8) {
    const group = await Promise.all(
      Array.from({ length: Math.min(8, USERS - i) }, async (_, k) => {
        const n = i + k;
        const driver = n % 2 === 0;
        const email = `load-${run}-${n}@example.com`;
        const client = await signUpAndOnboard(baseURL!, {
          fullName: `Load Tester ${n}`,
          email,
          password: "green-commute-2026",
          phone: `8${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}`,
          car: driver ? "petrol" : null,
        });
        return { client, email, driver };
      }),
    );
    signedUp.push(...group);
  }
  const ids = new Map(
    queryE2eDb<{ id: string; email: string }>(`SELECT id, email FROM users WHERE email LIKE 'load-${run}-%'`, db).map(
      (r) => [r.email, r.id],
    ),
  );
  const users = signedUp.map((u) => ({ client: u.client, id: ids.get(u.email)!, driver: u.driver }));
  expect(users.every((u) => u.id)).toBe(true);

  const result = await mixedLoad({ users, durationMs: DURATION_MS });
  console.log(
    `load: ${result.requests} requests, ${result.requestsPerSecond} req/s, ${result.retriedGets} GETs retried on a stale connection, by action ${JSON.stringify(result.byAction)}`,
  );

  expect(result.errorSamples).toEqual([]);
  expect(result.errors).toBe(0);
  // The load really did each kind of write, not just page views.
  const ok = (action: string) =>
    Object.entries(result.byAction[action]?.statuses ?? {})
      .filter(([s]) => s === "302")
      .reduce((n, [, c]) => n + c, 0);
  expect(ok("create-ride")).toBeGreaterThanOrEqual(USERS / 2);
  expect(ok("request-seat")).toBeGreaterThan(0);
  expect(ok("accept")).toBeGreaterThan(0);
  expect(ok("message")).toBeGreaterThan(0);

  // Every invariant over the whole database (demo data and the load's writes, no seat
  // overbooked, no duplicate live request, member counts right, ...), in one read.
  expect(brokenInvariants(db)).toEqual([]);
  // The load's accepted seats are in the database, on the load's own rides.
  const [check] = queryE2eDb<{ accepted: number }>(
    `SELECT count(*) AS accepted FROM ride_requests q JOIN rides r ON r.id = q.ride_id JOIN users d ON d.id = r.driver_id
       WHERE q.status = 'accepted' AND d.email LIKE 'load-${run}-%'`,
    db,
  );
  expect(check.accepted).toBeGreaterThan(0);
});
