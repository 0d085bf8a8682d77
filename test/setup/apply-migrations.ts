import { applyD1Migrations, env } from "cloudflare:test";

// Runs before each test file; with isolated storage every test starts from this state.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
