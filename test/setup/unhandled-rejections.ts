import { afterEach } from "vitest";

// What counts as an unhandled rejection is Node's rule: a promise still rejected without a
// handler once the microtasks have run. workerd reports a rejection as soon as it happens, so
// `return somethingAsync()` from an async function whose callee has already thrown (Remix's
// thrown redirects and 400s) is reported although the caller handles it one microtask later;
// Vitest 4 counted those as errors. Vitest stays quiet when another listener is registered,
// so this one keeps the rejections, forgets those handled later, and fails the test for any
// that is still unhandled when it ends.
type Pending = { promise: Promise<unknown>; reason: unknown };
const pending: Pending[] = [];

process.on("unhandledRejection", (reason: unknown, promise: Promise<unknown>) => {
  pending.push({ promise, reason });
});
globalThis.addEventListener("rejectionhandled", (event: PromiseRejectionEvent) => {
  const i = pending.findIndex((p) => p.promise === event.promise);
  if (i >= 0) pending.splice(i, 1);
});

/** The rejections still unhandled after the microtasks and one task have run. */
export async function stillUnhandled(): Promise<unknown[]> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return pending.map((p) => p.reason);
}

afterEach(async () => {
  const reasons = await stillUnhandled();
  pending.length = 0;
  if (reasons.length) {
    const shown = reasons.map((r) => (r instanceof Error ? r.stack : (JSON.stringify(r) ?? String(r))));
    throw new Error(`unhandled rejection(s) during this test:\n${shown.join("\n")}`);
  }
});
