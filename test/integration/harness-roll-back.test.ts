import { count } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createUser } from "../../db/factories";
import { users } from "../../db/schema";
import { db } from "../support/worker";

// The pool rolls each test's storage back through a request to its Node loopback server. That
// server used to close an idle connection after 6 s (Node 20: keepAliveTimeout 5 s plus a 1 s
// buffer). When workerd's thread was busy across that moment (a long test on a loaded machine),
// its pool had not seen the close and sent the roll-back down the closed connection: "Network
// connection lost", and the test's rows leaked into later files. scripts/lib/loopback-keep-alive.mjs
// keeps the server's connections open (ADR 0031). Without it the first test below fails.
describe("isolated storage: a test that keeps workerd busy past 5 s still rolls back", () => {
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
