type EnvVars = import("../app/utils/env.server").EnvVars;

declare module "cloudflare:test" {
  // vitest.config.ts's bindings: wrangler.toml's, plus secrets and local variables.
  interface ProvidedEnv extends Env, EnvVars {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}
