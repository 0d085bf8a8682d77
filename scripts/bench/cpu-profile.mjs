// CPU time per request for `npm run bench` (issue 17, ADR 0027). Local workerd reports
// cpuTime 0 and enforces no limit, so the worker is profiled through its inspector
// (workerd's own, served by Miniflare: serve.mjs; Chrome DevTools Protocol, Profiler domain): one profile
// per isolate for a page's rounds, split per request (cpu-samples.mjs, splitProfile), and a
// request's CPU time is the sampled time the isolate spent anywhere but
// "(idle)" (JavaScript, "(program)" native work on its behalf, "(garbage collector)").
// Waiting on D1, Durable Objects or the network is idle time, as in production's cpuTime.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import WebSocket from "ws";
import { freePort } from "../lib/server.mjs";
import { bundleWorker, serveWorker } from "./serve.mjs";

import { frameKey, r2, SAMPLING_INTERVAL_US, splitProfile, summarize } from "./cpu-samples.mjs";

export { summarize };

const TIMEOUT_MS = 30_000;

/**
 * A CDP session on worker `name`'s isolate through workerd's inspector at `port`. workerd
 * lists Miniflare's own workers too (its entry worker, the cache): the user worker is
 * "core:user:<name>".
 */
export async function connectInspector(port, name) {
  const targets = await (
    await fetch(`http://127.0.0.1:${port}/json`, { signal: AbortSignal.timeout(TIMEOUT_MS) })
  ).json();
  const target = targets.find((t) => t.id === `core:user:${name}`);
  if (!target) throw new Error(`inspector on port ${port}: no worker ${name} in ${targets.map((t) => t.id)}`);
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  // Every wait has a limit: a stuck inspector fails the CPU pass with a message instead of
  // hanging the bench (a full run once sat in its CPU pass for over 20 minutes).
  await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`inspector on port ${port}: no WebSocket after ${TIMEOUT_MS} ms`)),
      TIMEOUT_MS,
    );
    ws.once("open", () => (clearTimeout(timer), resolve()));
    ws.once("error", (e) => (clearTimeout(timer), reject(e)));
  });
  let next = 0;
  const pending = new Map();
  ws.on("message", (data) => {
    const msg = JSON.parse(data.toString());
    const p = msg.id !== undefined && pending.get(msg.id);
    if (!p) return;
    pending.delete(msg.id);
    if (msg.error) p.reject(new Error(`${p.method}: ${msg.error.message}`));
    else p.resolve(msg.result);
  });
  ws.on("close", () => {
    for (const p of pending.values()) p.reject(new Error(`${p.method}: the inspector closed`));
    pending.clear();
  });
  const send = (method, params = {}) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`${method}: no answer from the inspector in ${TIMEOUT_MS} ms`));
      }, TIMEOUT_MS);
      const done = (f) => (v) => (clearTimeout(timer), f(v));
      pending.set(id, { resolve: done(resolve), reject: done(reject), method });
      ws.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL_US });
  return { send, close: () => ws.close() };
}

/**
 * Runs `request()` n times under one profile. Returns per-request CPU ms and wall ms (as seen
 * by the client) and self time per function summed over all n.
 */
export async function profileRequests(inspector, request, n, { locate } = {}) {
  const [out] = await profileInterleaved([{ inspector, request, locate }], n);
  return out;
}

// Microseconds on the host's monotonic clock, the one workerd's profiles are timed by.
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Several targets ({ inspector, request, locate }) taking turns, one request each a round for
 * `n` rounds, so each sees the same moments of a shared machine and their ratios hold when its
 * speed drifts (issue 40). One profile per isolate for all the rounds, split per request by
 * the moment each was sent (`splitProfile`). One result per target, in order.
 */
export async function profileInterleaved(targets, n) {
  const out = targets.map(() => ({ cpu: [], wall: [], functions: new Map() }));
  const isolates = [...new Set(targets.map((t) => t.inspector))].map((inspector) => ({
    inspector,
    locate: targets.find((t) => t.inspector === inspector && t.locate)?.locate,
    marks: [],
    owners: [],
  }));
  const isolateOf = (t) => isolates.find((i) => i.inspector === t.inspector);
  for (const { inspector } of isolates) await inspector.send("Profiler.start");
  for (let i = 0; i < n; i++)
    for (const [t, target] of targets.entries()) {
      const isolate = isolateOf(target);
      isolate.marks.push(nowUs());
      isolate.owners.push(t);
      const t0 = performance.now();
      await target.request();
      out[t].wall.push(performance.now() - t0);
    }
  for (const { inspector, locate, marks, owners } of isolates) {
    const { profile } = await inspector.send("Profiler.stop");
    const parts = splitProfile(profile, marks, (frame) => frameKey(frame, locate));
    for (const [k, { cpuMs, functions }] of parts.entries()) {
      const own = out[owners[k]];
      own.cpu.push(cpuMs);
      for (const [key, ms] of functions) own.functions.set(key, (own.functions.get(key) ?? 0) + ms);
    }
  }
  return out;
}

/**
 * Maps a position in a bench bundle (serve.mjs) to its source. The profile names the bundle
 * only by its file ("server.js"); wrangler's source map beside it (esbuild) continues into the
 * Remix build's own map when the build has one (`remix vite:build --sourcemapServer`, as the
 * bench builds), down to app/ and node_modules/ files. The Remix build is minified, so without
 * the map a function is only a short name and a line.
 */
// Sources relative to the project, packages by name. drizzle-orm's own maps point one folder
// too high ("node_modules/src/..."), hence the second rule.
const relative = (source) =>
  source
    .replace(`${process.cwd()}/`, "")
    .replace(/^(\.\.\/)+/, "")
    .replace(/^node_modules\/src\//, "drizzle-orm/src/")
    .replace(/^node_modules\//, "");

export async function sourceLocator(bundleDir) {
  let SourceMapConsumer;
  try {
    // Already installed (vite/postcss use it); no dependency of its own for the bench.
    ({ SourceMapConsumer } = await import("source-map-js"));
  } catch {
    return null;
  }
  const maps = new Map();
  const mapFor = (url) => {
    if (!maps.has(url)) {
      const file = join(bundleDir, `${url.split("/").pop()}.map`);
      const consumer = existsSync(file) ? new SourceMapConsumer(JSON.parse(readFileSync(file, "utf8"))) : null;
      maps.set(url, consumer);
    }
    return maps.get(url);
  };
  return (url, line, column) => {
    const pos = mapFor(url)?.originalPositionFor({ line: line + 1, column: Math.max(0, column) });
    if (!pos?.source) return null;
    return { where: `${relative(pos.source)}:${pos.line}`, name: pos.name ?? null };
  };
}

/**
 * The method's check: a calibration worker (scripts/bench/cpu-calibration) with a route that
 * only waits and one that spins. CPU must be near 0 for the first while its wall time is
 * >= the wait, and double when the second spins twice as long.
 */
export async function calibrate({ waitMs = 100, spins = 10_000_000, n = 3 } = {}) {
  const config = "scripts/bench/cpu-calibration/wrangler.toml";
  const server = await serveWorker({
    config,
    name: "calibration",
    bundleDir: await bundleWorker(config, ".cache/bench/calibration"),
    port: await freePort(),
    inspectorPort: await freePort(),
  });
  try {
    const base = server.base;
    const inspector = await connectInspector(server.inspectorPort, server.name);
    try {
      const get = (path) => () => fetch(base + path).then((r) => r.text());
      // Warm-up of both routes: a route's first requests also compile its code, which is CPU
      // (a full run once measured 2.1 ms "waiting" with only the spin route warmed).
      await profileRequests(inspector, get("/spin?n=1000"), 3);
      await profileRequests(inspector, get("/wait?ms=1"), 3);
      const wait = summarize(await profileRequests(inspector, get(`/wait?ms=${waitMs}`), n));
      const wait2 = summarize(await profileRequests(inspector, get(`/wait?ms=${2 * waitMs}`), n));
      const spin = summarize(await profileRequests(inspector, get(`/spin?n=${spins}`), n));
      const spin2 = summarize(await profileRequests(inspector, get(`/spin?n=${2 * spins}`), n));
      // Waiting is no CPU however long it lasts: twice the wait adds almost nothing, and the
      // first is a sliver of its wall time (on a slow machine the first waits still cost ~2 ms
      // of leftover warm-up work, the longer wait after them 0.1 ms, ADR 0027; hence bounds
      // relative to the wait rather than 2 ms). Spinning is CPU in proportion to the work (twice the
      // iterations, twice the CPU), never more than the wall time. A ratio to wall time alone
      // would fail on a loaded machine, where the client also waits for a core.
      const ratio = spin2.cpuP50 / spin.cpuP50;
      const waitingAdds = wait2.cpuP50 - wait.cpuP50;
      const ok =
        wait.wallP50 >= waitMs &&
        wait2.wallP50 >= 2 * waitMs &&
        wait.cpuP50 < 0.05 * waitMs &&
        waitingAdds < 0.02 * waitMs &&
        ratio >= 1.6 &&
        ratio <= 2.4 &&
        spin.cpuP50 <= 1.05 * spin.wallP50 &&
        spin2.cpuP50 <= 1.05 * spin2.wallP50;
      return {
        ok,
        waitMs,
        wait: { cpuP50: wait.cpuP50, wallP50: wait.wallP50 },
        wait2: { cpuP50: wait2.cpuP50, wallP50: wait2.wallP50 },
        spin: { iterations: spins, cpuP50: spin.cpuP50, wallP50: spin.wallP50 },
        spin2: { iterations: 2 * spins, cpuP50: spin2.cpuP50, wallP50: spin2.wallP50 },
        ratio: r2(ratio),
      };
    } finally {
      inspector.close();
    }
  } finally {
    await server.stop();
  }
}
