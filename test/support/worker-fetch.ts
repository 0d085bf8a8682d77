import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "./env";
import worker from "../../server";
import type { AppEnv } from "../../app/utils/env.server";

/**
 * Sends a request straight to the worker's fetch handler (server.ts: CSRF check, security
 * headers, the Remix build, real D1 and Durable Objects) and waits for its waitUntil work.
 * Same code path as SELF.fetch minus the test harness's dispatch, whose per-request cost
 * grows with every request made in a test file (cloudflare/workers-sdk#15446): thousands
 * of fuzzing requests through SELF would take many minutes.
 */
export async function workerFetch(request: Request, workerEnv: AppEnv = env): Promise<Response> {
  const ctx = createExecutionContext();
  // Remix's single fetch arms a ~5 s timer on every answer and clears it only when the
  // request is aborted. In production the request's own context ends and drops it; here every
  // request shares the test file's context, and a fuzzing file's 14,000 requests reached
  // workerd's cap of 10,000 active timers (QuotaExceededError). Aborting the request once its
  // answer and waitUntil work are done clears the timer, as the end of a real request would.
  const done = new AbortController();
  const res = await worker.fetch(
    new Request(request, { signal: done.signal }) as Parameters<typeof worker.fetch>[0],
    workerEnv as Parameters<typeof worker.fetch>[1],
    ctx,
  );
  const body = await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  done.abort();
  return new Response(res.status === 101 || res.status === 204 || res.status === 304 ? null : body, res);
}

/**
 * The same with D1 accounting on (DEBUG_TIMING=1: Server-Timing with queries and rows read).
 * Only the budget tests use it: the accounting re-runs reads and is off everywhere else.
 */
export function debugFetch(url: string, init: RequestInit = {}): Promise<Response> {
  return workerFetch(new Request(url, { redirect: "manual", ...init }), { ...env, DEBUG_TIMING: "1" });
}

/**
 * A drop-in for SELF.fetch(url, init) on the direct path: follows redirects (GET, same
 * headers) unless `redirect: "manual"`, as fetch does.
 */
export async function selfFetch(url: string, init: RequestInit = {}): Promise<Response> {
  let res = await workerFetch(new Request(url, { ...init, redirect: "manual" }));
  let here = url;
  for (
    let hops = 0;
    init.redirect !== "manual" && res.status >= 300 && res.status < 400 && res.headers.get("Location") && hops < 10;
    hops++
  ) {
    here = new URL(res.headers.get("Location")!, here).toString();
    const { body: _body, method: _method, ...rest } = init;
    res = await workerFetch(new Request(here, { ...rest, redirect: "manual" }));
  }
  return res;
}
