type EnvVars = import("../app/utils/env.server").EnvVars;

// vitest.config.ts's bindings: wrangler.toml's, plus secrets and local variables. The pool types
// `env` as the worker's own Cloudflare.Env, which must not grow test-only names, so the tests
// read it through test/support/env.ts.
interface TestEnv extends Env, EnvVars {
  TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
}
