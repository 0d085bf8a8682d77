import { defineWorkersConfig, readD1Migrations } from "@cloudflare/vitest-pool-workers/config";
import { keepLoopbackConnectionsOpen } from "./scripts/lib/loopback-keep-alive.mjs";

// Before the pool starts Miniflare (ADR 0031).
keepLoopbackConnectionsOpen();

// Unit and integration tests run inside workerd against the real built worker
// (server.ts + the Remix build), real D1 with the project's migrations, and real
// Durable Objects. `npm test` builds before this runs.
//
// Two kinds of test files run in a runtime of their own without isolated storage
// (vitest.fuzz.config.ts), which also lets the two runtimes use both cores:
// - the fuzzer: its long properties were the first to hit "Network connection lost" in the
//   roll-back (since fixed at its cause, scripts/lib/loopback-keep-alive.mjs, ADR 0031); it needs no
//   roll-back (each property builds its own people and checks invariants that must hold on any
//   database);
// - the files that open WebSockets to the Durable Objects: the pool documents WebSockets with
//   Durable Objects under isolated storage as unsupported. Each of these files creates its own
//   users (random ids and addresses), so they share one database safely.
export const FUZZ_FILES = ["test/integration/fuzz.test.ts"];
export const SOCKET_FILES = [
  "test/integration/auth-redirects-cookies.test.ts",
  "test/integration/faults.test.ts",
  "test/integration/live-audience.test.ts",
  "test/integration/messages.test.ts",
  "test/integration/notifications.test.ts",
  "test/integration/revoke-access.test.ts",
  "test/integration/socket-sessions.test.ts",
  "test/integration/websocket.test.ts",
];
export const SHARED_STORAGE_FILES = [...FUZZ_FILES, ...SOCKET_FILES];

// `cacheDir`: npm test runs the two configs side by side, so each optimises its dependencies
// into a directory of its own.
export function workersConfig({
  include,
  exclude = [],
  isolatedStorage,
  cacheDir,
}: {
  include: string[];
  exclude?: string[];
  isolatedStorage: boolean;
  cacheDir: string;
}) {
  return defineWorkersConfig(async () => {
    const migrations = await readD1Migrations("./migrations");
    return {
      cacheDir,
      resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
      test: {
        include,
        exclude: ["test/e2e/**", "node_modules/**", ...exclude],
        setupFiles: ["./test/setup/apply-migrations.ts"],
        testTimeout: 30_000,
        hookTimeout: 30_000,
        deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare"] } } },
        poolOptions: {
          workers: {
            main: "./server.ts",
            singleWorker: true,
            isolatedStorage,
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              compatibilityFlags: ["nodejs_compat"],
              bindings: {
                TEST_MIGRATIONS: migrations,
                // Not production (app/utils/env.server.ts); the env tests drop it to act as one.
                LOOPRIDE_STAGE: "test",
                SESSION_SECRET: "test-session-secret",
                PASSWORD_PEPPER: "test-pepper",
                AUTH_RATE_LIMIT_PER_MINUTE: "10",
                // Google sign-in is exercised against faked Google endpoints (fetchMock).
                GOOGLE_CLIENT_ID: "test-client-id",
                GOOGLE_CLIENT_SECRET: "test-client-secret",
                // D1 accounting is off as in production; the budget tests turn it on per
                // request (test/support/worker-fetch.ts debugFetch).
                DEBUG_TIMING: "0",
                // Web Push (issue 15): a test-only VAPID key pair; pushes go to a faked push
                // service (fetchMock) on this host, which test/integration/push.test.ts decrypts.
                VAPID_PUBLIC_KEY:
                  "BMY-N47DU6ugSa4yrXWIsjsPX8NOKyIW_SR9nYC59a-Mqeb_cczOXIEXD0jEu9a4LdkqJghGMW4MzEjtc1s9yIw",
                VAPID_PRIVATE_KEY: "HI7bk7XVsuxaVKLATkoekF-hX0ewPF0USFGVcOHNVaE",
                VAPID_SUBJECT: "mailto:test@loopride.invalid",
                PUSH_ALLOWED_HOSTS: "push.example.test",

                // E-mail goes to the local sink (mail_sink in D1); links point at the tests' BASE.
                // The development mailbox stays off (as in production); its tests turn it on.
                MAIL_TRANSPORT: "sink",
                APP_ORIGIN: "http://localhost",
                // Issue 37: LoopRide's operators (test/integration/operators-queue.test.ts signs one up).
                OPERATOR_EMAILS: "operator@loopride.test,second-operator@loopride.test",
              },
            },
          },
        },
      },
    };
  });
}

export default workersConfig({
  include: ["test/**/*.test.ts"],
  exclude: SHARED_STORAGE_FILES,
  isolatedStorage: true,
  cacheDir: "node_modules/.vite/unit",
});
