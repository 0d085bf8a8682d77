import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import type { AppEnv } from "../../app/utils/env.server";
import { BASE } from "../support/worker";
import { workerFetch } from "../support/worker-fetch";

// Issue 39: the worker checks its environment once, at its entry (server.ts, checkedEnv).
// A deploy has no LOOPRIDE_STAGE; these envs drop it to act as one.
const production = (): AppEnv => ({
  ...env,
  LOOPRIDE_STAGE: undefined,
  DEV_MAILBOX: undefined,
  DEBUG_TIMING: undefined,
  MAIL_TRANSPORT: undefined,
  RESEND_API_KEY: "re_test_key_not_used",
  MAIL_FROM: "LoopRide <rides@example.test>",
  APP_ORIGIN: "https://loopride.example.test",
});

const home = (workerEnv: AppEnv) => workerFetch(new Request(`${BASE}/healthz`), workerEnv);

describe("the checked environment", () => {
  it("a production env with every secret serves requests", async () => {
    const res = await home(production());
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("ok");
    // Unset switches stay off: no D1 accounting without DEBUG_TIMING.
    expect(res.headers.get("Server-Timing") ?? "").not.toMatch(/queries=/);
  });

  for (const name of ["SESSION_SECRET", "PASSWORD_PEPPER", "RESEND_API_KEY", "OPERATOR_EMAILS"] as const) {
    it(`a production env without ${name} answers its first request with the variable's name, and no value`, async () => {
      const workerEnv = { ...production(), [name]: undefined };
      const res = await home(workerEnv);
      expect(res.status).toBe(500);
      const body = await res.text();
      expect(body).toContain(name);
      for (const secret of [env.SESSION_SECRET!, env.PASSWORD_PEPPER!, "re_test_key_not_used"])
        expect(body).not.toContain(secret);
      // Checked once per env object: every later request fails the same way.
      expect((await home(workerEnv)).status).toBe(500);
    });
  }

  it("local runs and tests keep working without a Resend key or APP_ORIGIN", async () => {
    const { APP_ORIGIN: _origin, ...local } = env;
    const res = await home({ ...local, RESEND_API_KEY: undefined } as unknown as AppEnv);
    expect(res.status).toBe(200);
  });

  it("an invalid value is refused at the start with its name, in every stage", async () => {
    for (const [name, value] of [
      ["AUTH_RATE_LIMIT_PER_MINUTE", "ten"],
      ["DEBUG_TIMING", "yes"],
      ["MAIL_TRANSPORT", "smtp"],
      ["VAPID_SUBJECT", "test@loopride.invalid"],
      ["APP_ORIGIN", "loopride.example"],
      ["OPERATOR_EMAILS", "ops@loopride.in,not-an-address"],
    ] as const) {
      const res = await home({ ...env, [name]: value });
      expect(res.status, name).toBe(500);
      const body = await res.text();
      expect(body).toContain(name);
      expect(body).not.toContain(value);
    }
  });

  it("half a key pair is refused: Google sign-in and Web Push need all their parts", async () => {
    const google = await home({ ...env, GOOGLE_CLIENT_SECRET: undefined });
    expect(await google.text()).toContain("GOOGLE_CLIENT_SECRET");
    const push = await home({ ...env, VAPID_PRIVATE_KEY: undefined });
    expect(await push.text()).toContain("VAPID_PRIVATE_KEY");
  });

  it("the development mailbox is refused in production", async () => {
    const res = await home({ ...production(), DEV_MAILBOX: "1" });
    expect(res.status).toBe(500);
    expect(await res.text()).toContain("DEV_MAILBOX");
  });
});
