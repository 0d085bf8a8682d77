// Serves the already-built worker for the browser tests: a fresh local D1 (migrated and
// seeded with the demo data) in its own state directory, fixed test secrets.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { createServer } from "node:net";
import { bin, run } from "./lib.mjs";

const port = process.argv[2] ?? "8788";
const persist = `.wrangler/e2e-${port}`;
const secrets = { SESSION_SECRET: "e2e-session-secret", PASSWORD_PEPPER: "e2e-pepper" };

rmSync(persist, { recursive: true, force: true });
await run(bin("wrangler"), ["d1", "migrations", "apply", "DB", "--local", "--persist-to", persist], {
  env: { ...process.env, CI: "true" },
  stdio: ["ignore", "ignore", "inherit"],
});
await run(bin("vite-node"), ["scripts/seed.ts", "--", "--persist-to", persist, "--pepper", secrets.PASSWORD_PEPPER], {
  stdio: ["ignore", "ignore", "inherit"],
});
// Concurrent wrangler dev processes must not fight over the default inspector port.
const inspectorPort = await new Promise((resolve) => {
  const srv = createServer().listen(0, "127.0.0.1", () => {
    const { port: p } = srv.address();
    srv.close(() => resolve(p));
  });
});
const vars = Object.entries(secrets).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
const server = spawn(
  bin("wrangler"),
  ["dev", "--ip", "127.0.0.1", "--port", port, "--inspector-port", String(inspectorPort), "--persist-to", persist, "--show-interactive-dev-session=false", ...vars,
    // Browser journeys sign in many times from one address.
    "--var", "AUTH_RATE_LIMIT_PER_MINUTE:1000"],
  { stdio: "inherit" },
);
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code) => process.exit(code ?? 0));
