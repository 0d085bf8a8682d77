// `npm run lighthouse`: Lighthouse 12 (mobile, the default form factor) accessibility and
// best-practices scores for the landing page, /rides, a ride page and /dashboard, against
// the built worker served by Miniflare on a free loopback port (scripts/e2e-server.mjs:
// fresh local D1 with the demo data). Debian Chromium, no network needed. Writes
// bench/results/lighthouse.json and prints PASS/FAIL per page (accessibility 100,
// best-practices at least 95); exits 1 when any page fails.
//
//   npm run lighthouse          (builds first; `node scripts/lighthouse.mjs` serves build/ as it is)
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { freePort, stopGroup, waitFor } from "./lib/server.mjs";

const THRESHOLDS = { accessibility: 100, "best-practices": 95 };
const DEMO = { identifier: "priya@demo.loopride.in", password: "carpool-bengaluru" };
const CHROME_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

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

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, ["scripts/e2e-server.mjs", String(port)], {
  stdio: ["ignore", "ignore", "inherit"],
  detached: true,
});
// The e2e server forwards the signal to wrangler; its process group holds workerd too.
const stopServer = () => stopGroup(server);
let chrome;
let failed = false;
try {
  await waitFor(`${base}/pricing`, 120_000);
  const cookie = await signIn(base);
  const pages = [
    { name: "landing", path: "/", signedIn: false },
    { name: "rides", path: "/rides", signedIn: true },
    { name: "ride", path: await aRidePath(base, cookie), signedIn: true },
    { name: "dashboard", path: "/dashboard", signedIn: true },
  ];

  chrome = await launch({ chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", chromeFlags: CHROME_FLAGS });
  const results = [];
  let lighthouseVersion = "";
  let hostUserAgent = "";
  for (const p of pages) {
    const url = `${base}${p.path}`;
    const runner = await lighthouse(
      url,
      {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: Object.keys(THRESHOLDS),
        extraHeaders: p.signedIn ? { Cookie: cookie } : undefined,
      },
      // Default config: mobile form factor and screen emulation.
      undefined,
    );
    const lhr = runner.lhr;
    lighthouseVersion = lhr.lighthouseVersion;
    hostUserAgent = lhr.environment.hostUserAgent;
    if (lhr.runtimeError) throw new Error(`${p.name}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    if (new URL(lhr.finalDisplayedUrl).pathname !== p.path)
      throw new Error(`${p.name}: ended on ${lhr.finalDisplayedUrl}, not ${p.path}`);
    const scores = {};
    const failing = [];
    for (const [id, threshold] of Object.entries(THRESHOLDS)) {
      const category = lhr.categories[id];
      scores[id] = Math.round((category.score ?? 0) * 100);
      for (const ref of category.auditRefs) {
        const audit = lhr.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 1)
          failing.push({ category: id, id: ref.id, title: audit.title, score: audit.score });
      }
      if (scores[id] < threshold) failed = true;
    }
    const pass = Object.entries(THRESHOLDS).every(([id, t]) => scores[id] >= t);
    results.push({ page: p.name, path: p.path, signedIn: p.signedIn, scores, pass, failingAudits: failing });
    console.log(
      `${pass ? "PASS" : "FAIL"}  ${p.name.padEnd(10)} ${p.path.padEnd(24)} accessibility ${String(scores.accessibility).padStart(3)}  best-practices ${String(scores["best-practices"]).padStart(3)}`,
    );
    for (const f of failing) console.log(`        ${f.category}: ${f.id} (${f.title})`);
  }
  mkdirSync("bench/results", { recursive: true });
  const report = {
    date: new Date().toISOString(),
    lighthouse: lighthouseVersion,
    chromium: hostUserAgent,
    formFactor: "mobile",
    thresholds: THRESHOLDS,
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
