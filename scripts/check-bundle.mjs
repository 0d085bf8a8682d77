// npm run check:bundle: bundles the worker as `wrangler deploy` would (dry run, no
// account needed) and reports its gzipped size against the 1 MiB budget.
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { bin, run } from "./lib.mjs";

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
console.log(`Worker bundle: ${kib(raw)} raw, ${kib(gz)} gzipped (budget ${kib(BUDGET)} gzipped)`);
if (gz > BUDGET) {
  console.error("FAIL: the gzipped worker bundle is over budget.");
  process.exit(1);
}
console.log("PASS");
