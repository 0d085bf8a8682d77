import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser } from "../../db/factories";
import { users } from "../../db/schema";
import { db } from "../support/worker";

// The old pool rolled each test's storage back through a request to its Node loopback server,
// which closed idle connections after 6 s (Node 20: keepAliveTimeout 5 s plus a 1 s buffer);
// when workerd's thread was busy across that moment the roll-back went down the closed
// connection: "Network connection lost" (ADR 0031). Since vitest-pool-workers 0.13 the per-test
// roll-back is ours (test/setup/roll-back-each-test.ts): a D1 batch inside workerd, with no
// loopback request (ADR 0043). These tests keep that scenario; without the roll-back the second
// fails.
describe("per-test roll-back: a test that keeps workerd busy past 6 s is still rolled back", () => {
  let before = -1;

  it("writes a user while workerd idles 4 s and then computes for 3.5 s, across the server's 6 s", async () => {
    [{ n: before }] = await db().select({ n: count() }).from(users);
    await createUser({ db: db() }, { fullName: "Busy Test" });
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    // Synchronous on purpose: workerd's thread cannot run its idle-connection timer meanwhile.
    const started = Date.now();
    while (Date.now() - started < 3_500) {
      /* spin */
    }
    const [{ n }] = await db().select({ n: count() }).from(users);
    expect(n).toBe(before + 1);
  });

  it("finds the database as it was before that test", async () => {
    const [{ n }] = await db().select({ n: count() }).from(users);
    expect(n).toBe(before);
  });
});
