// Running commands for the scripts (the one place that spawns a command and waits for its exit)
// and the local secrets file. Long-running servers are in ./server.mjs.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

export const bin = (name) => `node_modules/.bin/${name}`;

/**
 * Runs a command, inheriting stdio; rejects on a non-zero exit. With `capture`, its stdout is
 * collected and resolved instead of shown.
 */
export function run(cmd, args, { capture = false, ...opts } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: capture ? ["ignore", "pipe", "inherit"] : "inherit", ...opts });
    let out = "";
    if (capture) child.stdout.on("data", (d) => (out += d));
    child.on("exit", (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}`))));
  });
}

/** Local secrets: .dev.vars is created with random values the first time. */
export function ensureDevVars() {
  if (!existsSync(".dev.vars")) {
    const secret = () => randomBytes(32).toString("hex");
    writeFileSync(
      ".dev.vars",
      [
        "# Local secrets for wrangler dev (never commit this file).",
        `SESSION_SECRET="${secret()}"`,
        `PASSWORD_PEPPER="${secret()}"`,
        "# Google sign-in (optional): create an OAuth client and uncomment.",
        '# GOOGLE_CLIENT_ID=""',
        '# GOOGLE_CLIENT_SECRET=""',
        "",
      ].join("\n"),
    );
    console.log("Created .dev.vars with fresh local secrets.");
  }
  const vars = {};
  for (const line of readFileSync(".dev.vars", "utf8").split("\n")) {
    const m = /^([A-Z_]+)\s*=\s*"?(.*?)"?\s*$/.exec(line);
    if (m) vars[m[1]] = m[2];
  }
  return vars;
}
