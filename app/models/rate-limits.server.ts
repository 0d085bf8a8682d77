import { sql, type SQL } from "drizzle-orm";
import { rateLimits } from "../../db/schema";
import { type ModelCtx } from "./context.server";

/**
 * Counts one attempt for `key` in the current fixed window and says whether it is
 * allowed. A single upsert, so concurrent attempts are counted exactly.
 */
export async function hitRateLimit(
  { db }: ModelCtx,
  key: string,
  limit: number,
  windowMs = 60_000,
  now = Date.now(),
): Promise<{ allowed: boolean; count: number }> {
  const windowStart = Math.floor(now / windowMs) * windowMs;
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
export async function peekRateLimit({ db }: ModelCtx, key: string, windowMs = 60_000, now = Date.now()): Promise<number> {
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const row = await db.get<{ count: number } | undefined>(sql`SELECT count FROM rate_limits WHERE key = ${key} AND window_start = ${windowStart}`);
  return row?.count ?? 0;
}

/**
 * The counting of `hitRateLimit` as a statement for a db.batch, so a write can be refused by
 * the limit in the same transaction (with `withinRateLimit`). `unless`: a condition under which
 * nothing is counted (e.g. a retried send that is already stored).
 */
export function rateLimitHitStatement({ db }: ModelCtx, key: string, windowMs: number, now: number, unless: SQL = sql`0`) {
  const windowStart = Math.floor(now / windowMs) * windowMs;
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
export function withinRateLimit(key: string, limit: number, windowMs: number, now: number): SQL {
  const windowStart = Math.floor(now / windowMs) * windowMs;
  return sql`COALESCE((SELECT count FROM rate_limits WHERE key = ${key} AND window_start = ${windowStart}), 0) <= ${limit}`;
}
