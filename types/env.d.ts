export {};

// `Env` (bindings and wrangler.toml [vars]) is generated: types/worker-configuration.d.ts,
// `npm run types:env` after a change to wrangler.toml. Secrets and local-only variables are
// not in wrangler.toml; app/utils/env.server.ts names them (EnvVars) and checks them all.
declare module "@remix-run/cloudflare" {
  interface AppLoadContext {
    /** The checked environment (server.ts, checkedEnv). */
    env: import("../app/utils/env.server").AppEnv;
    ctx: Pick<ExecutionContext, "waitUntil">;
    db: import("../app/models/db.server").Db;
    /** A random nonce for this response's Content-Security-Policy. */
    nonce: string;
  }
}
