import { applyD1Migrations } from "cloudflare:test";
import { env } from "../support/env";
import { afterEach, vi } from "vitest";

// Runs before each test file. applyD1Migrations skips the migrations already applied, so the
// shared-storage runtime (vitest.fuzz.config.ts) migrates its one database once.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// A test that moved the worker's clock (awayFromMinuteBoundary) leaves the real one behind.
afterEach(() => {
  if (vi.isFakeTimers()) vi.useRealTimers();
});
