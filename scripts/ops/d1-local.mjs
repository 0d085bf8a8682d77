// Helpers for the backup and restore commands: run wrangler's D1 commands against a
// chosen local state directory (the developer's .wrangler/state by default).
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { run } from "../lib/process.mjs";

export const WRANGLER = resolve("node_modules/.bin/wrangler");

export function wrangler(args, { capture = false } = {}) {
  return run(WRANGLER, args, { capture, env: { ...process.env, CI: "true" } });
}

/**
 * `wrangler d1 export --local` has no --persist-to: it reads <config dir>/.wrangler/state.
 * For another state directory, point a throwaway config (same D1 binding) at it.
 */
export function configForState(persistTo) {
  const dir = mkdtempSync(join(tmpdir(), "loopride-d1-"));
  mkdirSync(join(dir, ".wrangler"));
  symlinkSync(resolve(persistTo), join(dir, ".wrangler", "state"), "dir");
  const toml = readFileSync("wrangler.toml", "utf8");
  const d1 = /\[\[d1_databases\]\][\s\S]*?(?=\n\[|$)/.exec(toml)?.[0];
  if (!d1) throw new Error("no [[d1_databases]] in wrangler.toml");
  writeFileSync(
    join(dir, "wrangler.toml"),
    `name = "loopride-ops"\ncompatibility_date = "2025-09-01"\n${d1.replace(/migrations_dir\s*=.*\n?/, "")}\n`,
  );
  return join(dir, "wrangler.toml");
}

/** Row count and a SHA-256 of every row (in rowid order) of every table, and of the schema
 * (tables, indexes, triggers): equal means equal data. Two wrangler calls. */
export async function tableChecksums(persistTo) {
  const { createHash } = await import("node:crypto");
  const q = async (sql) =>
    JSON.parse(
      await wrangler(["d1", "execute", "DB", "--local", "--persist-to", persistTo, "--json", "--command", sql], {
        capture: true,
      }),
    );
  const [{ results: tables }] = await q(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY name",
  );
  const names = tables.map((r) => r.name);
  const selects = [
    ...names.map((t) => `SELECT * FROM "${t}" ORDER BY rowid`),
    "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY type, name",
  ];
  const results = await q(selects.join("; "));
  const sum = (rows) => ({
    rows: rows.length,
    sha256: createHash("sha256").update(JSON.stringify(rows)).digest("hex"),
  });
  const out = {};
  names.forEach((t, i) => (out[t] = sum(results[i].results)));
  out["(schema: tables, indexes, triggers)"] = sum(results[names.length].results);
  return out;
}

/** Splits SQL text into statements (quotes and trigger bodies respected). */
export function splitStatements(sqlText) {
  const out = [];
  let start = 0;
  let quote = null;
  for (let i = 0; i < sqlText.length; i++) {
    const c = sqlText[i];
    if (quote) {
      if (c === quote) quote = null;
      continue;
    }
    if (c === "'" || c === '"' || c === "`") quote = c;
    else if (c === ";") {
      const stmt = sqlText.slice(start, i + 1).trim();
      // A trigger's body holds semicolons; it ends at "END;".
      if (/^CREATE\s+TRIGGER/i.test(stmt) && !/\bEND\s*;$/i.test(stmt)) continue;
      if (stmt !== ";") out.push(stmt);
      start = i + 1;
    }
  }
  const rest = sqlText.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/**
 * `wrangler d1 export` writes each table's CREATE followed by its rows, alphabetically, so a
 * row can reference a table not created yet ("no such table: main.users"). Restore order:
 * every table first, then the rows, then indexes, then triggers (so the rows are not
 * counted twice by the ride stats triggers).
 */
export function restoreOrder(sqlText) {
  const stmts = splitStatements(sqlText);
  const rank = (s) =>
    /^PRAGMA/i.test(s)
      ? 0
      : /^CREATE\s+TABLE/i.test(s)
        ? 1
        : /^INSERT/i.test(s)
          ? 2
          : /^CREATE\s+(UNIQUE\s+)?INDEX/i.test(s)
            ? 3
            : /^CREATE\s+TRIGGER/i.test(s)
              ? 4
              : 5;
  return stmts
    .map((s, i) => ({ s, i, r: rank(s) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.s)
    .join("\n");
}
