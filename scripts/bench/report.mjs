// How every bench script ends: its verdicts as a table, the report as JSON and Markdown under
// bench/results, and the Markdown printed.
import { mkdirSync, writeFileSync } from "node:fs";

/** The verdicts as Markdown table lines. */
export const verdictTable = (verdicts) => [
  "| Budget | Result | Measured |",
  "|---|---|---|",
  ...verdicts.map((v) => `| ${v.budget} | ${v.pass ? "PASS" : "FAIL"} | ${v.measured} |`),
];

/** Writes bench/results/<name>.json and .md. */
export function writeResults(name, report, md) {
  mkdirSync("bench/results", { recursive: true });
  writeFileSync(`bench/results/${name}.json`, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(`bench/results/${name}.md`, md);
}
