import { defineWorkersConfig, readD1Migrations } from "@cloudflare/vitest-pool-workers/config";

// Unit and integration tests run inside workerd against the real built worker
// (server.ts + the Remix build), real D1 with the project's migrations, and real
// Durable Objects. `npm test` builds before this runs.
//
// The fuzzer (test/integration/fuzz.test.ts) runs in a runtime of its own without isolated
// storage (vitest.fuzz.config.ts): its properties send thousands of requests that wake many
// Durable Objects, and the pool's per-test storage roll-back (which aborts every object) failed
// after such tests had passed ("Network connection lost" in updateStackedStorage). The fuzzer
// needs no roll-back: each property builds its own people and checks invariants that must hold
// on any database.
export const FUZZ_FILES = ["test/integration/fuzz.test.ts"];

export function workersConfig({ include, exclude = [], isolatedStorage }: { include: string[]; exclude?: string[]; isolatedStorage: boolean }) {
  return defineWorkersConfig(async () => {
    const migrations = await readD1Migrations("./migrations");
    return {
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
                SESSION_SECRET: "test-session-secret",
                PASSWORD_PEPPER: "test-pepper",
                AUTH_RATE_LIMIT_PER_MINUTE: "10",
                // Google sign-in is exercised against faked Google endpoints (fetchMock).
                GOOGLE_CLIENT_ID: "test-client-id",
                GOOGLE_CLIENT_SECRET: "test-client-secret",
                // D1 accounting is off as in production; the budget tests turn it on per
                // request (test/support/worker-fetch.ts debugFetch).
                DEBUG_TIMING: "0",
                // E-mail goes to the local sink (mail_sink in D1); links point at the tests' BASE.
                // The development mailbox stays off (as in production); its tests turn it on.
                MAIL_TRANSPORT: "sink",
                APP_ORIGIN: "http://localhost",
              },
            },
          },
        },
      },
    };
  });
}

export default workersConfig({ include: ["test/**/*.test.ts"], exclude: FUZZ_FILES, isolatedStorage: true });
