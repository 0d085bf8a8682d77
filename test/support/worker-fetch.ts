import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../server";

/**
 * Sends a request straight to the worker's fetch handler (server.ts: CSRF check, security
 * headers, the Remix build, real D1 and Durable Objects) and waits for its waitUntil work.
 * Same code path as SELF.fetch minus the test harness's dispatch, whose per-request cost
 * grows with every request made in a test file (cloudflare/workers-sdk#15446): thousands
 * of fuzzing requests through SELF would take many minutes.
 */
export async function workerFetch(request: Request, workerEnv: Env = env): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Parameters<typeof worker.fetch>[0], workerEnv as Parameters<typeof worker.fetch>[1], ctx);
  const body = await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(res.status === 101 || res.status === 204 || res.status === 304 ? null : body, res);
}

/**
 * The same with D1 accounting on (DEBUG_TIMING=1: Server-Timing with queries and rows read).
 * Only the budget tests use it: the accounting re-runs reads and is off everywhere else.
 */
export function debugFetch(url: string, init: RequestInit = {}): Promise<Response> {
  return workerFetch(new Request(url, { redirect: "manual", ...init }), { ...env, DEBUG_TIMING: "1" });
}
