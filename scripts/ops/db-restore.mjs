// npm run db:restore -- FILE [--persist-to DIR] [--remote]
// Imports a backup made by db:backup into a FRESH database: locally into DIR (default
// .wrangler/state, the database `npm start` uses), which must not hold a LoopRide database
// yet; with --remote, into the remote database bound in wrangler.toml (create a new, empty
// D1 database and bind it first: restoring over live data is refused by the CREATE TABLEs).
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { restoreOrder, tableChecksums, wrangler } from "./d1-local.mjs";

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const file = args.find((a, i) => !a.startsWith("--") && !["--persist-to"].includes(args[i - 1]));
if (!file || !existsSync(file)) {
  console.error("Usage: npm run db:restore -- <backup.sql> [--persist-to DIR] [--remote]");
  process.exit(2);
}
const ordered = join(mkdtempSync(join(tmpdir(), "loopride-restore-")), "restore.sql");
writeFileSync(ordered, restoreOrder(readFileSync(file, "utf8")));
// wrangler prints a JSON result for every statement (about 24,000 for the demo city): keep
// its summary line only; its errors still go to stderr.
const summary = (out) =>
  out
    .split("\n")
    .find((l) => /commands executed/.test(l))
    ?.trim() ?? "";
if (args.includes("--remote")) {
  console.log(
    summary(await wrangler(["d1", "execute", "DB", "--remote", "--yes", "--file", ordered], { capture: true })),
  );
} else {
  const persistTo = opt("--persist-to") ?? ".wrangler/state";
  const d1Dir = join(persistTo, "v3", "d1");
  if (existsSync(d1Dir) && readdirSync(d1Dir).length > 0) {
    console.error(
      `${persistTo} already has a local D1 database; restore into a fresh directory (--persist-to DIR) or move it aside.`,
    );
    process.exit(1);
  }
  const out = await wrangler(
    ["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--yes", "--file", ordered],
    {
      capture: true,
    },
  );
  console.log(summary(out));
  const sums = await tableChecksums(persistTo);
  console.log(`Restored into ${persistTo}:`);
  for (const [t, s] of Object.entries(sums)) console.log(`  ${t.padEnd(24)} ${String(s.rows).padStart(8)} rows`);
}
