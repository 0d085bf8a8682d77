// How `npm run bench` serves a worker: Miniflare directly, as scripts/e2e-server.mjs does (ADR
// 0032), never `wrangler dev` (issue 40). wrangler dev puts a proxy worker in front of the
// worker and, in 4.72, an inspector proxy that kept every runtime event for a debugger: 9.6-10.2
// ms of CPU per request that the profiles counted, a CPU pass of 20 minutes, and 503s "Your
// worker restarted mid-request" under mixed load. Here the bench talks to workerd's own HTTP
// socket and to workerd's own inspector (no `unsafeInspectorProxy`, so Miniflare starts no
// proxy either). The worker is wrangler's deploy bundle (`wrangler deploy --dry-run`), with
// the bindings wrangler reads from the config, so it is what production runs.
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { keepLoopbackConnectionsOpen } from "../lib/loopback-keep-alive.mjs";
import { bin, run } from "../lib/process.mjs";

keepLoopbackConnectionsOpen();

/**
 * wrangler's deploy bundle of `config` in `outdir`, with its source map: the CPU profiles name
 * only the bundle's lines, and the map turns them into sources (cpu-profile.mjs).
 */
export async function bundleWorker(config, outdir) {
  await run(
    bin("wrangler"),
    // wrangler resolves a relative --outdir from the config's folder, hence resolve().
    ["deploy", "--dry-run", "--config", config, "--outdir", resolve(outdir), "--upload-source-maps"],
    { env: { ...process.env, CI: "true" }, stdio: ["ignore", "ignore", "inherit"] },
  );
  return resolve(outdir);
}

/**
 * One Miniflare (its own workerd) serving the bundle in `bundleDir` as worker `name` on 127.0.0.1:`port`, with
 * the inspector on `inspectorPort`, D1 and Durable Object state under `persist` (wrangler's
 * `--persist-to` layout, so the bench seed's databases open as they are). The worker's console
 * output goes to `onStdout`/`onStderr` line by line.
 */
export async function serveWorker({
  config,
  name,
  bundleDir,
  port,
  inspectorPort,
  persist,
  bindings = {},
  onStdout = () => {},
  onStderr = (line) => process.stderr.write(`${line}\n`),
}) {
  const { workerOptions } = unstable_getMiniflareWorkerOptions(config);
  // The bundle's one module: the config's `main` renamed to .js (server.ts -> server.js).
  const entry = readdirSync(bundleDir).find((f) => f.endsWith(".js"));
  const lines = (stream, each) => {
    let partial = "";
    stream.on("data", (d) => {
      const parts = (partial + d).split("\n");
      partial = parts.pop();
      for (const line of parts) each(line);
    });
  };
  const mf = new Miniflare({
    host: "127.0.0.1",
    port,
    inspectorPort,
    // No request.cf download at start-up: the bench needs no network.
    cf: false,
    log: new Log(LogLevel.WARN),
    handleRuntimeStdio: (stdout, stderr) => {
      lines(stdout, onStdout);
      lines(stderr, onStderr);
    },
    ...(persist ? { defaultPersistRoot: join(resolve(persist), "v3") } : {}),
    workers: [
      {
        ...workerOptions,
        // The inspector lists the worker as "core:user:<name>" (connectInspector picks it).
        name,
        // Miniflare refuses to walk a bundle with a dynamic import() (Remix's browser-side
        // route loader, bundled but never run on the server), so the modules are listed.
        modulesRoot: bundleDir,
        modules: [
          { type: "ESModule", path: join(bundleDir, entry) },
          ...readdirSync(bundleDir)
            .filter((f) => f.endsWith(".wasm"))
            .map((f) => ({ type: "CompiledWasm", path: join(bundleDir, f) })),
        ],
        bindings: { ...workerOptions.bindings, ...bindings },
      },
    ],
  });
  const url = await mf.ready;
  return { base: url.origin, mf, inspectorPort, name, bundleDir, stop: () => mf.dispose() };
}
