import { applyD1Migrations, env } from "cloudflare:test";
import { afterEach, vi } from "vitest";

// Runs before each test file; with isolated storage every test starts from this state.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// A test that moved the worker's clock (awayFromMinuteBoundary) leaves the real one behind.
afterEach(() => {
  if (vi.isFakeTimers()) vi.useRealTimers();
});
