// Seeds the local D1 database with demo data when it is empty, through the same
// factories the tests use. Run with vite-node (TypeScript, no build step):
//   vite-node --config scripts/vite-node.config.ts scripts/seed.ts -- [--persist-to DIR] [--pepper VALUE] [--migrate]
// With --migrate it first applies the migrations wrangler has not recorded as applied
// (applyMigrations); `npm start` and ops use `wrangler d1 migrations apply` instead.
import { readdirSync, readFileSync } from "node:fs";
import { getPlatformProxy, unstable_splitSqlQuery } from "wrangler";
import type { AppEnv } from "../app/utils/env.server";
import { isDatabaseEmpty, seedDemo } from "../db/seed";
import { createDb } from "../app/models/db.server";

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const persistTo = opt("--persist-to");

/**
 * What `wrangler d1 migrations apply DB --local` does, in this process: each unapplied file of
 * migrations/, in number order, with its row in d1_migrations, as one batch. wrangler starts a
 * local runtime for every file, about 20 s of CPU for the 27 files (issue 17: the journeys' server
 * starts from a fresh database on every `npm test`); the same SQL, split by wrangler's own
 * splitter, is applied here in about a second, and wrangler reads the result as its own.
 */
async function applyMigrations(db: D1Database) {
  await db
    .prepare(
      // wrangler's statement, to the character: sqlite_master keeps the text, and a schema
      // compared with a database wrangler migrated must not differ in it.
      "CREATE TABLE IF NOT EXISTS d1_migrations(\n\t\tid         INTEGER PRIMARY KEY AUTOINCREMENT,\n\t\tname       TEXT UNIQUE,\n\t\tapplied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL\n);",
    )
    .run();
  const applied = new Set(
    (await db.prepare("SELECT name FROM d1_migrations").all<{ name: string }>()).results.map((r) => r.name),
  );
  const files = readdirSync("migrations")
    .filter((f) => f.endsWith(".sql") && !applied.has(f))
    .sort((a, b) => parseInt(a) - parseInt(b));
  for (const name of files) {
    const statements = unstable_splitSqlQuery(readFileSync(`migrations/${name}`, "utf8"));
    await db.batch([
      ...statements.map((s) => db.prepare(s)),
      db.prepare("INSERT INTO d1_migrations (name) VALUES (?)").bind(name),
    ]);
  }
  return files.length;
}

const proxy = await getPlatformProxy<AppEnv>({
  configPath: "wrangler.toml",
  persist: persistTo ? { path: `${persistTo}/v3` } : true,
});
try {
  if (args.includes("--migrate")) console.log(`Applied ${await applyMigrations(proxy.env.DB)} migrations.`);
  const pepper = opt("--pepper") ?? proxy.env.PASSWORD_PEPPER;
  if (!pepper) throw new Error("PASSWORD_PEPPER is not set (.dev.vars or --pepper)");
  const db = createDb(proxy.env.DB);
  if (await isDatabaseEmpty({ db })) {
    await seedDemo({ db }, { pepper });
    console.log("Seeded demo data (password for every demo user: see README).");
  } else {
    console.log("Database already has data; not seeding.");
  }
} finally {
  await proxy.dispose();
}
