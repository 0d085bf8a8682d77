// Serves the already-built worker for the browser tests: a fresh local D1 (migrated and
// seeded with the demo data) in its own state directory, fixed test secrets.
//
// It runs the worker in Miniflare directly, not through `wrangler dev` (ADR 0032). wrangler dev
// puts a second workerd (its proxy worker, which logs every request to wrangler's Node process)
// in front of the worker; that hop cost about a third of the server's CPU per request, and it
// answered 503 "Your worker restarted mid-request" whenever a connection between its two
// workerd processes failed. Here the worker is wrangler's own deploy bundle (`wrangler deploy
// --dry-run`, so nodejs_compat and the Wasm modules are resolved exactly as for production),
// with the bindings wrangler reads from wrangler.toml, and the state directory in wrangler's
// `--persist-to` layout, so `wrangler d1 execute --persist-to` reads the same database.
// `npm start` still serves through `wrangler dev`.
import { cpSync, readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { keepLoopbackConnectionsOpen } from "./lib/loopback-keep-alive.mjs";
import { bin, run, vapidKeys } from "./lib/process.mjs";

keepLoopbackConnectionsOpen();

const port = Number(process.argv[2] ?? "8788");
// With a second port, a second server (the same bundle and bindings) on a database of its own,
// copied from the freshly seeded one: the mixed-load test runs against it beside the journeys,
// without disturbing their data or their server (playwright.config.ts).
const loadPort = process.argv[3] ? Number(process.argv[3]) : null;
const persistOf = (p) => `.wrangler/e2e-${p}`;
const persist = persistOf(port);
// A copy of the database as migrated and seeded, before the server opens it: the backup drill
// (test/ops) starts from it instead of migrating and seeding a database of its own.
const seeded = `${persist}-seeded`;
const bundle = resolve(`.cache/e2e-worker-${port}`);
const secrets = { SESSION_SECRET: "e2e-session-secret", PASSWORD_PEPPER: "e2e-pepper" };
// Web Push: a throw-away VAPID key pair per run.
const vapid = await vapidKeys();
const quiet = { env: { ...process.env, CI: "true" }, stdio: ["ignore", "ignore", "inherit"] };

// Each run starts from a fresh database and bundle, and removes both when it ends. On SIGTERM
// (how Playwright stops it) Miniflare's own exit hook ends workerd and the process; the "exit"
// handler runs after it, synchronously.
const cleanUp = () => {
  rmSync(persist, { recursive: true, force: true });
  if (loadPort) rmSync(persistOf(loadPort), { recursive: true, force: true });
  rmSync(seeded, { recursive: true, force: true });
  rmSync(bundle, { recursive: true, force: true });
};
process.on("exit", cleanUp);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => process.exit(0));

cleanUp();
// wrangler's own migration command writes the database and its d1_migrations records, then the
// seed (through wrangler's getPlatformProxy) fills it; the bundle is built beside them.
await Promise.all([
  (async () => {
    await run(bin("wrangler"), ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], quiet);
    await run(
      bin("vite-node"),
      [
        "--config",
        "scripts/vite-node.config.ts",
        "scripts/seed.ts",
        "--",
        "--persist-to",
        persist,
        "--pepper",
        secrets.PASSWORD_PEPPER,
      ],
      quiet,
    );
  })(),
  run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", bundle], quiet),
]);
cpSync(persist, seeded, { recursive: true });
if (loadPort) cpSync(persist, persistOf(loadPort), { recursive: true });

// wrangler's reading of wrangler.toml: bindings, compatibility date and flags, assets.
const { workerOptions } = unstable_getMiniflareWorkerOptions("wrangler.toml");

/** One Miniflare (its own workerd process) serving the bundle on `port` from the state in `dir`. */
function serve(port, dir) {
  return new Miniflare({
    host: "127.0.0.1",
    port,
    // No request.cf download from Cloudflare at start-up: the tests need no network.
    cf: false,
    // Miniflare's warnings and the worker's console.error (Remix logs loader and action errors
    // there) reach stderr, which the test log shows; the worker's console.log is dropped.
    log: new Log(LogLevel.WARN),
    handleRuntimeStdio: (stdout, stderr) => {
      stdout.resume();
      // A browser that closes a page or a WebSocket while workerd writes to it makes workerd log
      // "disconnected ... Broken pipe" and a stack line; that is the client leaving, not a fault.
      let skipStack = false;
      createInterface({ input: stderr }).on("line", (line) => {
        if (skipStack && line.startsWith("stack: ")) return void (skipStack = false);
        skipStack = /disconnected: ::write\(.*Broken pipe/.test(line);
        if (!skipStack) process.stderr.write(`${line}\n`);
      });
    },
    // Miniflare's own option for wrangler's `--persist-to` layout (what wrangler dev passes).
    defaultPersistRoot: join(dir, "v3"),
    workers: [
      {
        ...workerOptions,
        name: "loopride",
        // The modules are listed: Miniflare refuses to walk a bundle with a dynamic import() (here
        // Remix's browser-side route loader, bundled but never run on the server).
        modulesRoot: bundle,
        modules: [
          { type: "ESModule", path: join(bundle, "server.js") },
          ...readdirSync(bundle)
            .filter((f) => f.endsWith(".wasm"))
            .map((f) => ({ type: "CompiledWasm", path: join(bundle, f) })),
        ],
        bindings: {
          ...workerOptions.bindings,
          ...secrets,
          // Browser journeys sign in many times from one address.
          AUTH_RATE_LIMIT_PER_MINUTE: "1000",
          VAPID_PUBLIC_KEY: vapid.publicKey,
          VAPID_PRIVATE_KEY: vapid.privateKey,
          VAPID_SUBJECT: "mailto:e2e@loopride.invalid",
          // Not production (app/utils/env.server.ts): no Resend key needed, the mailbox may be on.
          LOOPRIDE_STAGE: "test",
          // E-mail goes to the local sink and the development mailbox is on (issue 15 journeys).
          MAIL_TRANSPORT: "sink",
          DEV_MAILBOX: "1",
          // Issue 37: the demo city's operator (the operators' queue journey signs in as her).
          OPERATOR_EMAILS: "ananya@demo.loopride.in",
          APP_ORIGIN: `http://127.0.0.1:${port}`,
        },
      },
    ],
  });
}

// The load test's server first: whoever waits for the journeys' port finds both answering.
if (loadPort) await serve(loadPort, persistOf(loadPort)).ready;
await serve(port, persist).ready;
console.error(
  `[${new Date().toISOString()}] e2e server: the worker is served on http://127.0.0.1:${port}${loadPort ? `, and for the load test on port ${loadPort}` : ""}`,
);
