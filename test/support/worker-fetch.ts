import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../server";

/**
 * Sends a request straight to the worker's fetch handler (server.ts: CSRF check, security
 * headers, the Remix build, real D1 and Durable Objects) and waits for its waitUntil work.
 * Same code path as SELF.fetch minus the test harness's dispatch, whose per-request cost
 * grows with every request made in a test file (cloudflare/workers-sdk#15446): thousands
 * of fuzzing requests through SELF would take many minutes.
 */
export async function workerFetch(request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(request as Parameters<typeof worker.fetch>[0], env as Parameters<typeof worker.fetch>[1], ctx);
  const body = await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return new Response(res.status === 101 || res.status === 204 || res.status === 304 ? null : body, res);
}
