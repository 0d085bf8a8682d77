// The city-scale benchmark: builds, serves the built worker in Miniflare (serve.mjs, ADR 0060)
// against each bench dataset (.bench/state/<size>, made by `npm run bench:seed`) on a free
// loopback port, signs in as the busy user through the real /login form and measures
// with autocannon. Writes bench/results/latest.json and latest.md and prints PASS/FAIL
// per budget. Every server it starts is stopped, even on failure.
// CPU time per page comes from a profile through workerd's inspector (cpu-profile.mjs,
// ADR 0027), after the load passes and beside the bench's peer (peer.mjs, ADR 0060): the
// stock Remix stack's floor and the template-string limit. `--cpu-only` measures just that,
// on the large dataset.
// `--rows-only` measures just the D1 round trips and rows read of each page on both datasets
// and which statements read more on the large one (bench/results/rows-latest.md).
//   node scripts/bench/run.mjs [--quick] [--no-build] [--cpu-only] [--rows-only] [--pages=/a,/b]
//     [--top=N]
import autocannon from "autocannon";
import { randomUUID } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import WebSocket from "ws";
import { run } from "../lib/process.mjs";
import { initialJsByRoute, initialJsForPath } from "../lib/initial-js.mjs";
import { freePort, waitFor } from "../lib/server.mjs";
import { BENCH_PASSWORD, BENCH_PEPPER, BENCH_SESSION_SECRET, benchDir } from "./config.mjs";
import { mixedLoad, signIn } from "./mixed-load.mjs";
import { rowsGrowthByStatement, rowsGrowthTable, STATEMENT_ROWS_LOG } from "./rows-diff.mjs";
import { calibrate, connectInspector, profileInterleaved, sourceLocator, summarize } from "./cpu-profile.mjs";
import { pagesFor, serverTiming } from "./pages.mjs";
import { verdictTable, writeResults } from "./report.mjs";
import { buildPeer, PEER_PAGES, servePeer } from "./peer.mjs";
import { bundleWorker, serveWorker } from "./serve.mjs";

const args = process.argv.slice(2);
const QUICK = args.includes("--quick");
const DURATION = QUICK ? 2 : 10; // seconds per autocannon run
const MIXED_SECONDS = QUICK ? 10 : 60;
const MESSAGES = QUICK ? 40 : 200;
const SOCKETS = 1000;
const CPU_ONLY = args.includes("--cpu-only");
const ROWS_ONLY = args.includes("--rows-only");
// Profiled requests per page: 100, so that p99 is not simply the slowest one (it is the second
// slowest), which one profile per isolate for all rounds makes affordable (ADR 0060).
const CPU_REQUESTS = QUICK ? 20 : 100;
// `--pages=/dashboard,/rides`: the CPU pass on those paths only (a before/after of one change).
const ONLY_PAGES = args
  .find((a) => a.startsWith("--pages="))
  ?.slice("--pages=".length)
  .split(",");
// `--top=15`: more of each page's functions by self time (finding the app's own work).
const TOP = Number(args.find((a) => a.startsWith("--top="))?.slice("--top=".length) ?? 5);

const BUDGET = {
  // CPU against the peer (issue 40): LoopRide ÷ the stock Remix stack's floor, ÷ the limit.
  cpuToFloor: 0.8,
  cpuToLimit: 5,
  cpuP99ToP50: 2,
  peerHtmlBytes: [45_000, 59_000],
  cpuPassSeconds: 180,
  wallToFloor: 3,
  p50Ms: 10,
  growth: 1.3,
  queries: 2,
  rowsRead: 1000,
  htmlBytes: 60_000,
  initialJsBytes: 130_000,
  deliveryP95Ms: 50,
  broadcastMs: 1000,
  mixedErrors: 0,
};

const servers = new Set();
function stopServer(server) {
  servers.delete(server);
  return server.stop();
}
// Miniflare ends its workerd when this process exits, however it exits; a failed step still
// stops the servers it started before the next one starts.
async function stopAll() {
  await Promise.allSettled([...servers].map(stopServer));
}
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(130));

// The bundles served (serve.mjs), made once a run after the build.
const bundles = { loopride: null, peer: null };

// D1 accounting (DEBUG_TIMING=1) re-runs each non-batched read to learn its rows read, so
// counts come from one server and latencies from another with instrumentation off.
async function startServer(size, { debug = false } = {}) {
  // `statements`: Server-Timing as with 1, plus a log line per request with each statement's rows.
  const bindings = {
    LOOPRIDE_STAGE: "development",
    SESSION_SECRET: BENCH_SESSION_SECRET,
    PASSWORD_PEPPER: BENCH_PEPPER,
    DEBUG_TIMING: debug ? "statements" : "0",
    AUTH_RATE_LIMIT_PER_MINUTE: "100000",
  };
  // The worker's own output, kept for diagnosing any 5xx.
  mkdirSync(".bench/logs", { recursive: true });
  const logFile = createWriteStream(`.bench/logs/worker-${size}${debug ? "-statements" : ""}.log`);
  // Each request's statements and their rows (DEBUG_TIMING=statements), newest last.
  const statementRows = [];
  const server = await serveWorker({
    config: "wrangler.toml",
    name: "loopride",
    bundleDir: bundles.loopride,
    port: await freePort(),
    inspectorPort: await freePort(),
    persist: benchDir(size),
    bindings,
    onStdout: (line) => {
      logFile.write(`${line}\n`);
      const at = line.indexOf(`${STATEMENT_ROWS_LOG} `);
      if (at >= 0) statementRows.push(JSON.parse(line.slice(at + STATEMENT_ROWS_LOG.length + 1)));
    },
    onStderr: (line) => logFile.write(`${line}\n`),
  });
  servers.add(server);
  await waitFor(`${server.base}/healthz`, 90_000);
  return { server, base: server.base, statementRows };
}

async function startPeer() {
  const server = await servePeer(bundles.peer);
  servers.add(server);
  return server;
}

function cannon(url, { cookie, connections, duration }) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers: cookie ? { cookie } : {}, timeout: 30 }, (err, result) =>
      err ? reject(err) : resolve(result),
    );
  });
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const round = (x, d = 1) =>
  x === null || x === undefined || Number.isNaN(x) ? null : Math.round(x * 10 ** d) / 10 ** d;

/** D1 queries and rows read per page (Server-Timing) and each statement's rows (the log), from a server with DEBUG_TIMING=statements. */
async function d1Counts(size, manifest) {
  const { server, base, statementRows } = await startServer(size, { debug: true });
  // The statements of the newest request for `path` logged after index `from` (the log line
  // may trail the response by a moment).
  const statementsOf = async (path, from) => {
    for (let waited = 0; waited < 5000; waited += 50) {
      const hit = statementRows.slice(from).findLast((r) => r.path === path);
      if (hit) return hit.statements;
      await new Promise((r) => setTimeout(r, 50));
    }
    return null;
  };
  try {
    const busy = await signIn(base, manifest.busy.email, BENCH_PASSWORD);
    const out = {};
    for (const page of pagesFor(manifest)) {
      const headers = page.anonymous ? {} : { Cookie: busy.cookieHeader() };
      // The first visit may write (opening a chat marks it read); the figures kept are the
      // steady state every later request sees, with the first visit's beside them.
      const first = await fetch(base + page.path, { headers, redirect: "manual" });
      await first.text();
      const logged = statementRows.length;
      const res = await fetch(base + page.path, { headers, redirect: "manual" });
      await res.text();
      const statements = page.anonymous ? [] : await statementsOf(page.path, logged);
      // Where the time goes (DEBUG_TIMING's own re-reads included, so an upper bound on D1):
      // the median over 15 requests of the time spent waiting on D1 and of the whole request.
      const d1Ms = [];
      const totalMs = [];
      for (let i = 0; i < 15; i++) {
        const r = await fetch(base + page.path, { headers, redirect: "manual" });
        await r.text();
        const st = r.headers.get("Server-Timing") ?? "";
        d1Ms.push(Number(/d1;dur=([\d.]+)/.exec(st)?.[1] ?? NaN));
        totalMs.push(Number(/total;dur=([\d.]+)/.exec(st)?.[1] ?? NaN));
      }
      const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
      out[page.path] = {
        first: serverTiming(first.headers),
        steady: serverTiming(res.headers),
        statements,
        d1Ms: median(d1Ms),
        totalMs: median(totalMs),
      };
    }
    // Issue 14: publishing a ride matches it against the saved searches. The first publish
    // alerts the matching ones; the second (same day) finds them already alerted. The counts
    // include the live fan-out to each alerted person (waitUntil) that ran before the answer.
    const date = new Date(Date.now() + 5.5 * 3_600_000 + 3 * 86_400_000).toISOString().slice(0, 10);
    const publish = () =>
      busy.post("/rides/create", {
        intent: "create",
        fromLocation: "Koramangala",
        toLocation: "Manyata Tech Park",
        date,
        time: "09:00",
        seats: 3,
        tripCost: "300",
        notes: "",
      });
    const [p1, p2] = [await publish(), await publish()];
    out.publish = { status: p1.status, first: serverTiming(p1.headers), steady: serverTiming(p2.headers) };
    console.log(
      `  POST /rides/create (saved-search alerts): ${p1.status}, first ${JSON.stringify(out.publish.first)}, again ${JSON.stringify(out.publish.steady)}`,
    );
    return out;
  } finally {
    await stopServer(server);
  }
}

async function measurePages(base, manifest, cookie, { full, counts }) {
  const out = [];
  for (const page of pagesFor(manifest)) {
    const headers = page.anonymous ? {} : { Cookie: cookie };
    const res = await fetch(base + page.path, { headers, redirect: "manual" });
    const html = await res.text();
    const t = counts[page.path]?.steady ?? {};
    const firstTiming = counts[page.path]?.first ?? {};
    const breakdown = { d1WaitMs: round(counts[page.path]?.d1Ms), workerMs: round(counts[page.path]?.totalMs) };
    const c1 = await cannon(base + page.path, {
      cookie: page.anonymous ? undefined : cookie,
      connections: 1,
      duration: DURATION,
    });
    const row = {
      name: page.name,
      path: page.path,
      anonymous: page.anonymous ?? false,
      status: res.status,
      htmlBytes: Buffer.byteLength(html),
      queries: t.queries ?? null,
      rowsRead: t.rows_read ?? null,
      breakdown,
      firstVisit: {
        queries: firstTiming.queries ?? null,
        rowsRead: firstTiming.rows_read ?? null,
        rowsWritten: firstTiming.rows_written ?? null,
      },
      p50: c1.latency.p50,
      p99: c1.latency.p99,
      samples: c1.requests.total,
      non2xx: c1.non2xx,
      errors: c1.errors + c1.timeouts,
    };
    if (full) {
      const c16 = await cannon(base + page.path, {
        cookie: page.anonymous ? undefined : cookie,
        connections: 16,
        duration: DURATION,
      });
      Object.assign(row, {
        rps16: round(c16.requests.average, 0),
        non2xx16: c16.non2xx,
        errors16: c16.errors + c16.timeouts,
      });
    }
    console.log(
      `  ${page.name}: ${res.status}, p50 ${row.p50} ms, p99 ${row.p99} ms${full ? `, ${row.rps16} req/s at c=16` : ""}, queries ${row.queries}, rows ${row.rowsRead} (first visit: ${row.firstVisit.queries} queries, ${row.firstVisit.rowsRead} rows; in the worker: ${row.breakdown.workerMs} ms, of which waiting on D1 ${row.breakdown.d1WaitMs} ms)`,
    );
    out.push(row);
  }
  return out;
}

/**
 * CPU ms per request (p50/p99 over CPU_REQUESTS profiled requests) and the top 5 self-time
 * functions, per page; beside each page, in the same rounds, the peer's floor and limit
 * (peer.mjs) and LoopRide's ratios to them (issue 40).
 */
async function cpuPages(loopride, peer, manifest, cookie) {
  const fetcher = (base, path, headers) => async () => {
    const res = await fetch(base + path, { headers, redirect: "manual", signal: AbortSignal.timeout(30_000) });
    await res.arrayBuffer();
  };
  const inspector = await connectInspector(loopride.inspectorPort, loopride.name);
  const peerInspector = await connectInspector(peer.inspectorPort, peer.name);
  const locate = await sourceLocator(loopride.bundleDir);
  const floor = { inspector: peerInspector, request: fetcher(peer.base, PEER_PAGES.floor, {}) };
  const limit = { inspector: peerInspector, request: fetcher(peer.base, PEER_PAGES.limit, {}) };
  const out = {};
  try {
    for (const page of pagesFor(manifest).filter((p) => !ONLY_PAGES || ONLY_PAGES.includes(p.path))) {
      const request = fetcher(loopride.base, page.path, page.anonymous ? {} : { Cookie: cookie });
      // Compiled and warm, as in a busy isolate.
      for (let i = 0; i < 3; i++) await Promise.all([request(), floor.request(), limit.request()]);
      const [own, f, l] = await profileInterleaved([{ inspector, request, locate }, floor, limit], CPU_REQUESTS);
      const cpu = summarize(own, TOP);
      const [floorCpu, limitCpu] = [summarize(f, 0), summarize(l, 0)];
      Object.assign(cpu, {
        floor: { cpuP50: floorCpu.cpuP50, cpuP99: floorCpu.cpuP99 },
        limit: { cpuP50: limitCpu.cpuP50, cpuP99: limitCpu.cpuP99 },
        toFloor: round(cpu.cpuP50 / floorCpu.cpuP50, 2),
        toLimit: round(cpu.cpuP50 / limitCpu.cpuP50, 2),
        p99ToP50: round(cpu.cpuP99 / cpu.cpuP50, 2),
      });
      out[page.path] = cpu;
      console.log(
        `  CPU ${page.name}: p50 ${cpu.cpuP50} ms, p99 ${cpu.cpuP99} ms (floor ${cpu.floor.cpuP50}, limit ${cpu.limit.cpuP50}: x${cpu.toFloor} the floor, x${cpu.toLimit} the limit; wall p50 while profiled ${cpu.wallP50} ms); top: ${cpu.top.map((t) => `${t.fn} ${t.msPerRequest} ms`).join("; ")}; by module: ${cpu.byModule.map((m) => `${m.module} ${m.msPerRequest} ms`).join(", ")}`,
      );
    }
  } finally {
    inspector.close();
    peerInspector.close();
  }
  return out;
}

/**
 * The peer's own pages as served: their sizes, and whether the limit's cards are the floor's
 * markup byte for byte (else the limit would measure a different page).
 */
async function peerPages(peer) {
  const [floor, limit] = await Promise.all(
    [PEER_PAGES.floor, PEER_PAGES.limit].map((path) => fetch(peer.base + path).then((r) => r.text())),
  );
  const main = (html) => /<main>.*<\/main>/s.exec(html)?.[0] ?? null;
  return {
    floorHtmlBytes: Buffer.byteLength(floor),
    limitHtmlBytes: Buffer.byteLength(limit),
    sameMarkup: main(floor) !== null && main(floor) === main(limit),
  };
}

function openSocket(url, cookie, origin) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { Cookie: cookie, Origin: origin } });
    ws.once("open", () => resolve(ws));
    ws.once("error", reject);
    ws.once("unexpected-response", (_req, res) => reject(new Error(`WebSocket refused: ${res.statusCode}`)));
  });
}

async function messageDelivery(base, manifest, sender, receiver) {
  const ws = await openSocket(
    `${base.replace("http", "ws")}/ws/conversation/${manifest.conversationId}`,
    receiver.cookieHeader(),
    base,
  );
  const waiting = new Map();
  ws.on("message", (data) => {
    const text = data.toString();
    for (const [marker, resolve] of waiting)
      if (text.includes(marker)) {
        waiting.delete(marker);
        resolve(performance.now());
      }
  });
  const times = [];
  const posts = []; // the POST's own response time: what the frame waits on before fan-out starts
  let failed = 0;
  for (let i = 0; i < MESSAGES; i++) {
    const marker = `bench-${randomUUID()}`;
    const arrived = new Promise((resolve) => {
      waiting.set(marker, resolve);
      setTimeout(() => {
        if (waiting.delete(marker)) resolve(null);
      }, 5000);
    });
    const t0 = performance.now();
    const res = await sender.post("/dashboard/messages", {
      intent: "send",
      to: manifest.partner.id,
      content: `Delivery check ${marker}`,
      clientId: randomUUID(),
    });
    const tPost = performance.now();
    const t1 = await arrived;
    if (res.status !== 302 || t1 === null) failed++;
    else {
      times.push(t1 - t0);
      posts.push(tPost - t0);
    }
  }
  ws.close();
  times.sort((a, b) => a - b);
  posts.sort((a, b) => a - b);
  return {
    messages: MESSAGES,
    delivered: times.length,
    failed,
    p50: round(pct(times, 50)),
    p95: round(pct(times, 95)),
    max: round(times.at(-1)),
    postP50: round(pct(posts, 50)),
    postP95: round(pct(posts, 95)),
  };
}

async function broadcast(base, manifest, sender, receiver) {
  const url = `${base.replace("http", "ws")}/ws/user`;
  const sockets = [];
  for (let i = 0; i < SOCKETS; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, SOCKETS - i) }, () => openSocket(url, receiver.cookieHeader(), base)),
    );
    sockets.push(...batch);
  }
  await new Promise((r) => setTimeout(r, 1000));
  let armed = false;
  let t0 = 0;
  const got = new Array(sockets.length).fill(null);
  let done;
  const all = new Promise((resolve) => (done = resolve));
  let count = 0;
  sockets.forEach((ws, i) =>
    ws.on("message", () => {
      if (!armed || got[i] !== null) return;
      got[i] = performance.now();
      if (++count === sockets.length) done();
    }),
  );
  armed = true;
  t0 = performance.now();
  const res = await sender.post("/dashboard/messages", {
    intent: "send",
    to: manifest.partner.id,
    content: `Broadcast check ${randomUUID()}`,
    clientId: randomUUID(),
  });
  await Promise.race([all, new Promise((r) => setTimeout(r, 10_000))]);
  const received = got.filter((x) => x !== null);
  // Close politely and wait, so the next measurement does not run into 1,000 teardowns.
  await Promise.all(
    sockets.map(
      (ws) =>
        new Promise((resolve) => {
          ws.once("close", resolve);
          ws.close(1000, "bench done");
          setTimeout(() => {
            ws.terminate();
            resolve();
          }, 5000);
        }),
    ),
  );
  return {
    sockets: sockets.length,
    postStatus: res.status,
    received: received.length,
    allWithinMs: received.length === sockets.length ? round(Math.max(...received) - t0) : null,
    firstMs: received.length ? round(Math.min(...received) - t0) : null,
  };
}

function table(report) {
  const L = report.datasets.large.pages,
    S = report.datasets.small.pages;
  const healthz = L.find((p) => p.path === "/healthz");
  const lines = [
    "| Page | p50 c=1 (ms) | p99 c=1 (ms) | req/s c=16 | × /healthz | small p50 (ms) | growth | D1 queries | rows read | in worker (ms) | waiting on D1 (ms) | HTML bytes | initial JS gz |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const p of L) {
    const s = S.find((x) => x.path === p.path || x.name === p.name);
    lines.push(
      `| ${p.name} | ${p.p50} | ${p.p99} | ${p.rps16 ?? ""} | ${round(p.p50 / healthz.p50)} | ${s?.p50 ?? ""} | ${p.growth ?? ""} | ${p.queries ?? ""} | ${p.rowsRead ?? ""} | ${p.breakdown?.workerMs ?? ""} | ${p.breakdown?.d1WaitMs ?? ""} | ${p.htmlBytes} | ${p.initialJsGz === null ? "n/a" : `${round(p.initialJsGz / 1000)} KB`} |`,
    );
  }
  return lines.join("\n");
}

/** Per page: LoopRide's CPU, the peer's floor and limit measured beside it, and the ratios. */
function cpuTable(pages) {
  const lines = [
    "| Page | CPU p50 (ms) | CPU p99 (ms) | p99 ÷ p50 | floor p50 (ms) | limit p50 (ms) | ÷ floor | ÷ limit |",
    "|---|---|---|---|---|---|---|---|",
  ];
  for (const p of pages)
    if (p.cpu)
      lines.push(
        `| ${p.name} | ${p.cpu.cpuP50} | ${p.cpu.cpuP99} | ${p.cpu.p99ToP50} | ${p.cpu.floor.cpuP50} | ${p.cpu.limit.cpuP50} | ${p.cpu.toFloor} | ${p.cpu.toLimit} |`,
      );
  return lines.join("\n");
}

function cpuTop(pages) {
  const lines = [
    "| Page | top 5 functions by self time per request (function (source:line): ms, share of CPU) | by package or folder |",
    "|---|---|---|",
  ];
  for (const p of pages)
    if (p.cpu)
      lines.push(
        `| ${p.name} | ${p.cpu.top.map((t) => `${t.fn.replace(/\|/g, "/")}: ${t.msPerRequest} ms, ${t.share}%`).join("<br>")} | ${p.cpu.byModule.map((m) => `${m.module} ${m.share}%`).join(", ")} |`,
      );
  return lines.join("\n");
}

/**
 * The CPU checks (issue 40): ratios to the peer measured in the same rounds, which hold from
 * one machine to another as an absolute figure does not; the profiler's own check; the peer's
 * pages being what they stand for; `wall` only when autocannon ran.
 */
function cpuVerdicts(pages, calibration, peer, cpuPassSeconds, { wall = true } = {}) {
  const L = pages.filter((p) => p.path !== "/healthz");
  // The floor is a signed-in page's work (a session's page over D1); the visitor page reads none.
  const signedIn = L.filter((p) => !p.anonymous);
  const healthz = pages.find((p) => p.path === "/healthz");
  const profiled = pages.filter((p) => p.cpu != null).length;
  const check = (name, ok, measured) => ({ budget: name, pass: ok, measured });
  const worst = (list, f) => list.reduce((a, b) => ((f(b) ?? -Infinity) > (f(a) ?? -Infinity) ? b : a));
  const over = (list, ok) =>
    list
      .filter((p) => !ok(p))
      .map((p) => p.name)
      .join(", ") || "none";
  const ratio = (key, limit) => {
    const ok = (p) => p.cpu != null && p.cpu[key] <= limit;
    const w = worst(signedIn, (p) => p.cpu?.[key]);
    return [signedIn.every(ok), `worst x${w.cpu?.[key]} (${w.name}); over: ${over(signedIn, ok)}`];
  };
  const spread = (p) => p.cpu != null && p.cpu.cpuP99 <= BUDGET.cpuP99ToP50 * p.cpu.cpuP50;
  const w99 = worst(L, (p) => p.cpu?.p99ToP50);
  const w = worst(L, (p) => p.p50);
  const out = [
    check(
      "CPU profile measures CPU, not wall time (calibration worker)",
      calibration.ok,
      `waiting ${calibration.waitMs} ms: CPU ${calibration.wait.cpuP50} ms (wall ${calibration.wait.wallP50} ms), twice as long: CPU ${calibration.wait2?.cpuP50} ms; spinning: CPU ${calibration.spin.cpuP50} ms (wall ${calibration.spin.wallP50} ms), twice as long: CPU ${calibration.spin2.cpuP50} ms (x${calibration.ratio})`,
    ),
    check(
      `the peer's floor is a page of ${BUDGET.peerHtmlBytes.map((b) => b / 1000).join("-")} KB, its limit the same markup`,
      peer.floorHtmlBytes >= BUDGET.peerHtmlBytes[0] &&
        peer.floorHtmlBytes <= BUDGET.peerHtmlBytes[1] &&
        peer.sameMarkup,
      `floor ${peer.floorHtmlBytes} bytes, limit ${peer.limitHtmlBytes} bytes, same cards: ${peer.sameMarkup}`,
    ),
    check(
      `CPU p50 ÷ the floor's <= ${BUDGET.cpuToFloor} on every signed-in page`,
      ...ratio("toFloor", BUDGET.cpuToFloor),
    ),
    check(
      `CPU p50 ÷ the limit's <= ${BUDGET.cpuToLimit} on every signed-in page`,
      ...ratio("toLimit", BUDGET.cpuToLimit),
    ),
    check(
      `the CPU pass <= ${BUDGET.cpuPassSeconds} s on the large dataset`,
      // A --pages pass profiles a few pages: its time says nothing of the whole pass's.
      cpuPassSeconds != null && profiled === pages.length && cpuPassSeconds <= BUDGET.cpuPassSeconds,
      `${cpuPassSeconds} s for ${profiled === pages.length ? "" : `${profiled} of `}${pages.length} pages x ${CPU_REQUESTS} rounds of three requests`,
    ),
    check(
      `CPU p99 <= ${BUDGET.cpuP99ToP50}x p50 on every page`,
      L.every(spread),
      `worst x${w99.cpu?.p99ToP50} (${w99.name}); over: ${over(L, spread)}`,
    ),
  ];
  if (wall)
    out.push(
      check(
        `wall p50 at c=1 <= ${BUDGET.wallToFloor}x /healthz`,
        L.every((p) => p.p50 <= BUDGET.wallToFloor * healthz.p50),
        `/healthz ${healthz.p50} ms; worst ${w.p50} ms (${w.name}, ${round(w.p50 / healthz.p50)}x); over: ${
          L.filter((p) => p.p50 > BUDGET.wallToFloor * healthz.p50)
            .map((p) => p.name)
            .join(", ") || "none"
        }`,
      ),
    );
  return out;
}

/** `--cpu-only`: the calibration and the CPU pass on the large dataset, nothing else. */
async function cpuOnly() {
  const manifest = JSON.parse(readFileSync(`${benchDir("large")}/manifest.json`, "utf8"));
  const loadAvgAtStart = os.loadavg().map((x) => round(x, 2));
  console.log("CPU profiler check (calibration worker)...");
  const calibration = await calibrate();
  const [{ server }, peer] = await Promise.all([startServer("large"), startPeer()]);
  let pages;
  let peerHtml;
  let started;
  try {
    const busy = await signIn(server.base, manifest.busy.email, BENCH_PASSWORD);
    peerHtml = await peerPages(peer);
    started = performance.now();
    const cpu = await cpuPages(server, peer, manifest, busy.cookieHeader());
    pages = pagesFor(manifest).map((p) => ({ ...p, cpu: cpu[p.path] }));
  } finally {
    await Promise.all([stopServer(server), stopServer(peer)]);
  }
  const cpuPassSeconds = round((performance.now() - started) / 1000);
  const verdictsCpu = cpuVerdicts(pages, calibration, peerHtml, cpuPassSeconds, { wall: false });
  const report = {
    date: new Date().toISOString(),
    requestsPerPage: CPU_REQUESTS,
    machine: { cpus: os.cpus().length, loadAvgAtStart, loadAvgAtEnd: os.loadavg().map((x) => round(x, 2)) },
    calibration,
    peer: peerHtml,
    cpuPassSeconds,
    pages,
    verdicts: verdictsCpu,
  };
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/cpu-latest.json", JSON.stringify(report, null, 2) + "\n");
  console.log(`\n${cpuTable(pages)}\n\n${cpuTop(pages)}\n\nCPU pass: ${cpuPassSeconds} s\n`);
  for (const v of verdictsCpu) console.log(`${v.pass ? "PASS" : "FAIL"}  ${v.budget}  (${v.measured})`);
  console.log(
    `\nload average ${loadAvgAtStart.join("/")} at start, ${report.machine.loadAvgAtEnd.join("/")} at end. Wrote bench/results/cpu-latest.json`,
  );
}

/**
 * Issue 17's rows verdict, one rule for the full run and --rows-only: a page is over when it
 * reads more on the large dataset than on the small one, or either count is missing.
 */
function rowsFlatVerdict(pages) {
  const over = pages.filter((p) => p.rowsRead == null || p.smallRowsRead == null || p.rowsRead > p.smallRowsRead);
  return {
    budget: "rows read growth (large/small) exactly flat (<= 1)",
    pass: over.length === 0,
    measured: `over: ${over.map((p) => `${p.name} ${p.smallRowsRead} -> ${p.rowsRead}`).join(", ") || "none"}`,
  };
}

/** Per large-dataset page name, its statements that read more than on the small dataset (pages pair by name: paths hold each dataset's own ids). */
function rowsGrowthByPage(small, large) {
  const smallByName = Object.fromEntries(
    pagesFor(small.manifest).map((p) => [p.name, small.counts[p.path]?.statements]),
  );
  return Object.fromEntries(
    pagesFor(large.manifest).map((p) => [
      p.name,
      rowsGrowthByStatement(smallByName[p.name], large.counts[p.path]?.statements),
    ]),
  );
}

async function rowsOnly() {
  const bySize = {};
  for (const size of ["small", "large"]) {
    const manifest = JSON.parse(readFileSync(`${benchDir(size)}/manifest.json`, "utf8"));
    console.log(`${size} dataset: rows read per page...`);
    bySize[size] = { manifest, counts: await d1Counts(size, manifest) };
  }
  const grown = rowsGrowthByPage(bySize.small, bySize.large);
  const smallPaths = Object.fromEntries(pagesFor(bySize.small.manifest).map((p) => [p.name, p.path]));
  const pages = pagesFor(bySize.large.manifest).map((p) => {
    const [s, l] = [bySize.small.counts[smallPaths[p.name]], bySize.large.counts[p.path]];
    return {
      name: p.name,
      path: p.path,
      queries: l?.steady.queries ?? null,
      smallRowsRead: s?.steady.rows_read ?? null,
      rowsRead: l?.steady.rows_read ?? null,
      rowsGrowthBy: grown[p.name],
    };
  });
  const table = [
    "| Page | D1 round trips | rows read small → large |",
    "|---|---|---|",
    ...pages.map((p) => `| ${p.name} | ${p.queries} | ${p.smallRowsRead} → ${p.rowsRead} |`),
  ].join("\n");
  const md = [
    `# Rows read per page, small → large (${new Date().toISOString()})`,
    "",
    table,
    "",
    "Statements that read more rows on the large dataset (top 3 a page):",
    "",
    rowsGrowthTable(pages),
    "",
  ].join("\n");
  mkdirSync("bench/results", { recursive: true });
  writeFileSync("bench/results/rows-latest.md", md);
  console.log("\n" + md);
  const v = rowsFlatVerdict(pages.filter((p) => p.path !== "/healthz"));
  console.log(`${v.pass ? "PASS" : "FAIL"}  ${v.budget}  (${v.measured})`);
  console.log("Wrote bench/results/rows-latest.md");
}

function verdicts(report) {
  const L = report.datasets.large.pages.filter((p) => p.path !== "/healthz");
  const check = (name, ok, measured) => ({ budget: name, pass: ok, measured });
  const worst = (key) => L.reduce((a, b) => ((b[key] ?? -Infinity) > (a[key] ?? -Infinity) ? b : a));
  const p50 = worst("p50"),
    growth = worst("growth"),
    q = worst("queries"),
    rows = worst("rowsRead"),
    js = worst("initialJsGz");
  const rt = report.realtime;
  return [
    ...cpuVerdicts(report.datasets.large.pages, report.cpuCalibration, report.peer, report.cpuPassSeconds),
    check(
      `p50 at c=1 <= ${BUDGET.p50Ms} ms on every page`,
      L.every((p) => p.p50 <= BUDGET.p50Ms && p.status < 400),
      `worst ${p50.p50} ms (${p50.name}); over: ${
        L.filter((p) => p.p50 > BUDGET.p50Ms)
          .map((p) => p.name)
          .join(", ") || "none"
      }`,
    ),
    check(
      `growth ratio (large/small p50) <= ${BUDGET.growth}`,
      L.every((p) => p.growth !== null && p.growth <= BUDGET.growth),
      `worst ${growth.growth} (${growth.name})`,
    ),
    rowsFlatVerdict(L),
    check(
      `HTML <= ${BUDGET.htmlBytes / 1000} KB on every page`,
      L.every((p) => p.htmlBytes <= BUDGET.htmlBytes),
      `worst ${worst("htmlBytes").htmlBytes} bytes (${worst("htmlBytes").name})`,
    ),
    check(
      `D1 round trips per request <= ${BUDGET.queries}`,
      L.every((p) => p.queries !== null && p.queries <= BUDGET.queries),
      `worst ${q.queries} (${q.name})`,
    ),
    check(
      `rows read per request <= ${BUDGET.rowsRead}`,
      L.every((p) => p.rowsRead !== null && p.rowsRead <= BUDGET.rowsRead),
      `worst ${rows.rowsRead} (${rows.name})`,
    ),
    check(
      `initial JS <= ${BUDGET.initialJsBytes / 1000} KB gz`,
      L.every((p) => p.initialJsGz === null || p.initialJsGz <= BUDGET.initialJsBytes) &&
        L.some((p) => p.initialJsGz !== null),
      `worst ${js.initialJsGz === null ? "n/a" : `${round(js.initialJsGz / 1000)} KB`} (${js.name})`,
    ),
    check(
      `message delivery p95 <= ${BUDGET.deliveryP95Ms} ms`,
      rt.delivery.failed === 0 && rt.delivery.p95 <= BUDGET.deliveryP95Ms,
      `p50 ${rt.delivery.p50} ms, p95 ${rt.delivery.p95} ms, ${rt.delivery.delivered}/${rt.delivery.messages} delivered`,
    ),
    check(
      `${SOCKETS}-socket broadcast <= ${BUDGET.broadcastMs} ms`,
      rt.broadcast.allWithinMs !== null && rt.broadcast.allWithinMs <= BUDGET.broadcastMs,
      `${rt.broadcast.received}/${rt.broadcast.sockets} sockets in ${rt.broadcast.allWithinMs ?? "—"} ms`,
    ),
    check(
      "mixed load: zero errors/5xx",
      report.mixed.errors === 0 && report.mixed.requests > 0,
      `${report.mixed.requests} requests in ${round(report.mixed.seconds)} s at c=${report.mixed.concurrency}, ${report.mixed.errors} errors`,
    ),
  ];
}

async function main() {
  for (const size of ["large", "small"]) {
    if (!existsSync(`${benchDir(size)}/manifest.json`))
      throw new Error(`${benchDir(size)}/manifest.json missing: run npm run bench:seed first`);
  }
  // A dataset seeded before a later migration (a new index, say) is brought up to date first, or
  // the bench would measure the old schema. Already applied migrations are skipped.
  for (const size of ["large", "small"]) {
    await run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", benchDir(size)], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, CI: "true" },
    });
  }
  // The production build plus the server's source map, which names the sources in the CPU profiles.
  const build = !args.includes("--no-build");
  if (build) await run("npx", ["remix", "vite:build", "--sourcemapServer"], { stdio: ["ignore", "ignore", "inherit"] });
  bundles.loopride = await bundleWorker("wrangler.toml", ".cache/bench/loopride");
  // ADR 0063: built without esbuild's name wrappers (wrangler.toml keep_names = false).
  if (readFileSync(`${bundles.loopride}/server.js`, "utf8").includes("__name("))
    throw new Error("the worker bundle wraps functions in __name(): keep_names must stay false");
  if (ROWS_ONLY) return rowsOnly();
  bundles.peer = await buildPeer();
  if (CPU_ONLY) return cpuOnly();
  let js = null;
  try {
    js = initialJsByRoute("build/client");
  } catch (e) {
    console.warn(`initial JS not computed: ${e.message}`);
  }
  const report = {
    date: new Date().toISOString(),
    quick: QUICK,
    durationPerRunSeconds: DURATION,
    cpuRequestsPerPage: CPU_REQUESTS,
    machine: { cpus: os.cpus().length, node: process.version, loadAvgAtStart: os.loadavg().map((x) => round(x, 2)) },
    budgets: BUDGET,
    datasets: {},
  };
  console.log("CPU profiler check (calibration worker)...");
  report.cpuCalibration = await calibrate();
  console.log(`  ${JSON.stringify(report.cpuCalibration)}`);

  const countsBySize = {};
  for (const size of ["small", "large"]) {
    const manifest = JSON.parse(readFileSync(`${benchDir(size)}/manifest.json`, "utf8"));
    console.log(`\n${size} dataset (${JSON.stringify(manifest.counts)})`);
    const counts = await d1Counts(size, manifest);
    countsBySize[size] = { counts, manifest };
    const { server, base } = await startServer(size);
    try {
      const busy = await signIn(base, manifest.busy.email, BENCH_PASSWORD);
      const pages = await measurePages(base, manifest, busy.cookieHeader(), { full: size === "large", counts });
      for (const p of pages) {
        const r = js ? initialJsForPath(js, p.path) : null;
        p.initialJsGz = p.path === "/healthz" ? 0 : (r?.gzipBytes ?? null);
        p.routeId = r?.routeId ?? null;
      }
      report.datasets[size] = { counts: manifest.counts, pages, publish: counts.publish };
      if (size === "large") {
        const partner = await signIn(base, manifest.partner.email, BENCH_PASSWORD);
        console.log(`  real-time: ${MESSAGES} messages to an open conversation socket...`);
        const delivery = await messageDelivery(base, manifest, busy, partner);
        console.log(
          `  delivery p50 ${delivery.p50} ms, p95 ${delivery.p95} ms (${delivery.delivered}/${delivery.messages}); POST alone p50 ${delivery.postP50} ms, p95 ${delivery.postP95} ms`,
        );
        console.log(`  broadcast: ${SOCKETS} sockets of one user...`);
        const bc = await broadcast(base, manifest, busy, partner);
        console.log(`  broadcast: ${bc.received}/${bc.sockets} in ${bc.allWithinMs} ms`);
        report.realtime = { delivery, broadcast: bc };

        const loadUsers = manifest.loadUsers.slice(0, 32);
        const users = [];
        for (const u of loadUsers)
          users.push({ client: await signIn(base, u.email, BENCH_PASSWORD), id: u.id, driver: u.driver });
        const mixed = await mixedLoad({ users, durationMs: MIXED_SECONDS * 1000, log: (m) => console.log(`  ${m}`) });
        report.mixed = { concurrency: users.length, ...mixed, rides: mixed.rides.length };
        console.log(`  mixed: ${mixed.requests} requests, ${mixed.errors} errors, ${JSON.stringify(mixed.statuses)}`);

        // The CPU pass after the load passes, as a busy isolate is: with workerd's own inspector
        // (serve.mjs) nothing stalls after c=16 as wrangler dev's did. A CPU pass that fails
        // leaves the pages without CPU figures (their verdicts FAIL).
        const peer = await startPeer();
        try {
          report.peer = await peerPages(peer);
          const started = performance.now();
          const cpu = await cpuPages(server, peer, manifest, busy.cookieHeader()).catch((e) => {
            console.error(`  CPU pass failed: ${e.message}`);
            return {};
          });
          report.cpuPassSeconds = round((performance.now() - started) / 1000);
          console.log(`  CPU pass: ${report.cpuPassSeconds} s`);
          for (const p of pages) p.cpu = cpu[p.path] ?? null;
        } finally {
          await stopServer(peer);
        }
      }
    } finally {
      await stopServer(server);
    }
  }
  for (const p of report.datasets.large.pages) {
    const s = report.datasets.small.pages.find((x) => x.path === p.path || x.name === p.name);
    p.smallP50 = s?.p50 ?? null;
    p.growth = s?.p50 ? round(p.p50 / s.p50, 2) : null;
    // Issue 17: what a page reads must not grow with the city (exactly flat).
    p.smallRowsRead = s?.rowsRead ?? null;
    p.rowsGrowth = s?.rowsRead ? round(p.rowsRead / s.rowsRead, 2) : p.rowsRead === 0 && s?.rowsRead === 0 ? 1 : null;
  }
  const grown = rowsGrowthByPage(countsBySize.small, countsBySize.large);
  for (const p of report.datasets.large.pages) p.rowsGrowthBy = grown[p.name];
  const healthz = report.datasets.large.pages.find((p) => p.path === "/healthz");
  for (const p of report.datasets.large.pages) p.ratioToHealthz = round(p.p50 / healthz.p50, 1);
  report.verdicts = verdicts(report);
  // The machine is shared: a high load average means the latencies above include waiting for a core.
  report.machine.loadAvgAtEnd = os.loadavg().map((x) => round(x, 2));

  const md = [
    `# LoopRide benchmark (${report.date.slice(0, 10)}${QUICK ? ", quick run" : ""})`,
    "",
    `Large dataset: ${JSON.stringify(report.datasets.large.counts)}. autocannon runs of ${DURATION} s each on loopback, the worker in Miniflare (its own workerd, no proxy), ${report.machine.cpus} cores shared with other work (1/5/15-min load average ${report.machine.loadAvgAtStart.join("/")} at start, ${report.machine.loadAvgAtEnd.join("/")} at end).`,
    "",
    table(report),
    "",
    `CPU: sampled profiles through workerd's inspector, ${CPU_REQUESTS} requests per page in rounds with the peer's two, one profile per isolate for a page's rounds, split per request (ADRs 0027, 0060), after the load passes (${report.cpuPassSeconds} s). Beside each page, in the same rounds, the peer (ADR 0060): "floor" is a stock Remix v2 page over one D1 query (${report.peer.floorHtmlBytes} bytes), "limit" the same markup from template strings (${report.peer.limitHtmlBytes} bytes).`,
    "",
    cpuTable(report.datasets.large.pages),
    "",
    "Top self time per page:",
    "",
    cpuTop(report.datasets.large.pages),
    "",
    "Rows read: the statements that read more on the large dataset than on the small one (top 3 a page; `DEBUG_TIMING=statements`):",
    "",
    rowsGrowthTable(report.datasets.large.pages),
    "",
    `Real-time: message POST to frame on the receiver's socket, ${report.realtime.delivery.messages} messages: p50 ${report.realtime.delivery.p50} ms, p95 ${report.realtime.delivery.p95} ms (the POST's own response: p50 ${report.realtime.delivery.postP50} ms, p95 ${report.realtime.delivery.postP95} ms). One UserHub to ${report.realtime.broadcast.sockets} sockets: all received within ${report.realtime.broadcast.allWithinMs} ms.`,
    "",
    `Mixed load: ${report.mixed.requests} requests in ${round(report.mixed.seconds)} s at concurrency ${report.mixed.concurrency} (${report.mixed.requestsPerSecond} req/s), statuses ${JSON.stringify(report.mixed.statuses)}, ${report.mixed.errors} errors${report.mixed.errorSamples.length ? `: ${report.mixed.errorSamples.map((e) => `${e.action} ${e.status} "${e.detail}"`).join("; ")}` : ""}.`,
    "",
    ...verdictTable(report.verdicts),
    "",
  ].join("\n");
  writeResults("latest", report, md);
  console.log("\n" + table(report) + "\n");
  for (const v of report.verdicts) console.log(`${v.pass ? "PASS" : "FAIL"}  ${v.budget}  (${v.measured})`);
  console.log("\nWrote bench/results/latest.json and bench/results/latest.md");
}

try {
  await main();
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await stopAll();
}
