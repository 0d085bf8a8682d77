import { lt, sql, type SQL } from "drizzle-orm";
import { rateLimits } from "../../db/schema";
import { requireSecret, type SecretEnv } from "../utils/env.server";
import { type ModelCtx } from "./context.server";

// Issue 34, finding 9: rate_limits must not keep e-mail addresses, phone numbers or IP
// addresses (they outlived account deletion, forever). A key is made only by the two functions
// below (the brand makes a plain string a type error): personal identifiers are HMAC-SHA-256
// under SESSION_SECRET, so the table cannot be reversed with a list of addresses or numbers
// without the secret; account ids stay readable (they name no one outside LoopRide).

/** A rate-limit key, made by accountLimitKey or identifierLimitKey only. */
export type LimitKey = string & { readonly __limitKey: true };

/** The longest window any limit may use: windows older than this are pruned (pruneRateLimits). */
export const MAX_WINDOW_MS = 24 * 60 * 60_000;

/** A key on an account id (`bucket:userId`). */
export function accountLimitKey(bucket: string, userId: string): LimitKey {
  return `${bucket}:${userId}` as LimitKey;
}

/** A key on identifiers that name a person (e-mail, phone, IP): `bucket:` and their keyed hash. */
export async function identifierLimitKey(env: SecretEnv, bucket: string, ...identifiers: string[]): Promise<LimitKey> {
  const enc = new TextEncoder();
  const secret = requireSecret(env, "SESSION_SECRET");
  const key = await crypto.subtle.importKey(
    "raw",
    enc.encode(`rate-limit:${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  // Bucket inside the MAC too, and a separator no identifier part can forge (JSON).
  const mac = new Uint8Array(
    await crypto.subtle.sign("HMAC", key, enc.encode(JSON.stringify([bucket, ...identifiers]))),
  );
  return `${bucket}:${Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("")}` as LimitKey;
}

function windowStartOf(now: number, windowMs: number): number {
  // A longer window would be pruned while still counting, silently raising its limit.
  if (!(windowMs > 0 && windowMs <= MAX_WINDOW_MS))
    throw new Error(`rate-limit window ${windowMs} ms is outside 1..${MAX_WINDOW_MS}`);
  return Math.floor(now / windowMs) * windowMs;
}

/**
 * Deletes counters whose window ended (kept one longest window more for shifted windows, such
 * as the IST day): the scheduled work runs it, so rows do not stay forever. Returns how many.
 */
export async function pruneRateLimits({ db }: ModelCtx, now = Date.now()): Promise<number> {
  const r = await db.delete(rateLimits).where(lt(rateLimits.windowStart, now - 2 * MAX_WINDOW_MS));
  return r.meta.changes;
}

/**
 * Counts one attempt for `key` in the current fixed window and says whether it is
 * allowed. A single upsert, so concurrent attempts are counted exactly.
 */
export async function hitRateLimit(
  { db }: ModelCtx,
  key: LimitKey,
  limit: number,
  windowMs = 60_000,
  now = Date.now(),
): Promise<{ allowed: boolean; count: number }> {
  const windowStart = windowStartOf(now, windowMs);
  const row = await db.get<{ count: number }>(sql`
    INSERT INTO rate_limits (key, window_start, count) VALUES (${key}, ${windowStart}, 1)
    ON CONFLICT(key) DO UPDATE SET
      count = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.count + 1 ELSE 1 END,
      window_start = excluded.window_start
    RETURNING count`);
  const count = row?.count ?? 1;
  return { allowed: count <= limit, count };
}

/** How many attempts `key` has used in the current window, without counting one. */
export async function peekRateLimit(
  { db }: ModelCtx,
  key: LimitKey,
  windowMs = 60_000,
  now = Date.now(),
): Promise<number> {
  const windowStart = windowStartOf(now, windowMs);
  const row = await db.get<{ count: number } | undefined>(
    sql`SELECT count FROM rate_limits WHERE key = ${key} AND window_start = ${windowStart}`,
  );
  return row?.count ?? 0;
}

/**
 * The counting of `hitRateLimit` as a statement for a db.batch, so a write can be refused by
 * the limit in the same transaction (with `withinRateLimit`). `unless`: a condition under which
 * nothing is counted (e.g. a retried send that is already stored).
 */
export function rateLimitHitStatement(
  { db }: ModelCtx,
  key: LimitKey,
  windowMs: number,
  now: number,
  unless: SQL = sql`0`,
) {
  const windowStart = windowStartOf(now, windowMs);
  // Columns in table order: key, window_start, count.
  return db
    .insert(rateLimits)
    .select(sql`SELECT ${key}, ${windowStart}, 1 WHERE NOT (${unless})`)
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.windowStart} = excluded.window_start THEN ${rateLimits.count} + 1 ELSE 1 END`,
        windowStart: sql`excluded.window_start`,
      },
    });
}

/** A condition: `key` has used at most `limit` attempts in the current window (after this one was counted). */
export function withinRateLimit(key: LimitKey, limit: number, windowMs: number, now: number): SQL {
  const windowStart = windowStartOf(now, windowMs);
  return sql`COALESCE((SELECT count FROM rate_limits WHERE key = ${key} AND window_start = ${windowStart}), 0) <= ${limit}`;
}
