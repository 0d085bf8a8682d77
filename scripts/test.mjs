// npm test: build, typecheck, unit + integration tests in workerd (vitest), then the
// browser journeys (Playwright, JS on and off). Every stage runs even if an earlier
// one failed, so one run reports everything; the exit code is non-zero on any failure.
// The last line is the combined count: "N passed, N failed" (the typecheck and the format and
// lint check each count one failed when they fail). Nothing is retried: a red
// stage is red (ADR 0031 says why the harness faults that once needed a rerun are gone).
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { bin } from "./lib/process.mjs";
import { freePort, waitFor } from "./lib/server.mjs";
import { summarise } from "./lib/test-summary.mjs";

rmSync(".cache/reports", { recursive: true, force: true });
mkdirSync(".cache/reports", { recursive: true });

const failedStages = new Set();
const timings = [];
const seconds = (t0) => Math.round((performance.now() - t0) / 1000);

/**
 * Runs one stage. With `quiet`, its output is held and printed when it ends, so a stage that
 * runs beside another does not interleave its lines with the other's.
 */
function stage(name, cmd, args, { quiet = false } = {}) {
  const t0 = performance.now();
  if (!quiet) console.log(`\n== ${name}`);
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit" });
    let held = "";
    if (quiet) {
      child.stdout.on("data", (d) => (held += d));
      child.stderr.on("data", (d) => (held += d));
    }
    child.on("exit", (code) => {
      if (quiet) console.log(`\n== ${name}\n${held}`);
      timings.push(`${name}: ${seconds(t0)} s`);
      if (code !== 0) {
        console.error(`${name} failed: ${cmd} ${args.join(" ")} exited with ${code}`);
        failedStages.add(name);
      }
      resolve(code === 0);
    });
  });
}

/**
 * The browser journeys' server (scripts/e2e-server.mjs: migrations, seed, bundle, then two
 * Miniflares), started as soon as the build is done. Its start-up takes about a minute of one
 * core; begun by Playwright, that minute came after the fuzzing stage with nothing else to do
 * in the browser stage, while beside the two vitest runtimes it uses the CPU they leave idle
 * (about an eighth of both cores). Playwright is told not to start one (E2E_SERVER=started).
 */
async function startE2eServer() {
  const t0 = performance.now();
  process.env.E2E_PORT = String(await freePort());
  process.env.E2E_LOAD_PORT = String(await freePort());
  process.env.E2E_SERVER = "started";
  const child = spawn("node", ["scripts/e2e-server.mjs", process.env.E2E_PORT, process.env.E2E_LOAD_PORT], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  child.stderr.on("data", (d) => (log += d));
  process.on("exit", () => child.kill("SIGTERM"));
  const ready = waitFor(`http://127.0.0.1:${process.env.E2E_PORT}/pricing`, 300_000, { child, stderr: () => log }).then(
    () => {
      timings.push(`e2e server start-up: ${seconds(t0)} s`);
      return true;
    },
    (e) => {
      console.error(`The e2e server did not start: ${e.message}`);
      return false;
    },
  );
  // SIGTERM lets it stop Miniflare and remove its databases and bundle.
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", resolve);
      child.kill("SIGTERM");
      setTimeout(() => child.kill("SIGKILL"), 10_000).unref();
    });
  return { ready, stop, log: () => log };
}

const started = performance.now();
let extraFailed = 0;
// The typecheck reads only sources and nothing waits for it: it starts beside the build (one core
// each) and goes on beside the tests, which start as soon as the build is done (waiting for it
// left a core idle for 10-17 s after the build). Its output is held and printed when it ends.
const typecheck = stage("typecheck", bin("tsc"), ["--noEmit"], { quiet: true });
// The formatter and linter (Biome, biome.json): a file not formatted as `npm run format` would
// write it, or a lint rule broken, fails this stage. Half a second; run beside the typecheck.
const lint = stage("format and lint (biome ci)", bin("biome"), ["ci", "."], { quiet: true });
const built = await stage("build", bin("remix"), ["vite:build"]);
if (built) {
  // The fuzzer and the WebSocket files run in a runtime of their own without per-test storage
  // roll-back (vitest.fuzz.config.ts; see vitest.config.ts for why). Each runtime runs its
  // files one after another on one core, so the two run side by side, with the e2e server
  // starting beside them; the browser stage starts when the shorter fuzzing stage ends, beside
  // the end of the unit stage. The vitest output is held and printed when each ends.
  const e2eServer = await startE2eServer();
  await Promise.all([
    // The gzipped worker (1 MiB) and every page's initial JS (130 KB): one test per check.
    stage("worker bundle budget", "node", ["scripts/check-bundle.mjs", "--no-build"], { quiet: true }),
    stage("unit and integration tests (workerd)", "npm", ["run", "test:unit", "--silent"], { quiet: true }),
    (async () => {
      await stage("fuzzing and live sockets (workerd)", "npm", ["run", "test:fuzz", "--silent"], { quiet: true });
      const browserStage = "browser tests (Chromium, JS on and off)";
      if (await e2eServer.ready) await stage(browserStage, bin("playwright"), ["test"]);
      else failedStages.add(browserStage);
    })(),
  ]);
  await e2eServer.stop();
  const serverLog = e2eServer.log().trim();
  if (serverLog) console.log(`\n== e2e server (its stderr)\n${serverLog}`);
} else {
  extraFailed++;
}
if (!(await typecheck)) extraFailed++;
if (!(await lint)) extraFailed++;

const { passed, failed, failures } = summarise({ dir: ".cache/reports", built, extraFailed });
const ok = failed === 0 && failedStages.size === 0;
console.log(`\nTime per stage: ${timings.join("; ")}; in all ${seconds(started)} s.`);
if (failedStages.size > 0 || failures.length > 0) {
  console.log("\nWhat failed:");
  for (const name of failedStages) console.log(`- stage: ${name}`);
  for (const line of failures) console.log(`- ${line}`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
