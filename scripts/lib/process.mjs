// Running commands for the scripts (the one place that spawns a command and waits for its exit)
// and the local secrets file. Long-running servers are in ./server.mjs.
import { spawn } from "node:child_process";
import { randomBytes, webcrypto } from "node:crypto";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";

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
    child.on("exit", (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}`)),
    );
  });
}

/** Local secrets: .dev.vars is created with random values the first time. */
export async function ensureDevVars() {
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
  // Web Push (issue 15): a .dev.vars from before push gets a local VAPID key pair added.
  if (!vars.VAPID_PUBLIC_KEY || !vars.VAPID_PRIVATE_KEY) {
    const keys = await vapidKeys();
    const subject = vars.VAPID_SUBJECT || "mailto:dev@loopride.invalid";
    appendFileSync(
      ".dev.vars",
      [
        "",
        "# Web Push: a local VAPID key pair (never use it in production; see docs/OPERATIONS.md).",
        `VAPID_PUBLIC_KEY="${keys.publicKey}"`,
        `VAPID_PRIVATE_KEY="${keys.privateKey}"`,
        `VAPID_SUBJECT="${subject}"`,
        "",
      ].join("\n"),
    );
    Object.assign(vars, {
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: subject,
    });
    console.log("Added a local VAPID key pair (Web Push) to .dev.vars.");
  }
  return vars;
}

/**
 * A fresh VAPID key pair (P-256) in the form the worker reads: the public key as the raw
 * uncompressed point and the private key as the JWK "d", both base64url.
 */
export async function vapidKeys() {
  const pair = await webcrypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const jwk = await webcrypto.subtle.exportKey("jwk", pair.privateKey);
  const raw = Buffer.from(await webcrypto.subtle.exportKey("raw", pair.publicKey));
  return { publicKey: raw.toString("base64url"), privateKey: jwk.d };
}
