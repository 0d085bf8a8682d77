// Serves the already-built worker for the browser tests: a fresh local D1 (migrated and
// seeded with the demo data) in its own state directory, fixed test secrets.
import { rmSync } from "node:fs";
import { bin, run } from "./lib/process.mjs";
import { startWrangler } from "./lib/server.mjs";

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
const server = await startWrangler({
  port,
  persist,
  // Browser journeys sign in many times from one address.
  vars: { ...secrets, AUTH_RATE_LIMIT_PER_MINUTE: "1000" },
});
for (const sig of ["SIGINT", "SIGTERM"]) process.on(sig, () => server.kill(sig));
server.on("exit", (code) => process.exit(code ?? 0));
