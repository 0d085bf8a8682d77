// npm start: build, apply local D1 migrations, seed demo data when the database is
// empty, and serve the built worker with wrangler dev on http://127.0.0.1:8787. The worker's
// scheduled work (reminders, expiry, e-mail retries, commute top-up) runs once when the server
// is up and then on the crons of wrangler.toml, which wrangler dev never fires itself.
// npm run dev (--watch): the same, rebuilding on every change (wrangler reloads).
import { readFileSync, watch } from "node:fs";
import { bin, ensureDevVars, run } from "./lib/process.mjs";
import { readCrons, startSchedule } from "./lib/schedule.mjs";
import { startLocalServer, waitFor } from "./lib/server.mjs";

const watchMode = process.argv.includes("--watch");
const port = process.env.PORT ?? "8787";

await ensureDevVars();
await run(bin("remix"), ["vite:build"]);
await run(bin("wrangler"), ["d1", "migrations", "apply", "DB", "--local"], { env: { ...process.env, CI: "true" } });
await run(bin("vite-node"), ["--config", "scripts/vite-node.config.ts", "scripts/seed.ts"]);

const server = await startLocalServer({ port });
server.on("exit", (code) => process.exit(code ?? 0));
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));

const origin = `http://127.0.0.1:${port}`;
await waitFor(`${origin}/pricing`, 300_000, { child: server });
startSchedule(origin, readCrons(readFileSync("wrangler.toml", "utf8")));

if (watchMode) {
  let timer;
  let building = false;
  let again = false;
  const rebuild = async () => {
    if (building) {
      again = true;
      return;
    }
    building = true;
    try {
      await run(bin("remix"), ["vite:build"]);
    } catch (e) {
      console.error(e.message);
    }
    building = false;
    if (again) {
      again = false;
      rebuild();
    }
  };
  for (const dir of ["app", "db", "durable-objects"]) {
    watch(dir, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(rebuild, 200);
    });
  }
  console.log("Watching app/, db/ and durable-objects/ for changes.");
}
