// npm run db:backup [-- --remote] [--persist-to DIR] [--output FILE]
// Exports the whole D1 database (schema + data) as SQL. Local by default (the database
// `npm start` uses, or --persist-to DIR); --remote exports the production database.
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { configForState, wrangler } from "./d1-local.mjs";

const args = process.argv.slice(2);
const opt = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const remote = args.includes("--remote");
const stamp = new Date().toISOString().replace(/[:.]/g, "-");
const output = opt("--output") ?? `backups/loopride-${remote ? "remote" : "local"}-${stamp}.sql`;
mkdirSync(dirname(output), { recursive: true });
const where = remote
  ? ["--remote"]
  : ["--local", ...(opt("--persist-to") ? ["-c", configForState(opt("--persist-to"))] : [])];
await wrangler(["d1", "export", "DB", ...where, "--output", output]);
console.log(`Backup written to ${output}`);
