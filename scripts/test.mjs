// npm test: build, typecheck, unit + integration tests in workerd (vitest), then the
// browser journeys (Playwright, JS on and off). Every stage runs even if an earlier
// one failed, so one run reports everything; the exit code is non-zero on any failure.
// The last line is the combined count: "N passed, N failed". Nothing is retried: a red
// stage is red (ADR 0031 says why the harness faults that once needed a rerun are gone).
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { bin } from "./lib/process.mjs";
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

const started = performance.now();
let extraFailed = 0;
// The typecheck reads only sources and nothing waits for it: it starts beside the build (one core
// each) and goes on beside the tests, which start as soon as the build is done (waiting for it
// left a core idle for 10-17 s after the build). Its output is held and printed when it ends.
const typecheck = stage("typecheck", bin("tsc"), ["--noEmit"], { quiet: true });
const built = await stage("build", bin("remix"), ["vite:build"]);
if (built) {
  // The fuzzer and the WebSocket files run in a runtime of their own without per-test storage
  // roll-back (vitest.fuzz.config.ts; see vitest.config.ts for why). Each runtime runs its
  // files one after another on one core, so the two run side by side; the browser stage starts
  // when the shorter fuzzing stage ends, so its server's start-up (one core) overlaps the end
  // of the unit stage (one core). The vitest output is held and printed when each ends.
  await Promise.all([
    // The gzipped worker (1 MiB) and every page's initial JS (130 KB): one test per check.
    stage("worker bundle budget", "node", ["scripts/check-bundle.mjs", "--no-build"], { quiet: true }),
    stage("unit and integration tests (workerd)", "npm", ["run", "test:unit", "--silent"], { quiet: true }),
    (async () => {
      await stage("fuzzing and live sockets (workerd)", "npm", ["run", "test:fuzz", "--silent"], { quiet: true });
      await stage("browser tests (Chromium, JS on and off)", bin("playwright"), ["test"]);
    })(),
  ]);
} else {
  extraFailed++;
}
if (!(await typecheck)) extraFailed++;

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
