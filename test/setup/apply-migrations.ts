import { applyD1Migrations, env } from "cloudflare:test";
import { afterEach, vi } from "vitest";
import worker from "../../server";

// Runs before each test file; with isolated storage every test starts from this state.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);

// One worker module for the whole run: the pool's runner no longer resets the module cache after
// each file (patches/@cloudflare+vitest-pool-workers+*.patch, ADR 0032), which spared the unit
// stage re-evaluating the worker and its 1.2 MB Remix build for every file (about 2 s a file).
// The check fails every file after the first if that patch is lost.
const run = globalThis as { __loopRideWorker?: unknown };
if (run.__loopRideWorker !== undefined && run.__loopRideWorker !== worker) {
  throw new Error(
    "The worker module was evaluated again for this test file: the module cache was reset between files. Is patches/@cloudflare+vitest-pool-workers+*.patch applied (npm ci runs patch-package)?",
  );
}
run.__loopRideWorker = worker;

// A test that moved the worker's clock (awayFromMinuteBoundary) leaves the real one behind.
afterEach(() => {
  if (vi.isFakeTimers()) vi.useRealTimers();
});
