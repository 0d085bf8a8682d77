// Issue 34, finding 9: rate_limits kept plain e-mail addresses, phone numbers and IP addresses
// in its keys forever (account deletion did not touch them). Keys on personal identifiers are
// now HMAC-SHA-256 under SESSION_SECRET, and the daily scheduled run prunes ended windows.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import worker from "../../server";
import { COMMUTE_TOP_UP_CRON } from "~/models/commutes.server";
import { accountLimitKey, hitRateLimit, identifierLimitKey, MAX_WINDOW_MS } from "~/models/rate-limits.server";
import { awayFromMinuteBoundary, db, postForm, signedInUser } from "../support/worker";

const keys = async () =>
  (await env.DB.prepare("SELECT key FROM rate_limits ORDER BY key").all<{ key: string }>()).results.map((r) => r.key);

describe("rate-limit keys", () => {
  it("sign-in, sign-up and public-form limits store no e-mail, phone number or IP address, only keyed hashes", async () => {
    awayFromMinuteBoundary(20);
    const user = await signedInUser({
      email: "kavya.nair@example.test",
      password: "right-password-1",
      pepper: "test-pepper",
    });
    const ip = "203.0.113.77";
    const from = { headers: { "CF-Connecting-IP": ip } };
    const failed = await postForm("/login", { identifier: user.email!, password: "wrong-password-1" }, from);
    expect(failed.status).toBe(400);
    await postForm(
      "/signup",
      { fullName: "Ravi Kumar", identifier: "+91 98450 12345", password: "monsoon-ride-42" },
      from,
    );
    await postForm("/forgot-password", { email: "someone.else@example.test" }, from);

    const stored = await keys();
    // Every limit was counted: the per-address ones and the sign-in and sign-up identifiers.
    for (const bucket of [
      "signin",
      "signup",
      "forgot-password",
      "signin-fail-account",
      "signin-fail-pair",
      "signup-identifier",
    ]) {
      expect(
        stored.filter((k) => k.startsWith(`${bucket}:`)),
        bucket,
      ).toHaveLength(1);
    }
    for (const k of stored) {
      expect(k).toMatch(/^[a-z-]+:[0-9a-f]{64}$/);
      for (const personal of [ip, "kavya.nair", "someone.else", "9845012345"]) expect(k).not.toContain(personal);
    }
    // The same identifier makes the same key (the limit still counts), another makes another.
    const account = await identifierLimitKey(env, "signin-fail-account", `email:${user.email}`);
    expect(stored).toContain(account);
    expect(await identifierLimitKey(env, "signin-fail-account", "email:other@example.test")).not.toBe(account);
    // Parts cannot be shifted between identifiers to collide.
    expect(await identifierLimitKey(env, "b", "a:b", "c")).not.toBe(await identifierLimitKey(env, "b", "a", "b:c"));
  });

  it("the daily scheduled run prunes ended windows and keeps live ones; no limit may use a longer window", async () => {
    const now = Date.now();
    const old = accountLimitKey("ride-inquiry", "old-user");
    const live = accountLimitKey("ride-inquiry", "live-user");
    await hitRateLimit({ db: db() }, old, 10, MAX_WINDOW_MS, now - 3 * MAX_WINDOW_MS);
    await hitRateLimit({ db: db() }, live, 10, MAX_WINDOW_MS, now);
    const minute = accountLimitKey("reset-account", "live-user");
    await hitRateLimit({ db: db() }, minute, 10, 60_000, now);
    const run = async (cron: string) => {
      const ec = createExecutionContext();
      await worker.scheduled(createScheduledController({ cron, scheduledTime: now }), env, ec);
      await waitOnExecutionContext(ec);
    };
    await run(COMMUTE_TOP_UP_CRON);
    const left = await keys();
    expect(left).not.toContain(old);
    expect(left).toEqual(expect.arrayContaining([live, minute]));
    // A window longer than the pruning horizon would be deleted while still counting.
    await expect(hitRateLimit({ db: db() }, live, 10, 2 * MAX_WINDOW_MS, now)).rejects.toThrow(/outside/);
  });
});
