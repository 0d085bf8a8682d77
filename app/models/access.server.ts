import type { AppEnv } from "../utils/env.server";
import { sql, type SQL } from "drizzle-orm";
import { calendarFeeds, pushSubscriptions, sessions } from "../../db/schema";
import type { ModelCtx } from "./context.server";
import type { Db } from "./db.server";

// Issue 34, findings 2 and 3: an intruder who once had the account keeps nothing. A session is
// only one of the ways in: a calendar feed token and a Web Push subscription made while signed
// in keep reading rides and notification texts without a cookie, and an open WebSocket keeps
// receiving frames until the hubs' periodic re-check. Everything that ends "all access" (sign
// out everywhere, a password reset, account deletion) goes through here, so a new kind of
// standing access needs adding in one place only.

type AccessCtx = ModelCtx & { env: AppEnv };

/**
 * The statements revoking every stored credential of an account, for a caller's own db.batch
 * (a password reset and account deletion revoke in the same transaction as their change).
 * `userId` may be SQL (a subquery), and `guard` a condition every statement must also meet.
 */
export function revokeAccessStatements(db: Db, userId: string | SQL, guard: SQL = sql`1`) {
  const owner = typeof userId === "string" ? sql`${userId}` : userId;
  return [
    db.delete(sessions).where(sql`${sessions.userId} = ${owner} AND ${guard}`),
    // The feed URL stops working; the owner can make a new one in Settings.
    db.delete(calendarFeeds).where(sql`${calendarFeeds.userId} = ${owner} AND ${guard}`),
    db.delete(pushSubscriptions).where(sql`${pushSubscriptions.userId} = ${owner} AND ${guard}`),
  ] as const;
}

/**
 * Ends every way into the account at once: every session (the caller's included), the
 * calendar feed, every push subscription, and every open WebSocket of every session, in the
 * user's hub and in each conversation room they joined. Run it after the change that motivates
 * it has committed: it also catches what a request already in flight made in between.
 * Returns how many sockets were closed.
 */
export async function revokeAllAccess(ctx: AccessCtx, userId: string): Promise<number> {
  await ctx.db.batch(revokeAccessStatements(ctx.db, userId));
  // Sockets last: with the sessions gone, a reconnect is refused.
  return closeUserSockets(ctx, userId);
}

/**
 * Every session of a user ended (password reset, account removal): closes all their sockets,
 * in their UserHub and in every ConversationRoom it remembers. Here rather than with the
 * socket upgrade (app/utils/realtime.server.ts) because ending all access is this module's
 * job, and models do not import request plumbing. A Durable Object failure is logged, not
 * thrown: the objects' periodic session re-check closes the sockets later.
 */
export async function closeUserSockets({ env }: { env: Env }, userId: string): Promise<number> {
  try {
    return await env.USER_HUB.get(env.USER_HUB.idFromName(userId)).endAllSessions(userId);
  } catch (e) {
    console.error("closing the user's sockets failed (the re-check will close them)", e);
    return 0;
  }
}
