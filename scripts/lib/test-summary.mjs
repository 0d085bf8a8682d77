// The combined count of `npm test` from the runners' JSON reports, and the names of what
// failed. CI shows only the tail of the log, so the failures are printed just above the count.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const firstLines = (text) =>
  text
    .replace(/\x1b\[[0-9;]*m/g, "")
    .split("\n")
    .slice(0, 3)
    .join(" ")
    .slice(0, 400);

/** @param {{ dir: string, built: boolean, extraFailed: number }} opts */
export function summarise({ dir, built, extraFailed }) {
  let passed = 0;
  let failed = extraFailed;
  const failures = [];
  const budgetReport = join(dir, "budgets.json");
  if (existsSync(budgetReport)) {
    const { checks } = JSON.parse(readFileSync(budgetReport, "utf8"));
    passed += checks.filter((c) => c.ok).length;
    failed += checks.filter((c) => !c.ok).length;
    for (const c of checks.filter((c) => !c.ok)) failures.push(`budget: ${c.name ?? JSON.stringify(c)}`);
  } else if (built) {
    failed++;
  }
  for (const vitestReport of [join(dir, "vitest.json"), join(dir, "vitest-fuzz.json")]) {
    if (existsSync(vitestReport)) {
      const r = JSON.parse(readFileSync(vitestReport, "utf8"));
      passed += r.numPassedTests;
      failed += r.numFailedTests + (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
      // A suite that failed to load reports no tests; count it as a failure.
      failed += (r.testResults ?? []).filter(
        (f) => f.status === "failed" && (f.assertionResults ?? []).length === 0,
      ).length;
      for (const f of r.testResults ?? []) {
        const file = (f.name ?? "").replace(process.cwd() + "/", "");
        if (f.status === "failed" && (f.assertionResults ?? []).length === 0)
          failures.push(`${file}: failed to load: ${(f.message ?? "").slice(0, 300)}`);
        for (const a of (f.assertionResults ?? []).filter((a) => a.status !== "passed")) {
          failures.push(`${file} › ${a.fullName} [${a.status}]: ${firstLines((a.failureMessages ?? []).join(" "))}`);
        }
      }
    } else if (built) {
      failed++;
    }
  }
  const pwReport = join(dir, "playwright.json");
  if (existsSync(pwReport)) {
    const s = JSON.parse(readFileSync(pwReport, "utf8")).stats;
    passed += s.expected;
    failed += s.unexpected + s.flaky + s.skipped;
    const walk = (suite, titles) => {
      for (const spec of suite.specs ?? []) {
        for (const t of spec.tests ?? []) {
          if (t.status === "expected") continue;
          const err = (t.results ?? []).map((x) => x.error?.message ?? "").find(Boolean) ?? "";
          failures.push(
            `${spec.file} › [${t.projectName}] ${[...titles, spec.title].join(" › ")} [${t.status}]: ${firstLines(err)}`,
          );
        }
      }
      for (const child of suite.suites ?? [])
        walk(child, suite.title && !suite.title.endsWith(".ts") ? [...titles, suite.title] : titles);
    };
    for (const suite of JSON.parse(readFileSync(pwReport, "utf8")).suites ?? []) walk(suite, []);
  } else if (built) {
    failed++;
  }
  return { passed, failed, failures };
}
