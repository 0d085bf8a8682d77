// `npm run lighthouse`: Lighthouse 12 on the landing page, /rides, a ride page and /dashboard,
// against the built worker served by Miniflare on a free loopback port (scripts/e2e-server.mjs:
// fresh local D1 with the demo data). Debian Chromium, no network needed.
//
// Scores Performance as a commuter's phone sees it (Lighthouse's mobile defaults: a Moto G
// Power-sized screen, simulated slow 4G at 150 ms RTT and 1.6 Mbit/s, 4x CPU slowdown), plus
// accessibility and best practices. Each page is measured RUNS times and the median run (by
// Lighthouse's own computeMedianRun) is judged, because one simulated run on a shared 2-core
// machine moves by several points. A run whose first paint the host withheld until well after
// the load event is measured again and not judged (scripts/lib/lighthouse-runs.mjs). Writes
// bench/results/lighthouse.json and prints PASS/FAIL per page with LCP, TBT, CLS and bytes
// transferred; exits 1 when any page misses a goal (issue 40).
//
//   npm run lighthouse              (builds first; `node scripts/lighthouse.mjs` serves build/ as it is)
//   node scripts/lighthouse.mjs --runs 1 --only ride   (one quick look while developing)
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { parseArgs } from "node:util";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { computeMedianRun } from "lighthouse/core/lib/median-run.js";
import { pageFunctions } from "lighthouse/core/lib/page-functions.js";
import * as constants from "lighthouse/core/config/constants.js";
import WebSocket from "ws";
import { freePort, stopGroup, waitFor } from "./lib/server.mjs";
import {
  CHROME_FLAGS,
  judgedRuns,
  measureAgain,
  paintAfterLoad,
  paintWithheld,
  WITHHELD_PAINT_MS,
} from "./lib/lighthouse-runs.mjs";

const { values: args } = parseArgs({
  options: {
    runs: { type: "string", default: "3" },
    only: { type: "string" },
    cpu: { type: "string" },
    base: { type: "string" },
  },
});
const RUNS = Number(args.runs);
// `--cpu 4` fixes the CPU slowdown (Lighthouse's default); without it, it is calibrated per run.
const FIXED_CPU = args.cpu ? Number(args.cpu) : null;
// Category scores (0-100) a page must reach.
const THRESHOLDS = { performance: 95, accessibility: 100, "best-practices": 95 };
// Metric ceilings (issue 40): LCP and TBT in ms, CLS unitless.
const METRIC_GOALS = { lcp: 2000, tbt: 100, cls: 0.02 };
const METRIC_AUDITS = {
  fcp: "first-contentful-paint",
  lcp: "largest-contentful-paint",
  tbt: "total-blocking-time",
  cls: "cumulative-layout-shift",
  si: "speed-index",
  bytes: "total-byte-weight",
};
const DEMO = { identifier: "priya@demo.loopride.in", password: "carpool-bengaluru" };

/**
 * Lighthouse's 4x CPU slowdown turns a desktop of BenchmarkIndex ~1,500 into a mid-tier phone.
 * This 2-core machine, shared with other work, measures 200-800, and 4x on top of that emulates
 * a far slower phone than the goal is about (Lighthouse warns "slower CPU than Lighthouse
 * expects" below 1,000). So each run uses the multiplier Lighthouse's throttling guide gives for
 * the index measured just before it (the piecewise-linear fit of its CPU calibration
 * calculator: 150 -> 1x, 800 -> 2x, 1,300 -> 3x, +1x per 233 above). Below 150 the host is
 * slower than the target phone and cannot emulate it.
 */
export function calibratedMultiplier(benchmarkIndex) {
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  if (benchmarkIndex >= 150) return 1 + (benchmarkIndex - 150) / 650;
  return null;
}

/** Lighthouse's own BenchmarkIndex, computed in a blank tab of the browser that is measured. */
async function browserBenchmarkIndex(port) {
  const res = await fetch(`http://127.0.0.1:${port}/json/new?about:blank`, { method: "PUT" });
  const target = await res.json();
  try {
    const ws = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    const reply = new Promise((resolve, reject) => {
      ws.on("message", (m) => {
        const msg = JSON.parse(String(m));
        if (msg.id === 1) msg.result?.result ? resolve(msg.result.result.value) : reject(new Error(String(m)));
      });
    });
    const expression = `(${pageFunctions.computeBenchmarkIndex})()`;
    ws.send(JSON.stringify({ id: 1, method: "Runtime.evaluate", params: { expression, returnByValue: true } }));
    const index = await reply;
    ws.close();
    return Math.round(index);
  } finally {
    await fetch(`http://127.0.0.1:${port}/json/close/${target.id}`);
  }
}

/** Signs in through the real /login form; returns the Cookie header value of the session. */
async function signIn(base) {
  const res = await fetch(`${base}/login`, {
    method: "POST",
    // Same-origin, as the browser's form post would be (the worker refuses cross-site writes).
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: base, "Sec-Fetch-Site": "same-origin" },
    body: new URLSearchParams({ ...DEMO, redirectTo: "/dashboard", website: "" }),
    redirect: "manual",
  });
  const cookies = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => !c.endsWith("="));
  if (res.status !== 302 || res.headers.get("location") !== "/dashboard" || cookies.length === 0) {
    throw new Error(`sign-in failed: ${res.status} ${res.headers.get("location")} ${await res.text()}`);
  }
  const cookie = cookies.join("; ");
  const check = await fetch(`${base}/dashboard`, { headers: { Cookie: cookie }, redirect: "manual" });
  if (check.status !== 200) throw new Error(`the session cookie does not open /dashboard (${check.status})`);
  return cookie;
}

/** The first ride linked from /rides (seeded demo rides). */
async function aRidePath(base, cookie) {
  const html = await (await fetch(`${base}/rides`, { headers: { Cookie: cookie } })).text();
  const path = [...html.matchAll(/href="(\/rides\/[a-z0-9]+)"/g)].map((m) => m[1]).find((p) => p !== "/rides/create");
  if (!path) throw new Error("no ride linked from /rides");
  return path;
}

/** Why a page scores what it does: the weighted audits below 1, and performance's opportunities. */
function failingAudits(lhr) {
  const failing = [];
  for (const id of Object.keys(THRESHOLDS)) {
    for (const ref of lhr.categories[id].auditRefs) {
      const audit = lhr.audits[ref.id];
      const isMetric = ref.group === "metrics";
      // A metric's score is reported through the metric figures; an insight with savings is
      // listed even at weight 0, as it is what to fix next.
      if (isMetric || audit.score === null || audit.score >= 1) continue;
      const saves = audit.metricSavings && Object.values(audit.metricSavings).some((v) => v > 0);
      if (ref.weight > 0 || (id === "performance" && saves))
        failing.push({ category: id, id: ref.id, title: audit.title, score: audit.score, display: audit.displayValue });
    }
  }
  return failing;
}

function figures(lhr) {
  const metrics = {};
  for (const [k, id] of Object.entries(METRIC_AUDITS)) metrics[k] = lhr.audits[id].numericValue;
  metrics.cls = Math.round(metrics.cls * 1000) / 1000;
  for (const k of ["fcp", "lcp", "tbt", "si", "bytes"]) metrics[k] = Math.round(metrics[k]);
  const scores = {};
  for (const id of Object.keys(THRESHOLDS)) scores[id] = Math.round((lhr.categories[id].score ?? 0) * 100);
  return { scores, metrics };
}

function misses({ scores, metrics }) {
  const out = [];
  for (const [id, t] of Object.entries(THRESHOLDS)) if (scores[id] < t) out.push(`${id} ${scores[id]} < ${t}`);
  for (const [k, t] of Object.entries(METRIC_GOALS)) if (metrics[k] > t) out.push(`${k} ${metrics[k]} > ${t}`);
  return out;
}

// `--base http://127.0.0.1:PORT`: an e2e server already running (node scripts/e2e-server.mjs PORT).
const port = args.base ? null : await freePort();
const base = args.base ?? `http://127.0.0.1:${port}`;
const server =
  port &&
  spawn(process.execPath, ["scripts/e2e-server.mjs", String(port)], {
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
// The e2e server forwards the signal to wrangler; its process group holds workerd too.
const stopServer = () => server && stopGroup(server);
let chrome;
let failed = false;
try {
  // Migrating and seeding a fresh database takes minutes on a busy 2-core machine.
  await waitFor(`${base}/pricing`, 400_000);
  const cookie = await signIn(base);
  const pages = [
    { name: "landing", path: "/", signedIn: false },
    { name: "rides", path: "/rides", signedIn: true },
    { name: "ride", path: await aRidePath(base, cookie), signedIn: true },
    { name: "dashboard", path: "/dashboard", signedIn: true },
  ].filter((p) => !args.only || args.only.split(",").includes(p.name));

  chrome = await launch({ chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", chromeFlags: CHROME_FLAGS });
  const results = [];
  let environment = {};
  const loadAtStart = loadavg()[0];
  for (const p of pages) {
    const url = `${base}${p.path}`;
    const lhrs = [];
    const calibration = [];
    // A run whose loaded page the host kept off screen is measured again, up to RUNS more times
    // (scripts/lib/lighthouse-runs.mjs).
    while (measureAgain(lhrs, RUNS)) {
      const index = FIXED_CPU ? null : await browserBenchmarkIndex(chrome.port);
      const cpuSlowdownMultiplier = FIXED_CPU ?? calibratedMultiplier(index);
      if (!cpuSlowdownMultiplier) throw new Error(`BenchmarkIndex ${index}: the host is slower than the target phone`);
      calibration.push({ benchmarkIndex: index, cpuSlowdownMultiplier: Math.round(cpuSlowdownMultiplier * 100) / 100 });
      const runner = await lighthouse(
        url,
        {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: Object.keys(THRESHOLDS),
          extraHeaders: p.signedIn ? { Cookie: cookie } : undefined,
        },
        // The default (mobile) config: its screen, slow 4G and simulated throttling; only the CPU
        // multiplier is calibrated.
        {
          extends: "lighthouse:default",
          settings: { throttling: { ...constants.throttling.mobileSlow4G, cpuSlowdownMultiplier } },
        },
      );
      const lhr = runner.lhr;
      if (lhr.runtimeError) throw new Error(`${p.name}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      if (new URL(lhr.finalDisplayedUrl).pathname !== p.path)
        throw new Error(`${p.name}: ended on ${lhr.finalDisplayedUrl}, not ${p.path}`);
      const s = lhr.configSettings;
      if (s.formFactor !== "mobile" || s.throttlingMethod !== "simulate")
        throw new Error(`${p.name}: measured as ${s.formFactor}/${s.throttlingMethod}, not mobile/simulate`);
      lhrs.push(lhr);
    }
    const { judged, withheld, mostWithheld } = judgedRuns(lhrs);
    const median = computeMedianRun(judged);
    // The whole report of the judged run, for finding what holds a page back (not committed).
    mkdirSync(".cache/lighthouse", { recursive: true });
    writeFileSync(`.cache/lighthouse/${p.name}.json`, JSON.stringify(median));
    environment = {
      lighthouse: median.lighthouseVersion,
      chromium: median.environment.hostUserAgent,
      network: {
        rttMs: median.configSettings.throttling.rttMs,
        throughputKbps: median.configSettings.throttling.throughputKbps,
      },
    };
    const measured = figures(median);
    const missed = misses(measured);
    if (mostWithheld)
      missed.push(`the first paint came ${WITHHELD_PAINT_MS} ms or more after the load event in most runs`);
    if (missed.length) failed = true;
    const runs = lhrs.map((l) => figures(l));
    results.push({
      page: p.name,
      path: p.path,
      signedIn: p.signedIn,
      ...measured,
      pass: missed.length === 0,
      missed,
      runs: runs.map((r, i) => ({
        performance: r.scores.performance,
        ...r.metrics,
        ...calibration[i],
        inPageBenchmarkIndex: Math.round(lhrs[i].environment.benchmarkIndex),
        observedFcp: Math.round(lhrs[i].audits.metrics.details.items[0].observedFirstContentfulPaint),
        observedLoad: Math.round(lhrs[i].audits.metrics.details.items[0].observedLoad),
        paintWithheld: paintWithheld(lhrs[i]),
      })),
      runsWithheld: withheld,
      failingAudits: failingAudits(median),
    });
    const m = measured.metrics;
    const sc = measured.scores;
    console.log(
      `${missed.length ? "FAIL" : "PASS"}  ${p.name.padEnd(10)} ${p.path.padEnd(24)} perf ${String(sc.performance).padStart(3)}` +
        `  LCP ${(m.lcp / 1000).toFixed(2)} s  TBT ${m.tbt} ms  CLS ${m.cls}  ${(m.bytes / 1024).toFixed(1)} KiB` +
        `  a11y ${sc.accessibility}  best-practices ${sc["best-practices"]}` +
        `  (runs: ${runs.map((r, i) => `${r.scores.performance} at ${calibration[i].cpuSlowdownMultiplier}x${paintWithheld(lhrs[i]) ? `, painted ${paintAfterLoad(lhrs[i])} ms after load: not judged` : ""}`).join("; ")})`,
    );
    for (const x of missed) console.log(`        missed: ${x}`);
    for (const f of failingAudits(median))
      console.log(`        ${f.category}: ${f.id} (${f.title})${f.display ? ` ${f.display}` : ""}`);
  }
  mkdirSync("bench/results", { recursive: true });
  const report = {
    date: new Date().toISOString(),
    ...environment,
    formFactor: "mobile",
    throttlingMethod: "simulate",
    cpu: FIXED_CPU ? `${FIXED_CPU}x fixed` : "calibrated per run from the browser's BenchmarkIndex",
    runsPerPage: RUNS,
    loadAverageAtStart: Math.round(loadAtStart * 100) / 100,
    thresholds: THRESHOLDS,
    metricGoals: METRIC_GOALS,
    pages: results,
  };
  writeFileSync("bench/results/lighthouse.json", `${JSON.stringify(report, null, 2)}\n`);
  console.log(`${failed ? "FAIL" : "PASS"}: wrote bench/results/lighthouse.json`);
} catch (e) {
  failed = true;
  console.error(e);
} finally {
  await chrome?.kill();
  stopServer();
}
process.exit(failed ? 1 : 0);
