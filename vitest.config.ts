import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

// Unit and integration tests run inside workerd against the real built worker
// (server.ts + the Remix build), real D1 with the project's migrations, and real
// Durable Objects. `npm test` builds before this runs.
//
// Two kinds of test files run in a runtime of their own without the per-test roll-back
// (vitest.fuzz.config.ts), which also lets the two runtimes use both cores:
// - the fuzzer: it needs no roll-back (each property builds its own people and checks
//   invariants that must hold on any database);
// - the files that open WebSockets to the Durable Objects. Each of these files creates its own
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
// into a directory of its own. `rollBackEachTest`: test/setup/roll-back-each-test.ts.
export function workersConfig({
  include,
  exclude = [],
  rollBackEachTest,
  cacheDir,
}: {
  include: string[];
  exclude?: string[];
  rollBackEachTest: boolean;
  cacheDir: string;
}) {
  // The pool starts one runtime (Miniflare) per Vitest worker and, by default, a new worker with
  // fresh storage for every file, which re-evaluates the worker and its Remix build each time
  // (about 2 s a file). One worker without isolation runs every file in one runtime and one
  // module graph; test/setup/roll-back-each-test.ts gives the unit stage its per-test roll-back.
  const runtime = { isolate: false, maxWorkers: 1 };
  return defineConfig(async () => {
    const migrations = await readD1Migrations("./migrations");
    return {
      cacheDir,
      resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
      plugins: [
        cloudflareTest({
          main: "./server.ts",
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
        }),
      ],
      test: {
        include,
        exclude: ["test/e2e/**", "node_modules/**", ...exclude],
        setupFiles: [
          "./test/setup/apply-migrations.ts",
          "./test/setup/unhandled-rejections.ts",
          ...(rollBackEachTest ? ["./test/setup/roll-back-each-test.ts"] : []),
        ],
        testTimeout: 30_000,
        hookTimeout: 30_000,
        // @remix-run/cloudflare's CommonJS files require each other in a circle, which the
        // runner's module-by-module evaluation leaves half-initialised; bundled it loads whole.
        deps: { optimizer: { ssr: { enabled: true, include: ["@remix-run/cloudflare"] } } },
        ...runtime,
      },
    };
  });
}

export default workersConfig({
  include: ["test/**/*.test.ts"],
  exclude: SHARED_STORAGE_FILES,
  rollBackEachTest: true,
  cacheDir: "node_modules/.vite/unit",
});
