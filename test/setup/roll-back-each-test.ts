import { env } from "cloudflare:test";
import { afterEach, beforeEach } from "vitest";

// vitest-pool-workers 0.13+ has no per-test storage roll-back (ADR 0043), and the unit stage
// runs every file in one runtime (vitest.config.ts), so the files share one D1. The tests count
// whole tables ("nothing is stored"), so D1 is put back here in one batch (one transaction;
// foreign keys checked at its end):
// - at the start of every file, to the migrated database;
// - after every test that wrote, to the state it began in: the migrated database plus the
//   file's beforeAll rows.
// Only the rows that differ are written back (by rowid), so a seeded city costs a read, not a
// rewrite. Durable Objects and R2 keep their storage; every test's users have ids of their own.
type Row = Record<string, unknown> & { __rowid: number };
type Snapshot = Map<string, Map<number, string>>;

const tables = (
  await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
  ).all<{ name: string }>()
).results.map((t) => t.name);

// Generated columns (communities.name_key) cannot be written: they are left out of the
// snapshot and come back from the columns they are computed from.
const storedColumns = new Map(
  (
    await env.DB.batch(
      tables.map((t) => env.DB.prepare("SELECT name FROM pragma_table_xinfo(?) WHERE hidden = 0").bind(t)),
    )
  ).map((r, i) => [tables[i], (r.results as { name: string }[]).map((c) => `"${c.name}"`).join(", ")]),
);

/** The rows of `names`, by rowid, each as its JSON: one round trip for them all. */
async function readTables(names: string[]): Promise<Snapshot> {
  const results = await env.DB.batch(
    names.map((t) => env.DB.prepare(`SELECT rowid AS __rowid, ${storedColumns.get(t)} FROM "${t}"`)),
  );
  return new Map(
    names.map((t, i) => [
      t,
      new Map((results[i].results as Row[]).map(({ __rowid, ...row }) => [__rowid, JSON.stringify(row)])),
    ]),
  );
}

const read = () => readTables(tables);

// D1 binds at most 100 values a statement, so rows go as JSON (json_each hands SQLite's own
// types back; no column is a BLOB), in chunks a statement can carry.
const CHUNK_CHARS = 500_000;
function jsonChunks(items: string[]): string[] {
  const chunks: string[] = [];
  let chunk: string[] = [];
  let chars = 0;
  for (const item of items) {
    if (chunk.length && chars + item.length > CHUNK_CHARS) {
      chunks.push(`[${chunk.join(",")}]`);
      chunk = [];
      chars = 0;
    }
    chunk.push(item);
    chars += item.length;
  }
  if (chunk.length) chunks.push(`[${chunk.join(",")}]`);
  return chunks;
}

/** The statements that turn `now` back into `then` for one table: update, insert, delete. */
function rollBack(table: string, then: Map<number, string>, now: Map<number, string>) {
  const changed: string[] = [];
  const missing: string[] = [];
  const extra: number[] = [];
  for (const [rowid, json] of then) {
    const current = now.get(rowid);
    if (current === undefined) missing.push(json.replace(/^\{/, `{"__rowid":${rowid},`));
    else if (current !== json) changed.push(json.replace(/^\{/, `{"__rowid":${rowid},`));
  }
  for (const rowid of now.keys()) if (!then.has(rowid)) extra.push(rowid);
  const sample = JSON.parse((changed[0] ?? missing[0] ?? "{}") as string) as Record<string, unknown>;
  const columns = Object.keys(sample).filter((c) => c !== "__rowid");
  const statements = {
    update: [] as D1PreparedStatement[],
    insert: [] as D1PreparedStatement[],
    remove: [] as D1PreparedStatement[],
  };
  const sets = columns.map((c) => `"${c}" = j.value ->> '$.${c}'`).join(", ");
  for (const json of jsonChunks(changed)) {
    statements.update.push(
      env.DB.prepare(
        `UPDATE "${table}" SET ${sets} FROM json_each(?) AS j WHERE "${table}".rowid = j.value ->> '$.__rowid'`,
      ).bind(json),
    );
  }
  const names = ["rowid", ...columns].map((c) => `"${c}"`).join(", ");
  const values = ["__rowid", ...columns].map((c) => `value ->> '$.${c}'`).join(", ");
  for (const json of jsonChunks(missing)) {
    statements.insert.push(
      env.DB.prepare(`INSERT INTO "${table}" (${names}) SELECT ${values} FROM json_each(?)`).bind(json),
    );
  }
  for (const json of jsonChunks(extra.map(String))) {
    statements.remove.push(
      env.DB.prepare(`DELETE FROM "${table}" WHERE rowid IN (SELECT value FROM json_each(?))`).bind(json),
    );
  }
  return statements;
}

/**
 * Old rows get their values back first, so none still points at a row about to go (a
 * cascade would take it along); then the missing rows return and the new ones go. The
 * triggers are dropped for the roll-back and made again in the same transaction: a guard
 * ("payment already settled") must not refuse it, and the counters that triggers keep (ride
 * stats, rating totals) come back as stored, not counted again.
 */
async function restore(snapshot: Snapshot) {
  // A test's ANALYZE leaves statistics that change later files' query plans (ADR 0016: the
  // app runs without them); they go with the test, and the planner forgets what it loaded.
  const stats = await env.DB.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat1'").first();
  if (stats) {
    await env.DB.prepare("DROP TABLE sqlite_stat1").run();
    await env.DB.prepare("ANALYZE sqlite_schema").run();
    await env.DB.prepare("DROP TABLE IF EXISTS sqlite_stat1").run();
  }
  const all = {
    update: [] as D1PreparedStatement[],
    insert: [] as D1PreparedStatement[],
    remove: [] as D1PreparedStatement[],
  };
  const now = await readTables(tables);
  for (const table of tables) {
    const s = rollBack(table, snapshot.get(table)!, now.get(table)!);
    all.update.push(...s.update);
    all.insert.push(...s.insert);
    all.remove.push(...s.remove);
  }
  const statements = [...all.update, ...all.insert, ...all.remove];
  if (!statements.length) return;
  const triggers = (
    await env.DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all<{
      name: string;
      sql: string;
    }>()
  ).results;
  await env.DB.batch([
    env.DB.prepare("PRAGMA defer_foreign_keys = on"),
    ...triggers.map((t) => env.DB.prepare(`DROP TRIGGER "${t.name}"`)),
    ...statements,
    ...triggers.map((t) => env.DB.prepare(t.sql)),
  ]);
}

// Profile photos live in R2 (AVATARS), which the old pool rolled back with D1: a test that
// removes one must not remove it for the tests after it. Few objects, so all are kept.
type Stored = { etag: string; body: ArrayBuffer; httpMetadata?: R2HTTPMetadata };
async function listAll(): Promise<R2Object[]> {
  const objects: R2Object[] = [];
  let cursor: string | undefined;
  do {
    const page = await env.AVATARS.list({ cursor, include: ["httpMetadata"] });
    objects.push(...page.objects);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return objects;
}
async function readBucket(): Promise<Map<string, Stored>> {
  const kept = new Map<string, Stored>();
  for (const o of await listAll()) {
    const body = await env.AVATARS.get(o.key);
    if (body) kept.set(o.key, { etag: o.etag, body: await body.arrayBuffer(), httpMetadata: o.httpMetadata });
  }
  return kept;
}
async function restoreBucket(kept: Map<string, Stored>) {
  const now = new Map((await listAll()).map((o) => [o.key, o.etag]));
  const extra = [...now.keys()].filter((k) => !kept.has(k));
  if (extra.length) await env.AVATARS.delete(extra);
  for (const [key, o] of kept) {
    if (now.get(key) !== o.etag) await env.AVATARS.put(key, o.body, { httpMetadata: o.httpMetadata });
  }
}
const bucket = globalThis as { __keptBucket?: Map<string, Stored> };

// The first file keeps the migrated database; this module is evaluated again for every file.
const run = globalThis as { __migratedDatabase?: Snapshot };
if (run.__migratedDatabase) await restore(run.__migratedDatabase);
else run.__migratedDatabase = await read();
if (bucket.__keptBucket) await restoreBucket(bucket.__keptBucket);
else bucket.__keptBucket = await readBucket();
let keptBucket = bucket.__keptBucket;

// SQLite's count of rows written on D1's one connection: a test that wrote nothing needs no
// roll-back, and a hook that wrote nothing since the last snapshot needs no new one.
const changes = async () => (await env.DB.prepare("SELECT total_changes() AS n").first<{ n: number }>())!.n;
let snapshot: Snapshot = run.__migratedDatabase;
let snapshotAt = await changes();
let testStartedAt = snapshotAt;

beforeEach(async () => {
  keptBucket = await readBucket();
  const now = await changes();
  if (now !== snapshotAt) {
    snapshot = await read();
    snapshotAt = await changes();
  }
  testStartedAt = snapshotAt;
});

afterEach(async () => {
  await restoreBucket(keptBucket);
  if ((await changes()) === testStartedAt) return;
  await restore(snapshot);
  snapshotAt = await changes();
  testStartedAt = snapshotAt;
});
