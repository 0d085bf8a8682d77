import { defineConfig, devices } from "@playwright/test";
import { launchOptions as chromiumLaunchOptions } from "./scripts/lib/chromium.mjs";
import { freePort } from "./scripts/lib/server.mjs";

// Browser journeys against the built worker served by Miniflare (scripts/e2e-server.mjs) on a free local
// port with a fresh local database (demo data seeded). Every journey runs twice: with
// JavaScript enabled and disabled.
// Worker processes inherit the environment, so the port is chosen once.
if (!process.env.E2E_PORT) process.env.E2E_PORT = String(await freePort());
if (!process.env.E2E_LOAD_PORT) process.env.E2E_LOAD_PORT = String(await freePort());
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;
// The mixed-load test's own server (the same worker, a copy of the seeded database).
const loadPort = Number(process.env.E2E_LOAD_PORT);

const launchOptions = chromiumLaunchOptions();

export default defineConfig({
  testDir: "./test/e2e",
  timeout: 60_000,
  // Generous: CI runs two projects, two Chromiums and workerd on 2 cores.
  expect: { timeout: 20_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: ".cache/reports/playwright.json" }]],
  // No trace: recording one for every test (and deleting it when the test passes) was about a
  // seventh of the stage's CPU (ADR 0032). A failure keeps its screenshot and error context; to
  // record traces, run `npx playwright test --trace retain-on-failure`.
  use: { baseURL, trace: "off", screenshot: "only-on-failure" },
  projects: [
    // Data written into the server's database from outside (test/support/d1-local.ts) is
    // written here, before the journeys, never while they run: a second process writing the
    // SQLite file makes the server's own queries fail with SQLITE_BUSY.
    {
      name: "fixtures",
      testMatch: /fixtures\.setup\.ts/,
      use: { ...devices["Desktop Chrome"], launchOptions, javaScriptEnabled: true },
    },
    // The mixed-load test (Node-side HTTP, no browser) runs once, not once per JS mode, against a
    // server of its own, and the backup drill (Node-side, no browser) reads a copy of the seeded
    // database: neither touches the journeys' server or data. They are listed before the
    // journeys, so each takes one of the two workers first and the journeys fill in around
    // them. At the end, after the journeys, the load test (a fixed 60 s, served by one workerd
    // thread) left most of a core idle for a minute (issue 17). They depend on the fixtures only
    // to run in the journeys' phase: Playwright runs a project with no dependencies in a phase
    // before, and that phase would hold the journeys back until the load test ended.
    {
      name: "load",
      testMatch: /load\.spec\.ts/,
      dependencies: ["fixtures"],
      use: { baseURL: `http://127.0.0.1:${loadPort}` },
    },
    { name: "ops", testDir: "./test/ops", dependencies: ["fixtures"] },
    {
      name: "js",
      testIgnore: /load\.spec\.ts/,
      dependencies: ["fixtures"],
      use: { ...devices["Desktop Chrome"], launchOptions, javaScriptEnabled: true },
    },
    {
      name: "no-js",
      testIgnore: /load\.spec\.ts/,
      dependencies: ["fixtures"],
      use: { ...devices["Desktop Chrome"], launchOptions, javaScriptEnabled: false },
    },
    // After every journey: the database invariants over everything the journeys wrote (the load
    // test checks its own database). (If a journey fails this is skipped, and npm test counts a
    // skip as a failure.)
    { name: "after-journeys", testMatch: /journeys\.after\.ts/, dependencies: ["js", "no-js"] },
  ],
  // `npm test` starts the server itself, beside the vitest stages, and says so with
  // E2E_SERVER=started (scripts/test.mjs); otherwise Playwright starts it.
  webServer:
    process.env.E2E_SERVER === "started"
      ? undefined
      : {
          command: `node scripts/e2e-server.mjs ${port} ${loadPort}`,
          url: `${baseURL}/pricing`,
          timeout: 300_000,
          reuseExistingServer: false,
          // SIGTERM lets the server stop Miniflare and remove its database and bundle (the default is SIGKILL).
          gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
          stdout: "ignore",
          stderr: "pipe",
        },
});
