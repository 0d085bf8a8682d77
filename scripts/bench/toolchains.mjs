// Issue 39: the bench's measurements on two toolchains in one run, over the same app code, so
// only the toolchain differs. The other toolchain is a second checkout of this code whose
// node_modules hold older wrangler/Miniflare/workerd. Each checkout builds (Remix) and bundles
// (its wrangler) for itself, and is served by its own serve.mjs, imported from that checkout so
// that its Miniflare and workerd run it. This process measures both, taking turns request by
// request (the order flips each round), so the shared machine's drift falls on both alike.
// Both serve a fresh copy of the same seeded datasets (.bench/state, `npm run bench:seed`).
//   node scripts/bench/toolchains.mjs --old <checkout> [--rounds 15] [--no-build]
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { initialJsByRoute, initialJsForPath } from "../lib/initial-js.mjs";
import { bin, run } from "../lib/process.mjs";
import { freePort, waitFor } from "../lib/server.mjs";
import { BENCH_PASSWORD, BENCH_PEPPER, BENCH_SESSION_SECRET, benchDir } from "./config.mjs";
import { connectInspector, profileRequests, summarize } from "./cpu-profile.mjs";
import { signIn } from "./mixed-load.mjs";
import { pairedRatio } from "./paired.mjs";
import { pagesFor, serverTiming } from "./pages.mjs";
import { verdictTable, writeResults } from "./report.mjs";
import { bundleWorker } from "./serve.mjs";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
if (!option("--old")) throw new Error("usage: node scripts/bench/toolchains.mjs --old <checkout> [--rounds n]");
const ROUNDS = Number(option("--rounds", 15));
const WALL_ROUNDS = 2 * ROUNDS;
const HERE = process.cwd();
const SCRATCH = join(HERE, ".cache/toolchains");
// The bench's budgets (run.mjs) that this run can compare.
const BUDGET = { queries: 2, rowsRead: 1000, htmlBytes: 60_000, initialJsBytes: 130_000 };
const CPU_BUDGET = { toFloor: 0.8, toLimit: 5, p99ToP50: 2 };

const toolchains = [
  { label: "old", dir: resolve(option("--old")) },
  { label: "new", dir: HERE },
];
const version = (dir, pkg) => {
  const file = join(dir, "node_modules", pkg, "package.json");
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).version : null;
};

const servers = new Set();
async function stopAll() {
  await Promise.allSettled([...servers].map((s) => s.stop()));
  servers.clear();
}
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(130));

async function prepare(t, build) {
  const remix = join(t.dir, bin("remix"));
  const quiet = { cwd: t.dir, stdio: ["ignore", "ignore", "inherit"] };
  if (build) {
    await run(remix, ["vite:build", "--sourcemapServer"], quiet);
    await run(remix, ["vite:build", "scripts/bench/peer", "--sourcemapServer"], quiet);
  }
  const out = join(SCRATCH, t.label);
  t.bundle = await bundleWorker(join(t.dir, "wrangler.toml"), join(out, "loopride"), { cwd: t.dir });
  t.peerBundle = await bundleWorker(join(t.dir, "scripts/bench/peer/wrangler.toml"), join(out, "peer"), {
    cwd: t.dir,
  });
  // That checkout's modules, so that its own Miniflare (and workerd) serve.
  t.serve = await import(pathToFileURL(join(t.dir, "scripts/bench/serve.mjs")).href);
  t.peer = await import(pathToFileURL(join(t.dir, "scripts/bench/peer.mjs")).href);
  t.js = initialJsByRoute(join(t.dir, "build/client"));
  t.versions = Object.fromEntries(
    ["wrangler", "miniflare", "workerd", "vitest", "@cloudflare/vitest-pool-workers"].map((p) => [
      p,
      version(t.dir, p),
    ]),
  );
}

/** A fresh copy of the seeded dataset for each toolchain: what one writes, the other never sees. */
function freshState(t, size) {
  const to = join(SCRATCH, t.label, "state", size);
  rmSync(to, { recursive: true, force: true });
  cpSync(join(HERE, benchDir(size)), to, { recursive: true });
  return to;
}

async function serve(t, persist, { debug }) {
  const server = await t.serve.serveWorker({
    config: join(t.dir, "wrangler.toml"),
    name: "loopride",
    bundleDir: t.bundle,
    port: await freePort(),
    inspectorPort: await freePort(),
    persist,
    bindings: {
      LOOPRIDE_STAGE: "development",
      SESSION_SECRET: BENCH_SESSION_SECRET,
      PASSWORD_PEPPER: BENCH_PEPPER,
      DEBUG_TIMING: debug ? "1" : "0",
      AUTH_RATE_LIMIT_PER_MINUTE: "100000",
    },
    onStderr: () => {},
  });
  servers.add(server);
  await waitFor(`${server.base}/healthz`, 90_000);
  return server;
}

/** D1 round trips and rows read (steady state, as run.mjs keeps them) per page and toolchain. */
async function counts(size, manifest) {
  const live = [];
  for (const t of toolchains) {
    const server = await serve(t, freshState(t, size), { debug: true });
    live.push({ t, server, busy: await signIn(server.base, manifest.busy.email, BENCH_PASSWORD) });
  }
  const out = {};
  for (const page of pagesFor(manifest))
    for (const { t, server, busy } of live) {
      const headers = page.anonymous ? {} : { Cookie: busy.cookieHeader() };
      const get = () => fetch(server.base + page.path, { headers, redirect: "manual" });
      await (await get()).text();
      const res = await get();
      await res.text();
      const { queries = null, rows_read: rowsRead = null } = serverTiming(res.headers);
      out[page.name] ??= {};
      out[page.name][t.label] = { queries, rowsRead };
    }
  for (const { server } of live) await server.stop().then(() => servers.delete(server));
  return out;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p99 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(0.99 * xs.length) - 1)];
const r2 = (x) => (x == null || Number.isNaN(x) ? null : Math.round(x * 100) / 100);

/**
 * CPU per page for LoopRide and each toolchain's peer (floor and limit) in one rotation of six
 * profiled requests a round, then the wall time of unprofiled requests, old and new in turn.
 */
async function cpuAndWall(manifest) {
  const live = [];
  for (const t of toolchains) {
    const server = await serve(t, freshState(t, "large"), { debug: false });
    const peer = await t.peer.servePeer(t.peerBundle);
    servers.add(peer);
    const busy = await signIn(server.base, manifest.busy.email, BENCH_PASSWORD);
    live.push({
      t,
      server,
      peer,
      cookie: busy.cookieHeader(),
      inspector: await connectInspector(server.inspectorPort, server.name),
      peerInspector: await connectInspector(peer.inspectorPort, peer.name),
    });
  }
  const fetcher = (base, path, headers) => async () => {
    const res = await fetch(base + path, { headers, redirect: "manual", signal: AbortSignal.timeout(30_000) });
    return res.arrayBuffer();
  };
  const out = {};
  try {
    for (const page of pagesFor(manifest)) {
      const targets = live.flatMap(({ t, server, peer, cookie, inspector, peerInspector }) => [
        {
          key: `${t.label}`,
          inspector,
          request: fetcher(server.base, page.path, page.anonymous ? {} : { Cookie: cookie }),
        },
        { key: `${t.label}:floor`, inspector: peerInspector, request: fetcher(peer.base, "/", {}) },
        { key: `${t.label}:limit`, inspector: peerInspector, request: fetcher(peer.base, "/limit", {}) },
      ]);
      const html = {};
      for (const { t, server, cookie } of live)
        html[t.label] = (await fetcher(server.base, page.path, page.anonymous ? {} : { Cookie: cookie })()).byteLength;
      // Compiled and warm, as in a busy isolate.
      for (let i = 0; i < 3; i++) for (const x of targets) await x.request();
      const samples = Object.fromEntries(targets.map((x) => [x.key, { cpu: [], wall: [], functions: new Map() }]));
      for (let i = 0; i < ROUNDS; i++)
        for (const x of i % 2 ? [...targets].reverse() : targets) {
          const one = await profileRequests(x.inspector, x.request, 1);
          samples[x.key].cpu.push(...one.cpu);
          samples[x.key].wall.push(...one.wall);
        }
      const wall = { old: [], new: [] };
      for (let i = 0; i < WALL_ROUNDS; i++)
        for (const x of i % 2 ? [targets[3], targets[0]] : [targets[0], targets[3]]) {
          const t0 = performance.now();
          await x.request();
          wall[x.key].push(performance.now() - t0);
        }
      // Same-round pairs: round i of old beside round i of new, whatever the machine did then.
      const paired = (a, b) => a.map((x, i) => b[i] / x);
      out[page.name] = {
        cpuPairs: paired(samples.old.cpu, samples.new.cpu),
        wallPairs: paired(wall.old, wall.new),
      };
      for (const { t } of live) {
        const own = summarize(samples[t.label], 0);
        const floor = summarize(samples[`${t.label}:floor`], 0);
        const limit = summarize(samples[`${t.label}:limit`], 0);
        out[page.name][t.label] = {
          htmlBytes: html[t.label],
          cpuP50: own.cpuP50,
          cpuP99: own.cpuP99,
          floorP50: floor.cpuP50,
          limitP50: limit.cpuP50,
          toFloor: r2(own.cpuP50 / floor.cpuP50),
          toLimit: r2(own.cpuP50 / limit.cpuP50),
          p99ToP50: r2(own.cpuP99 / own.cpuP50),
          wallP50: r2(median(wall[t.label])),
          wallP99: r2(p99(wall[t.label])),
        };
      }
      const [o, n] = [out[page.name].old, out[page.name].new];
      console.log(
        `  ${page.name}: CPU p50 old ${o.cpuP50} ms, new ${n.cpuP50} ms (x${r2(median(out[page.name].cpuPairs))}); ` +
          `floor old ${o.floorP50}, new ${n.floorP50}; wall p50 old ${o.wallP50}, new ${n.wallP50} ms`,
      );
    }
  } finally {
    for (const x of live) {
      x.inspector.close();
      x.peerInspector.close();
    }
  }
  return out;
}

const ratio = (n, o) => (o ? r2(n / o) : n === o ? 1 : null);
const pairedCell = (o, n, pairs) => `${o} | ${n} | ${r2(median(pairs))}`;
const cell = (o, n) => `${o} | ${n} | ${ratio(n, o) ?? "—"}`;

function tables(report) {
  const det = [
    "| Page | round trips old | new | ÷ | rows small→large old | new | HTML bytes old | new | ÷ | initial JS gz old | new | ÷ |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const cpu = [
    "| Page | CPU p50 old | new | ÷ | CPU p99 old | new | ÷ floor old | new | ÷ limit old | new | p99÷p50 old | new | wall p50 old | new | ÷ |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  for (const p of report.pages) {
    const { old: o, new: n } = p;
    det.push(
      `| ${p.name} | ${cell(o.queries, n.queries)} | ${o.smallRowsRead}→${o.rowsRead} | ${n.smallRowsRead}→${n.rowsRead} | ${cell(o.htmlBytes, n.htmlBytes)} | ${cell(o.initialJsGz, n.initialJsGz)} |`,
    );
    cpu.push(
      `| ${p.name} | ${pairedCell(o.cpuP50, n.cpuP50, p.cpuPairs)} | ${o.cpuP99} | ${n.cpuP99} | ${o.toFloor} | ${n.toFloor} | ${o.toLimit} | ${n.toLimit} | ${o.p99ToP50} | ${n.p99ToP50} | ${pairedCell(o.wallP50, n.wallP50, p.wallPairs)} |`,
    );
  }
  return { deterministic: det.join("\n"), cpu: cpu.join("\n") };
}

/**
 * Per budget: where it stands on each toolchain, and whether the new one is worse. The counted
 * figures must not grow at all; the timed ones are compared as new ÷ old per page, whose
 * median and spread say more on a shared machine than any one page.
 */
function verdicts(pages) {
  const signedIn = pages.filter((p) => !p.anonymous && p.path !== "/healthz");
  const measured = pages.filter((p) => p.path !== "/healthz");
  const out = [];
  const counted = (name, key, budget) => {
    const grew = measured.filter((p) => (p.new[key] ?? Infinity) > (p.old[key] ?? Infinity));
    const overOld = measured.filter((p) => p.old[key] == null || p.old[key] > budget).length;
    const overNew = measured.filter((p) => p.new[key] == null || p.new[key] > budget).length;
    out.push({
      budget: `${name}: new <= old on every page`,
      pass: grew.length === 0,
      measured: `grew on: ${grew.map((p) => p.name).join(", ") || "none"}; pages over ${budget}: old ${overOld}, new ${overNew}`,
    });
  };
  counted("D1 round trips", "queries", BUDGET.queries);
  counted("rows read (large)", "rowsRead", BUDGET.rowsRead);
  counted("HTML bytes", "htmlBytes", BUDGET.htmlBytes);
  counted("initial JS gz", "initialJsGz", BUDGET.initialJsBytes);
  for (const label of ["old", "new"]) {
    const grows = measured.filter((p) => p[label].rowsRead == null || p[label].rowsRead > p[label].smallRowsRead);
    out.push({
      budget: `rows read flat small -> large (${label})`,
      pass: grows.length === 0,
      measured: `over: ${grows.map((p) => p.name).join(", ") || "none"}`,
    });
  }
  for (const [key, limit] of Object.entries(CPU_BUDGET)) {
    const list = key === "p99ToP50" ? measured : signedIn;
    const failing = (label) => list.filter((p) => !(p[label][key] <= limit)).map((p) => p.name);
    const [o, n] = [failing("old"), failing("new")];
    const newlyOver = n.filter((name) => !o.includes(name));
    out.push({
      budget: `CPU ${key} <= ${limit}: no page over on new that is within on old`,
      pass: newlyOver.length === 0,
      measured: `over on old: ${o.join(", ") || "none"}; over on new: ${n.join(", ") || "none"}`,
    });
  }
  // Timed figures: every same-round pair of every page pooled (paired.mjs).
  for (const [key, what] of [
    ["cpuPairs", "CPU per request"],
    ["wallPairs", "wall time per request"],
  ]) {
    const { n, median: m, low, high, worse } = pairedRatio(measured.flatMap((p) => p[key]));
    out.push({
      budget: `${what}, new ÷ old over every same-round pair: not above 1 beyond the 95 % interval`,
      pass: worse === false,
      measured: `median x${r2(m)} (95 % interval x${r2(low)}-x${r2(high)}, ${n} pairs)`,
    });
  }
  return out;
}

async function main() {
  for (const size of ["large", "small"])
    if (!existsSync(`${benchDir(size)}/manifest.json`))
      throw new Error(`${benchDir(size)}/manifest.json missing: run npm run bench:seed first`);
  const started = performance.now();
  const loadAvgAtStart = os.loadavg().map(r2);
  for (const t of toolchains) {
    console.log(`${t.label} toolchain (${t.dir}): build and bundle...`);
    await prepare(t, !args.includes("--no-build"));
    console.log(`  ${JSON.stringify(t.versions)}`);
  }
  const manifests = Object.fromEntries(
    ["small", "large"].map((s) => [s, JSON.parse(readFileSync(`${benchDir(s)}/manifest.json`, "utf8"))]),
  );
  console.log("D1 round trips and rows read, small and large...");
  const small = await counts("small", manifests.small);
  const large = await counts("large", manifests.large);
  console.log(`CPU and wall time, large, ${ROUNDS} rounds of six profiled requests a page...`);
  const timed = await cpuAndWall(manifests.large);
  const pages = pagesFor(manifests.large).map((p) => {
    const { cpuPairs, wallPairs } = timed[p.name];
    const row = { name: p.name, path: p.path, anonymous: p.anonymous ?? false, cpuPairs, wallPairs };
    for (const t of toolchains) {
      const js = p.path === "/healthz" ? 0 : (initialJsForPath(t.js, p.path)?.gzipBytes ?? null);
      row[t.label] = {
        ...large[p.name][t.label],
        smallRowsRead: small[p.name]?.[t.label].rowsRead ?? null,
        initialJsGz: js,
        ...timed[p.name][t.label],
      };
    }
    return row;
  });
  const report = {
    date: new Date().toISOString(),
    rounds: ROUNDS,
    machine: { cpus: os.cpus().length, node: process.version, loadAvgAtStart, loadAvgAtEnd: os.loadavg().map(r2) },
    seconds: Math.round((performance.now() - started) / 1000),
    toolchains: Object.fromEntries(toolchains.map((t) => [t.label, { dir: t.dir, versions: t.versions }])),
    pages,
    verdicts: verdicts(pages),
  };
  const { deterministic, cpu } = tables(report);
  const md = [
    `# Old and new toolchain, same run (${report.date})`,
    "",
    `old: ${JSON.stringify(report.toolchains.old.versions)}; new: ${JSON.stringify(report.toolchains.new.versions)}.`,
    `${report.seconds} s; load average ${loadAvgAtStart.join("/")} at start, ${report.machine.loadAvgAtEnd.join("/")} at end.`,
    "",
    deterministic,
    "",
    `CPU (ms, ${ROUNDS} profiled requests per page and target, six targets in turn) and wall time (ms, ${WALL_ROUNDS} unprofiled requests each, old and new in turn):`,
    "",
    cpu,
    "",
    ...verdictTable(report.verdicts),
    "",
  ].join("\n");
  writeResults("toolchains-latest", report, md);
  console.log(`\n${md}`);
}

try {
  await main();
} catch (e) {
  console.error(e);
  process.exitCode = 1;
} finally {
  await stopAll();
}
