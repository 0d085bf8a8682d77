import { env as workerEnv } from "cloudflare:test";

/** The tests' bindings (test/env.d.ts), as vitest.config.ts sets them. */
export const env = workerEnv as unknown as TestEnv;
