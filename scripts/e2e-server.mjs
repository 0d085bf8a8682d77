// Serves the already-built worker for the browser tests: a fresh local D1 (migrated and
// seeded with the demo data) in its own state directory, fixed test secrets.
import { rmSync } from "node:fs";
import { bin, run, vapidKeys } from "./lib/process.mjs";
import { freePort, startWrangler } from "./lib/server.mjs";
import { startRetryProxy } from "./lib/retry-proxy.mjs";

const port = process.argv[2] ?? "8788";
const persist = `.wrangler/e2e-${port}`;
const secrets = { SESSION_SECRET: "e2e-session-secret", PASSWORD_PEPPER: "e2e-pepper" };
// Web Push: a throw-away VAPID key pair per run.
const vapid = await vapidKeys();

rmSync(persist, { recursive: true, force: true });
await run(bin("wrangler"), ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], {
  env: { ...process.env, CI: "true" },
  stdio: ["ignore", "ignore", "inherit"],
});
await run(bin("vite-node"), ["scripts/seed.ts", "--", "--persist-to", persist, "--pepper", secrets.PASSWORD_PEPPER], {
  stdio: ["ignore", "ignore", "inherit"],
});
// Journeys talk to `port`; wrangler listens on a port of its own behind the retry proxy
// (scripts/lib/retry-proxy.mjs: a POST that meets a worker restart is sent once more).
const inner = await freePort();
startRetryProxy(Number(port), inner);
const server = await startWrangler({
  port: inner,
  persist,
  // Playwright ignores the server's stdout (a line per request); only what matters goes on to
  // stderr, which the test log shows: a reload of the worker mid-run fails every request in
  // flight ("Your worker restarted mid-request"), so it must be visible when a journey fails.
  stdio: ["ignore", "pipe", "inherit"],
  // Browser journeys sign in many times from one address.
  vars: {
    ...secrets,
    AUTH_RATE_LIMIT_PER_MINUTE: "1000",
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: "mailto:e2e@loopride.invalid",
    // E-mail goes to the local sink and the development mailbox is on (issue 15 journeys).
    MAIL_TRANSPORT: "sink",
    DEV_MAILBOX: "1",
    APP_ORIGIN: `http://127.0.0.1:${port}`,
  },
});
let pending = "";
server.stdout.on("data", (chunk) => {
  const lines = (pending + chunk).split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    if (/updated and ready|Reloading|restarted|Connection status|\[ERROR\]/i.test(line)) console.error(`[${new Date().toISOString()}] wrangler: ${line}`);
  }
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code) => process.exit(code ?? 0));
