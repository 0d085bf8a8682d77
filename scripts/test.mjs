// npm test: build, typecheck, unit + integration tests in workerd (vitest), then the
// browser journeys (Playwright, JS on and off). Every stage runs even if an earlier
// one failed, so one run reports everything; the exit code is non-zero on any failure.
// The last line is the combined count: "N passed, N failed".
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { bin, run } from "./lib/process.mjs";
import { summarise } from "./lib/test-summary.mjs";

rmSync(".cache/reports", { recursive: true, force: true });
mkdirSync(".cache/reports", { recursive: true });

const failedStages = new Set();
const collectedNothing = (file) => {
  if (!existsSync(file)) return true;
  const r = JSON.parse(readFileSync(file, "utf8"));
  return r.numTotalTests === 0;
};
// vitest-pool-workers occasionally fails to roll back a test's isolated storage after the
// test body has passed ("Network connection lost" from updateStackedStorage: the local D1
// object was reset under the runner). That is the harness, not the app: when it is the only
// kind of failure, the suite is run once more and the second run counts.
const onlyHarnessFailures = (file) => {
  if (!existsSync(file)) return false;
  const r = JSON.parse(readFileSync(file, "utf8"));
  const failed = (r.testResults ?? []).flatMap((f) => (f.assertionResults ?? []).filter((a) => a.status === "failed"));
  return (
    failed.length > 0 &&
    failed.every((a) => a.failureMessages.length > 0 && a.failureMessages.every((m) => /updateStackedStorage|Isolated storage failed/.test(m)))
  );
};
let extraFailed = 0;
const stage = async (name, cmd, args) => {
  console.log(`\n== ${name}`);
  try {
    await run(cmd, args);
    return true;
  } catch (e) {
    console.error(`${name} failed: ${e.message}`);
    failedStages.add(name);
    return false;
  }
};

const built = await stage("build", bin("remix"), ["vite:build"]);
if (!(await stage("typecheck", bin("tsc"), ["--noEmit"]))) extraFailed++;
let bundleOk = false;
if (built) {
  // The gzipped worker (1 MiB) and every page's initial JS (130 KB): one test per check.
  bundleOk = await stage("worker bundle budget", "node", ["scripts/check-bundle.mjs", "--no-build"]);
  const unitOk = await stage("unit and integration tests (workerd)", "npm", ["run", "test:unit", "--silent"]);
  // workerd occasionally fails to start the pool and vitest then collects no test at all;
  // that (and only that) is retried once. A failing test is never retried.
  if (!unitOk && collectedNothing(".cache/reports/vitest.json")) {
    failedStages.delete("unit and integration tests (workerd)");
    console.log("vitest collected no tests (runtime start-up failure); retrying once");
    await stage("unit and integration tests (workerd, retry)", "npm", ["run", "test:unit", "--silent"]);
  } else if (!unitOk && onlyHarnessFailures(".cache/reports/vitest.json")) {
    failedStages.delete("unit and integration tests (workerd)");
    console.log("the only vitest failures were isolated-storage roll-backs after passing tests (harness); running the suite once more");
    await stage("unit and integration tests (workerd, retry)", "npm", ["run", "test:unit", "--silent"]);
  }
  // The fuzzer and the WebSocket files run in a runtime of their own without per-test storage
  // roll-back (vitest.fuzz.config.ts; see vitest.config.ts for why).
  const fuzzOk = await stage("fuzzing and live sockets (workerd)", "npm", ["run", "test:fuzz", "--silent"]);
  if (!fuzzOk && collectedNothing(".cache/reports/vitest-fuzz.json")) {
    failedStages.delete("fuzzing and live sockets (workerd)");
    console.log("the fuzzer collected no tests (runtime start-up failure); retrying once");
    await stage("fuzzing and live sockets (workerd, retry)", "npm", ["run", "test:fuzz", "--silent"]);
  }
  await stage("browser tests (Chromium, JS on and off)", bin("playwright"), ["test"]);
} else {
  extraFailed++;
}

const { passed, failed, failures } = summarise({ dir: ".cache/reports", built, extraFailed });
const ok = failed === 0 && failedStages.size === 0;
if (failedStages.size > 0 || failures.length > 0) {
  console.log("\nWhat failed:");
  for (const name of failedStages) console.log(`- stage: ${name}`);
  for (const line of failures) console.log(`- ${line}`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
