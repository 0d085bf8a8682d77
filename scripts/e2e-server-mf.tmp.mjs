import { readdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { Miniflare, Log, LogLevel } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { bin, run, vapidKeys } from "./lib/process.mjs";

const port = Number(process.argv[2] ?? "8788");
const persist = `.wrangler/e2e-${port}`;
const secrets = { SESSION_SECRET: "e2e-session-secret", PASSWORD_PEPPER: "e2e-pepper" };
const vapid = await vapidKeys();
const bundle = resolve(`.cache/e2e-worker-${port}`);
rmSync(persist, { recursive: true, force: true });
await run(bin("wrangler"), ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], { env: { ...process.env, CI: "true" }, stdio: ["ignore", "ignore", "inherit"] });
await run(bin("vite-node"), ["scripts/seed.ts", "--", "--persist-to", persist, "--pepper", secrets.PASSWORD_PEPPER], { stdio: ["ignore", "ignore", "inherit"] });
await run(bin("wrangler"), ["deploy", "--dry-run", "--outdir", bundle], { env: { ...process.env, CI: "true" }, stdio: ["ignore", "ignore", "inherit"] });
const { workerOptions } = unstable_getMiniflareWorkerOptions("wrangler.toml");
const mf = new Miniflare({
  host: "127.0.0.1",
  port,
  log: new Log(LogLevel.WARN),
  d1Persist: join(persist, "v3", "d1"),
  r2Persist: join(persist, "v3", "r2"),
  durableObjectsPersist: join(persist, "v3", "do"),
  kvPersist: join(persist, "v3", "kv"),
  cachePersist: join(persist, "v3", "cache"),
  workers: [
    {
      ...workerOptions,
      name: "loopride",
      modulesRoot: bundle,
      modules: [
        { type: "ESModule", path: join(bundle, "server.js") },
        ...readdirSync(bundle).filter((f) => f.endsWith(".wasm")).map((f) => ({ type: "CompiledWasm", path: join(bundle, f) })),
      ],
      bindings: {
        ...workerOptions.bindings,
        ...secrets,
        AUTH_RATE_LIMIT_PER_MINUTE: "1000",
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: "mailto:e2e@loopride.invalid",
        MAIL_TRANSPORT: "sink",
        DEV_MAILBOX: "1",
        APP_ORIGIN: `http://127.0.0.1:${port}`,
      },
    },
  ],
});
await mf.ready;
console.error(`miniflare ready on ${port}`);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => mf.dispose().then(() => process.exit(0)));
