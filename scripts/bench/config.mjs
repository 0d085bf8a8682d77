// Shared by the bench seed (scripts/bench/seed.ts) and the runner (scripts/bench/run.mjs):
// the runner's server must use the pepper the seed hashed the one bench password with.
export const BENCH_PASSWORD = "bench-commute-2026";
export const BENCH_PEPPER = "bench-pepper";
export const BENCH_SESSION_SECRET = "bench-session-secret";
export const BUSY_EMAIL = "busy@bench.loopride.in";
export const PARTNER_EMAIL = "partner@bench.loopride.in";
export const benchDir = (size) => `.bench/state/${size}`;
