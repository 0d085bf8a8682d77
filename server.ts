import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// @ts-ignore The Remix server build exists only after `npm run build`.
import * as build from "./build/server";
import { randomToken } from "./app/domain/ids";
import { expireDepartedRequests } from "./app/models/ride-requests.server";
import { COMMUTE_TOP_UP_CRON, topUpCommutesAndBookings } from "./app/models/commutes.server";
import { alertSavedSearches } from "./app/models/saved-searches.server";
import { pruneRateLimits } from "./app/models/rate-limits.server";
import { instrumentD1, logStatementRows, newD1Stats, serverTimingValue } from "./app/utils/d1-stats.server";
import { createDb } from "./app/models/db.server";
import { openD1Session } from "./app/utils/d1-session.server";
import { refuseUnreadableForm } from "./app/utils/form-body.server";
import { isCrossSiteWrite } from "./app/utils/origin.server";
import { publishChange } from "./app/utils/fanout.server";
import { enqueueRideReminders } from "./app/models/outbox/queue.server";
import { deliverOutbox } from "./app/models/outbox/deliver.server";
import { handleSocket } from "./app/utils/realtime.server";
import { applySecurityHeaders } from "./app/utils/security-headers.server";
import { type AppEnv, checkedEnv, EnvError } from "./app/utils/env.server";
import type { Db } from "./app/models/db.server";

export { ConversationRoom } from "./durable-objects/conversation-room";
export { UserHub } from "./durable-objects/user-hub";

const handleRemix = createRequestHandler(build as unknown as ServerBuild);

/** The daily top-up: new commute days, their standing bookings' requests, saved-search alerts. */
async function dailyTopUp(env: AppEnv, ctx: ExecutionContext, db: Db, now = Date.now(), commuteId?: string) {
  const created = await topUpCommutesAndBookings({ db }, now, commuteId);
  // Riders whose standing booking missed a new day were told; open tabs hear of it.
  publishChange({ env, ctx, db }, created.audience);
  // Saved searches matching the new days hear of it (at most once a day each).
  const alerted = await alertSavedSearches(
    { db },
    created.rides.map((r) => r.id),
    now,
  );
  publishChange({ env, ctx, db }, alerted.audience);
  return created;
}

// Browser journeys only (LOOPRIDE_STAGE=test, which no deploy sets): one commute's daily top-up
// as of a later clock, POST ?commute=<id>&time=<ms>, so a journey can move past the 14 days
// (issue 35) without touching the other journeys' commutes. Elsewhere the path is an unknown page.
const TEST_TOP_UP_PATH = "/__test/daily-top-up";
async function runTestTopUp(request: Request, env: AppEnv, ctx: ExecutionContext) {
  const params = new URL(request.url).searchParams;
  const time = Number(params.get("time"));
  const commute = params.get("commute");
  if (request.method !== "POST" || !Number.isSafeInteger(time) || !commute) {
    return new Response("POST ?commute=<id>&time=<ms>\n", { status: 400, headers: { "Content-Type": "text/plain" } });
  }
  const created = await dailyTopUp(env, ctx, createDb(env.DB), time, commute);
  return Response.json({ days: created.rides.length, requests: created.requested.length });
}

/**
 * The 5-minute Cron Trigger's work as of `now`: pending requests of departed rides expire,
 * ride reminders are queued (in the notifications panel too) and the outbox is drained.
 */
async function fiveMinuteRun(env: AppEnv, ctx: ExecutionContext, db: Db, now = Date.now(), expireAt = now) {
  const expired = await expireDepartedRequests({ db }, expireAt);
  // Riders got a notification; open tabs hear of it live.
  publishChange({ env, ctx, db }, { notified: expired.map((r) => r.riderId), others: [] });
  await enqueueRideReminders({ db }, now);
  // A bounded number of rounds: what is left waits for the next run.
  for (let round = 0; round < 8; round++) {
    const r = await deliverOutbox({ db, env }, { limit: 50, now });
    if (r.sent + r.skipped + r.retried < 50) break;
  }
}

// Browser journeys only, as the top-up above: the 5-minute run as of POST ?time=<ms>, so a
// journey can see the reminder of a ride an hour before it leaves (issue 35). Requests expire as
// of the real clock, as the real cron's would now: a later clock expired the pending requests of
// other journeys' rides leaving today, which had not left.
const TEST_FIVE_MINUTE_PATH = "/__test/five-minute-run";
async function runTestFiveMinute(request: Request, env: AppEnv, ctx: ExecutionContext) {
  const time = Number(new URL(request.url).searchParams.get("time"));
  if (request.method !== "POST" || !Number.isSafeInteger(time)) {
    return new Response("POST ?time=<ms>\n", { status: 400, headers: { "Content-Type": "text/plain" } });
  }
  await fiveMinuteRun(env, ctx, createDb(env.DB), time, Math.min(time, Date.now()));
  return Response.json({ ran: time });
}

export default {
  async fetch(request, rawEnv, ctx) {
    let env;
    try {
      env = checkedEnv(rawEnv);
    } catch (e) {
      if (!(e instanceof EnvError)) throw e;
      // Loud and early: the operator sees which variable to set (names only, never values).
      console.error(e.message);
      return new Response(`${e.message}\n`, { status: 500, headers: { "Content-Type": "text/plain" } });
    }
    // CSRF: refuse cross-site writes before any app code runs.
    if (isCrossSiteWrite(request)) {
      return new Response("Cross-site request refused", { status: 403, headers: { "Content-Type": "text/plain" } });
    }
    // With DEBUG_TIMING=1 every response reports its D1 round trips and rows read
    // (Server-Timing); `statements` also logs each statement's rows (the bench's rows
    // diff, without bound values). Never on by default.
    const debug = env.DEBUG_TIMING === "1" || env.DEBUG_TIMING === "statements";
    const started = performance.now();
    const stats = newD1Stats({ perStatement: env.DEBUG_TIMING === "statements" });
    // Reads may come from a nearby replica; writes and the next page after them stay
    // consistent through the bookmark cookie (ADR 0026).
    const d1 = await openD1Session(request, env);
    const db = createDb(debug ? instrumentD1(d1.d1, stats) : d1.d1);
    if (request.headers.get("Upgrade")?.toLowerCase() === "websocket") {
      return handleSocket(request, env, db);
    }
    if (env.LOOPRIDE_STAGE === "test") {
      const path = new URL(request.url).pathname;
      if (path === TEST_TOP_UP_PATH) return runTestTopUp(request, env, ctx);
      if (path === TEST_FIVE_MINUTE_PATH) return runTestFiveMinute(request, env, ctx);
    }
    const nonce = randomToken(128);
    const unreadable = await refuseUnreadableForm(request);
    if (unreadable) return applySecurityHeaders(unreadable, request, nonce);
    const response = await d1.finish(
      applySecurityHeaders(await handleRemix(request, { env, ctx, db, nonce }), request, nonce),
    );
    if (debug) response.headers.append("Server-Timing", serverTimingValue(stats, performance.now() - started));
    if (stats.perStatement) logStatementRows(request, stats.perStatement);
    return response;
  },

  // Cron Triggers (wrangler.toml): every 5 minutes pending requests of rides that have
  // departed expire, ride reminders are queued and the outbox is drained (retries included);
  // once a day commutes get their missing occurrences for the next 14 days (idempotent) and
  // rate-limit counters whose window ended are deleted (they hold keyed hashes of addresses).
  async scheduled(controller, rawEnv, ctx) {
    // A misconfigured worker throws here too, so the cron's failure names the variable.
    const env = checkedEnv(rawEnv);
    const db = createDb(env.DB);
    if (controller.cron === COMMUTE_TOP_UP_CRON) {
      // Apart from the top-up: one failing does not stop the other.
      ctx.waitUntil(
        pruneRateLimits({ db }).then(
          () => undefined,
          (e) => console.error("pruning rate limits failed", e),
        ),
      );
      await dailyTopUp(env, ctx, db);
      return;
    }
    await fiveMinuteRun(env, ctx, db);
  },
} satisfies ExportedHandler<Env>;
