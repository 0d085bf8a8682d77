// Seeds the local D1 database with demo data when it is empty, through the same
// factories the tests use. Run with vite-node (TypeScript, no build step):
//   vite-node --config scripts/vite-node.config.ts scripts/seed.ts -- [--persist-to DIR] [--pepper VALUE]
// The database must be migrated first: `wrangler d1 migrations apply DB --local [--persist-to DIR]`.
import { getPlatformProxy } from "wrangler";
import type { AppEnv } from "../app/utils/env.server";
import { isDatabaseEmpty, seedDemo } from "../db/seed";
import { createDb } from "../app/models/db.server";

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const persistTo = opt("--persist-to");

const proxy = await getPlatformProxy<AppEnv>({
  configPath: "wrangler.toml",
  persist: persistTo ? { path: `${persistTo}/v3` } : true,
});
try {
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
