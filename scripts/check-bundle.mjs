// npm run check:bundle: bundles the worker as `wrangler deploy` would (dry run, no
// account needed) and checks its gzipped size against the 1 MiB budget, then the
// initial JavaScript of every page against 130 KB gzipped. Each check is written to
// .cache/reports/budgets.json (npm test counts them as tests).
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { bin, run } from "./lib/process.mjs";
import { INITIAL_JS_BUDGET, initialJsByRoute } from "./lib/initial-js.mjs";

const BUDGET = 1024 * 1024;
const outdir = ".cache/bundle";
rmSync(outdir, { recursive: true, force: true });
if (!process.argv.includes("--no-build")) await run(bin("remix"), ["vite:build"]);
await run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", outdir]);

let raw = 0;
let gz = 0;
for (const name of readdirSync(outdir)) {
  const file = join(outdir, name);
  if (!statSync(file).isFile() || name.endsWith(".map")) continue;
  const buf = readFileSync(file);
  raw += buf.length;
  gz += gzipSync(buf, { level: 9 }).length;
}
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const checks = [{ name: "worker bundle (gzipped)", value: gz, budget: BUDGET, ok: gz <= BUDGET }];
console.log(`Worker bundle: ${kib(raw)} raw, ${kib(gz)} gzipped (budget ${kib(BUDGET)} gzipped)`);

const report = initialJsByRoute("build/client");
console.log(`Initial JavaScript per page (gzipped, budget ${(INITIAL_JS_BUDGET / 1000).toFixed(0)} KB):`);
for (const [id, r] of Object.entries(report.routes).sort((a, b) => b[1].gzipBytes - a[1].gzipBytes)) {
  const ok = r.gzipBytes <= INITIAL_JS_BUDGET;
  checks.push({ name: `initial JS ${r.pattern} (${id})`, value: r.gzipBytes, budget: INITIAL_JS_BUDGET, ok });
  console.log(`  ${ok ? "PASS" : "FAIL"} ${(r.gzipBytes / 1000).toFixed(1).padStart(6)} KB  ${r.pattern}  ${id}`);
}
mkdirSync(".cache/reports", { recursive: true });
writeFileSync(".cache/reports/budgets.json", JSON.stringify({ checks }, null, 2));
const failed = checks.filter((c) => !c.ok);
if (failed.length) {
  console.error(`FAIL: ${failed.map((c) => c.name).join(", ")} over budget.`);
  process.exit(1);
}
console.log("PASS");
