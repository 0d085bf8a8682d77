// Backup and restore drill: `npm run db:backup` exports a local database and
// `npm run db:restore` imports it into a fresh one; every table's row count and content
// checksum, and the schema (indexes, triggers), must match. Node-side, no browser.
// The source is a copy of the demo database as the e2e server migrated and seeded it
// (`wrangler d1 migrations apply`, then scripts/seed.ts: scripts/e2e-server.mjs), taken before the
// server opened it:
// doing both again here cost about 45 s of CPU. wrangler must read that database's migration
// records as its own (nothing left to apply), as it would a database it migrated itself.
import { expect, test } from "@playwright/test";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error plain ESM helper without types
import { tableChecksums } from "../../scripts/ops/d1-local.mjs";

const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { encoding: "utf8", env: { ...process.env, CI: "true" } });
  return { code: r.status, out: `${r.stdout}\n${r.stderr}` };
};
// A step that failed shows the end of its output.
const ok = (r: { code: number | null; out: string }) => expect(r.code, r.out.slice(-3000)).toBe(0);

test("a backup restored into a fresh database has the same rows, content and schema", async () => {
  // The demo city (ADR 0053) makes the dump a few MB: restoring it took 1.5 min beside the other
  // stages, and over 4 min on a machine loaded four times over.
  test.setTimeout(480_000);
  const dir = mkdtempSync(join(tmpdir(), "loopride-drill-"));
  const source = join(dir, "source");
  const restored = join(dir, "restored");
  const file = join(dir, "backup.sql");
  try {
    const seeded = `.wrangler/e2e-${process.env.E2E_PORT}-seeded`;
    expect(existsSync(seeded), `${seeded}: the e2e server's seeded copy (playwright.config.ts starts the server)`).toBe(
      true,
    );
    cpSync(seeded, source, { recursive: true });
    const migrate = run("node_modules/.bin/wrangler", [
      "d1",
      "migrations",
      "apply",
      "DB",
      "--local",
      "--persist-to",
      source,
    ]);
    ok(migrate);
    expect(migrate.out).toContain("No migrations to apply");
    // Awkward content survives too: quotes, a newline, non-Latin text, a semicolon.
    const tricky = `INSERT INTO newsletter_subscribers (email, created_at) VALUES ('o''brien;x@example.test', 1), ('ನಮಸ್ಕಾರ@example.test', 2)`;
    ok(
      run("node_modules/.bin/wrangler", [
        "d1",
        "execute",
        "DB",
        "--local",
        "--persist-to",
        source,
        "--command",
        tricky,
      ]),
    );

    const backup = run("node", ["scripts/ops/db-backup.mjs", "--persist-to", source, "--output", file]);
    expect(backup.code, backup.out).toBe(0);
    // Within spawnSync's 1 MB of output: a restore prints a summary, not a result a statement.
    const restore = run("node", ["scripts/ops/db-restore.mjs", file, "--persist-to", restored]);
    expect(restore.code, restore.out).toBe(0);

    const before = await tableChecksums(source);
    const after = await tableChecksums(restored);
    expect(before.users.rows).toBeGreaterThan(0);
    expect(before.newsletter_subscribers.rows).toBe(2);
    expect(after).toEqual(before);

    // Restoring over an existing database is refused and leaves it as it was.
    const again = run("node", ["scripts/ops/db-restore.mjs", file, "--persist-to", source]);
    expect(again.code).toBe(1);
    expect(again.out).toContain("already has a local D1 database");
    expect(await tableChecksums(source)).toEqual(before);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
