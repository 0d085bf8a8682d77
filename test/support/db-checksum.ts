import { env } from "./env";

/**
 * Tables a request may legitimately write even when it is refused or only reads, and
 * therefore left out of "nothing changed" comparisons:
 * - rate_limits: the sign-in / sign-up / newsletter forms count every attempt per client
 *   address (and account) before deciding anything; counting a refused attempt is the point.
 * - d1_migrations, sqlite_*, _cf_*: bookkeeping of the database itself, never app data.
 * Everything else is compared row by row. In particular `sessions` is included: reading a
 * page must not "touch" a session (the app keeps no last-seen column, and must not grow one
 * that is written on GET; expiry is absolute, see docs/decisions/0001-sessions.md).
 */
export const VOLATILE_TABLES = ["rate_limits"] as const;

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

let tables: string[] | null = null;

export async function appTables(): Promise<string[]> {
  if (tables) return tables;
  const rows = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name",
  ).all<{ name: string }>();
  tables = rows.results.map((r) => r.name).filter((n) => !(VOLATILE_TABLES as readonly string[]).includes(n));
  return tables;
}

/**
 * A content hash per table: every row (all columns, in rowid order, which is the primary
 * key order for the integer-keyed tables and insertion order for the text-keyed ones)
 * serialised and hashed. Two snapshots are equal only if no row was inserted, deleted or
 * changed in any column.
 */
export async function dbChecksum(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const names = await appTables();
  // One round trip for all tables (a D1 batch reads one consistent state).
  const results = await env.DB.batch(names.map((name) => env.DB.prepare(`SELECT * FROM "${name}" ORDER BY rowid`)));
  for (const [i, name] of names.entries()) {
    const rows = results[i].results;
    out[name] = `${rows.length}:${await sha256(JSON.stringify(rows))}`;
  }
  return out;
}

/** The tables whose content differs between two snapshots (empty when nothing changed). */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => before[n] !== after[n]).sort();
}
