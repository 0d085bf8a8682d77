import { defineConfig, devices } from "@playwright/test";
import { launchOptions as chromiumLaunchOptions } from "./scripts/lib/chromium.mjs";
import { freePort } from "./scripts/lib/server.mjs";

// Browser journeys against the built worker served by Miniflare (scripts/e2e-server.mjs) on a free local
// port with a fresh local database (demo data seeded). Every journey runs twice: with
// JavaScript enabled and disabled.
// Worker processes inherit the environment, so the port is chosen once.
if (!process.env.E2E_PORT) process.env.E2E_PORT = String(await freePort());
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

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
    { name: "fixtures", testMatch: /fixtures\.setup\.ts/, use: { ...devices["Desktop Chrome"], launchOptions, javaScriptEnabled: true } },
    { name: "js", testIgnore: /load\.spec\.ts/, dependencies: ["fixtures"], use: { ...devices["Desktop Chrome"], launchOptions, javaScriptEnabled: true } },
    { name: "no-js", testIgnore: /load\.spec\.ts/, dependencies: ["fixtures"], use: { ...devices["Desktop Chrome"], launchOptions, javaScriptEnabled: false } },
    // Node-side operations drills (no browser), run once, after the journeys, beside the load
    // test: the journeys keep both cores busy, while the load test (one workerd thread serving
    // it) leaves some of the second idle.
    { name: "ops", testDir: "./test/ops", dependencies: ["js", "no-js"] },
    // The mixed-load test (Node-side HTTP, no browser) runs once, not once per JS mode, and
    // after the journeys: 32 connections beside two Chromiums on 2 cores would starve both.
    // (If a journey fails the load test is skipped, and npm test counts a skip as a failure.)
    { name: "load", testMatch: /load\.spec\.ts/, dependencies: ["js", "no-js"] },
  ],
  webServer: {
    command: `node scripts/e2e-server.mjs ${port}`,
    url: `${baseURL}/pricing`,
    timeout: 300_000,
    reuseExistingServer: false,
    // SIGTERM lets the server stop Miniflare and remove its database and bundle (the default is SIGKILL).
    gracefulShutdown: { signal: "SIGTERM", timeout: 10_000 },
    stdout: "ignore",
    stderr: "pipe",
  },
});
