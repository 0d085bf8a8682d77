import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../server";
import { env } from "./env";

// Moving the clock of the scheduled work in integration tests: the worker's own scheduled
// handler for a cron, and the test-only paths (/__test/daily-top-up, /__test/five-minute-run;
// ADR 0045) that journeys use to run that work as of a later time.

type WorkerEnv = Parameters<typeof worker.fetch>[1];

/**
 * A production deploy's bindings over the test ones: no stage marker, its secrets set. The
 * test-only paths must not answer there (the catch-all page refuses the POST).
 */
export const PRODUCTION_ENV: Record<string, unknown> = {
  LOOPRIDE_STAGE: undefined,
  DEV_MAILBOX: undefined,
  SESSION_SECRET: "s".repeat(32),
  PASSWORD_PEPPER: "p".repeat(32),
  APP_ORIGIN: "http://localhost",
  MAIL_TRANSPORT: "sink",
};

/** The worker's scheduled handler for `cron`, as the Cron Trigger calls it at `time`. */
export async function runScheduled(cron: string, time = Date.now()) {
  const ec = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron, scheduledTime: time }), env, ec);
  await waitOnExecutionContext(ec);
}

/** POSTs a test-only clock path (`/__test/…?…`) to the worker, its bindings changed by `over`. */
export async function postTestClock(pathAndQuery: string, over: Record<string, unknown> = {}) {
  const ec = createExecutionContext();
  const res = await worker.fetch(
    new Request(`http://localhost${pathAndQuery}`, { method: "POST" }) as Parameters<typeof worker.fetch>[0],
    { ...env, ...over } as WorkerEnv,
    ec,
  );
  await waitOnExecutionContext(ec);
  return res;
}
