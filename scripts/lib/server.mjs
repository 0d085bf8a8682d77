// Starting and stopping local servers for scripts and tests: one free-port finder, one
// readiness wait, one way to run `wrangler dev` on loopback and to stop it with its workerd.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { bin } from "./process.mjs";

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on("error", reject);
  });
}

/** Polls `url` until it answers 2xx; `child`, when given, failing first is reported. */
export async function waitFor(url, ms, { child, stderr = () => "" } = {}) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (child && (child.exitCode !== null || child.signalCode !== null))
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}) before ${url} answered: ${stderr()}`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url} did not answer within ${ms / 1000} s ${stderr()}`);
}

/**
 * `wrangler dev` serving the built worker on 127.0.0.1. Concurrent servers must not share the
 * default inspector port, so one is always chosen. `detached` puts wrangler and its workerd in
 * their own process group, which `stopGroup` ends as a whole.
 */
export async function startWrangler({
  port,
  persist,
  vars = {},
  inspectorPort,
  stdio = "inherit",
  detached = false,
  env = process.env,
  config,
  testScheduled = false,
}) {
  const args = [
    "dev",
    ...(config ? ["--config", config] : []),
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPort ?? (await freePort())),
    "--show-interactive-dev-session=false",
  ];
  if (persist) args.push("--persist-to", persist);
  // /__scheduled runs the worker's scheduled handler (./schedule.mjs says why not /cdn-cgi/...).
  if (testScheduled) args.push("--test-scheduled");
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  return spawn(bin("wrangler"), args, { stdio, detached, env });
}

/**
 * `npm start`'s server: e-mail stays on this machine, stored in D1 and shown at /dev/mailbox
 * (issue 15), and the scheduled work can be run (scripts/lib/schedule.mjs). The test of the
 * scheduled route (test/ops/scheduled.spec.ts) starts it through here too.
 */
export function startLocalServer({ port, ...options }) {
  const vars = {
    LOOPRIDE_STAGE: "development",
    MAIL_TRANSPORT: "sink",
    DEV_MAILBOX: "1",
    // Issue 37: the demo city's operator reads the operators' queue (/operators/reports).
    OPERATOR_EMAILS: "ananya@demo.loopride.in",
    APP_ORIGIN: `http://127.0.0.1:${port}`,
  };
  return startWrangler({ port, vars, testScheduled: true, ...options });
}

/** Ends a detached child's whole process group (wrangler and workerd); never throws. */
export function stopGroup(child) {
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {}
}
