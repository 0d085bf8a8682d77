import { and, desc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { operatorAuditLog, outbox, userProfiles, userReports, users } from "../../db/schema";
import { newId } from "../domain/ids";
import type { AppEnv } from "../utils/env.server";
import { revokeAllAccess } from "./access.server";
import { audience, type ModelCtx } from "./context.server";
import { ConflictError, NotFoundError } from "./errors.server";
import { notificationInsert, notificationInsertIfChanged } from "./notifications.server";
import { isOperatorSql } from "./permissions.server";
import { reasonLabel } from "./safety.server";

// LoopRide's operators' queue (issue 37, item 7; ADR 0052): the reports no community admin
// can read (no shared community with an admin) and the urgent ones (harassment or threats,
// unsafe driving). Operators are OPERATOR_EMAILS (isOperatorSql); to anyone else the queue
// does not exist (NotFoundError, a 404), so its address says nothing.

type OperatorCtx = ModelCtx & { env: Pick<AppEnv, "OPERATOR_EMAILS"> };

export const QUEUE_NOT_FOUND = "Page not found";
export const REPORT_HANDLED = "This report was already handled.";
export const NOT_SUSPENDED = "This account is not suspended.";
export const LIFTED_TITLE = "Your LoopRide account is active again";
export const LIFTED_MESSAGE =
  "LoopRide's operators lifted the suspension of your account. You can sign in again; please follow the Community Guidelines.";
/** Suspended accounts the page lists, newest first (the queue's own limit). */
export const SUSPENDED_SHOWN = 100;
export const OPERATOR_ACTIONS = ["warn", "suspend", "close"] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];
const OUTCOME = { warn: "warned", suspend: "suspended", close: "closed" } as const;

/**
 * The open reports of the operators' queue with their context, oldest first (first come, first
 * read), and the accounts suspended platform-wide, newest first, with who suspended them.
 */
export async function listOperatorQueue({ db, env }: OperatorCtx, actorId: string) {
  const reporter = alias(userProfiles, "reporter_profile");
  const reportedUser = alias(users, "reported_user");
  const [me, rows, suspended] = await db.batch([
    db.select({ ok: sql<number>`${isOperatorSql(actorId, env.OPERATOR_EMAILS)}`.as("ok") }).from(sql`(SELECT 1)`),
    db
      .select({
        id: userReports.id,
        reason: userReports.reason,
        details: userReports.details,
        context: userReports.context,
        createdAt: userReports.createdAt,
        reporterId: userReports.reporterId,
        reportedId: userReports.reportedId,
        reportedName: sql<string | null>`${userProfiles.fullName}`.as("reported_name"),
        reporterName: sql<string | null>`${reporter.fullName}`.as("reporter_name"),
        reportedSuspendedAt: reportedUser.suspendedAt,
        // Where they meet, if anywhere: the communities both are approved members of.
        shared: sql<string | null>`(SELECT group_concat(c.name, ', ') FROM community_members a
          JOIN community_members b ON b.community_id = a.community_id AND b.user_id = ${userReports.reportedId}
            AND b.status = 'approved'
          JOIN communities c ON c.id = a.community_id
          WHERE a.user_id = ${userReports.reporterId} AND a.status = 'approved')`.as("shared"),
      })
      .from(userReports)
      .innerJoin(reportedUser, eq(reportedUser.id, userReports.reportedId))
      .leftJoin(userProfiles, eq(userProfiles.userId, userReports.reportedId))
      .leftJoin(reporter, eq(reporter.userId, userReports.reporterId))
      // The rule in SQL as well: the batch returns no report to anyone but an operator.
      .where(
        and(
          eq(userReports.queue, "operators"),
          isNull(userReports.handledAt),
          isOperatorSql(actorId, env.OPERATOR_EMAILS),
        ),
      )
      .orderBy(userReports.createdAt)
      .limit(100),
    db
      .select({
        id: users.id,
        name: userProfiles.fullName,
        suspendedAt: sql<number>`${users.suspendedAt}`,
        // The latest suspension's operator (the log has it from ADR 0058 on).
        by: sql<string | null>`(SELECT p.full_name FROM operator_audit_log l
          LEFT JOIN user_profiles p ON p.user_id = l.actor_id
          WHERE l.target_user_id = ${users.id} AND l.action = 'suspend'
          ORDER BY l.created_at DESC LIMIT 1)`.as("suspended_by"),
      })
      .from(users)
      .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
      .where(and(isNotNull(users.suspendedAt), isNull(users.deletedAt), isOperatorSql(actorId, env.OPERATOR_EMAILS)))
      .orderBy(desc(users.suspendedAt))
      .limit(SUSPENDED_SHOWN),
  ]);
  if (!me[0]?.ok) throw new NotFoundError(QUEUE_NOT_FOUND);
  return { reports: rows.map((r) => ({ ...r, reasonLabel: reasonLabel(r.reason) })), suspended };
}

/** The operators' record of one action on an account, written only if `guard` holds. */
function operatorAuditInsert(
  db: OperatorCtx["db"],
  entry: { id: string; actorId: string; action: "suspend" | "lift_suspension"; targetUserId: string },
  reportId: string | null,
  now: number,
  guard: ReturnType<typeof sql>,
) {
  // Columns in table order: id, actor_id, action, target_user_id, report_id, created_at.
  return db
    .insert(operatorAuditLog)
    .select(
      sql`SELECT ${entry.id}, ${entry.actorId}, ${entry.action}, ${entry.targetUserId}, ${reportId}, ${now} WHERE ${guard}`,
    );
}

/**
 * An operator lifts a platform-wide suspension: the account may sign in again. One batch: the
 * guarded UPDATE (an operator, an account still suspended and not deleted), the operators'
 * record, and the person is told in the app and by e-mail (they cannot sign in to read it),
 * each written only if the record was.
 */
export async function liftSuspension(ctx: OperatorCtx, actorId: string, userId: string, now = Date.now()) {
  const { db, env } = ctx;
  const auditId = newId();
  const lifted = sql`EXISTS (SELECT 1 FROM operator_audit_log WHERE id = ${auditId})`;
  const [updated] = await db.batch([
    db
      .update(users)
      .set({ suspendedAt: null })
      .where(
        and(
          eq(users.id, userId),
          isNotNull(users.suspendedAt),
          isNull(users.deletedAt),
          isOperatorSql(actorId, env.OPERATOR_EMAILS),
        ),
      )
      .returning({ id: users.id }),
    operatorAuditInsert(
      db,
      { id: auditId, actorId, action: "lift_suspension", targetUserId: userId },
      null,
      now,
      sql`changes() = 1`,
    ),
    notificationInsert(
      db,
      { userId, type: "community", title: LIFTED_TITLE, message: LIFTED_MESSAGE, data: { operators: true } },
      now,
      sql`WHERE ${lifted}`,
    ),
    // Columns in table order: id, channel, user_id, kind, idempotency_key, payload, status,
    // attempts, next_attempt_at, last_error, created_at, sent_at.
    db.insert(outbox).select(
      sql`SELECT ${newId()}, 'email', ${userId}, 'notification', ${`lift:${auditId}`},
          json_object('type', 'community', 'title', ${LIFTED_TITLE}, 'message', ${LIFTED_MESSAGE},
            'data', json_object('operators', json('true'))),
          'pending', 0, ${now}, NULL, ${now}, NULL WHERE ${lifted}`,
    ),
  ]);
  if (updated.length > 0) return { audience: audience([userId]) };
  const me = await db
    .select({ ok: sql<number>`${isOperatorSql(actorId, env.OPERATOR_EMAILS)}` })
    .from(sql`(SELECT 1)`)
    .get();
  if (!me?.ok) throw new NotFoundError(QUEUE_NOT_FOUND);
  throw new ConflictError(NOT_SUSPENDED);
}

/**
 * An operator acts on one open report of the queue: `warn` (a notification to the reported
 * person), `suspend` (the account, platform-wide: no sign-in, every session and standing
 * access ended) or `close` (nothing more to do). One guarded batch: the report is marked
 * handled only by an operator and only once; what follows runs only if it was.
 */
export async function actOnReport(
  ctx: OperatorCtx & { env: AppEnv },
  actorId: string,
  reportId: string,
  action: OperatorAction,
  now = Date.now(),
) {
  const { db, env } = ctx;
  const outcome = OUTCOME[action];
  const guard = and(
    eq(userReports.id, reportId),
    eq(userReports.queue, "operators"),
    isNull(userReports.handledAt),
    isOperatorSql(actorId, env.OPERATOR_EMAILS),
  );
  const report = await db
    .select({ reportedId: userReports.reportedId, reason: userReports.reason, handledAt: userReports.handledAt })
    .from(userReports)
    .where(
      and(
        eq(userReports.id, reportId),
        eq(userReports.queue, "operators"),
        isOperatorSql(actorId, env.OPERATOR_EMAILS),
      ),
    )
    .get();
  if (!report) throw new NotFoundError(QUEUE_NOT_FOUND);
  if (report.handledAt !== null) throw new NotFoundError(REPORT_HANDLED);
  const reportedId = report.reportedId;
  const mark = db.update(userReports).set({ outcome, handledAt: now }).where(guard);
  if (action === "warn") {
    await db.batch([
      mark,
      notificationInsertIfChanged(
        db,
        {
          userId: reportedId,
          type: "community",
          title: "A warning from LoopRide",
          message: `You were reported for: ${reasonLabel(report.reason)}. LoopRide's operators reviewed it. Please follow the Community Guidelines: another report like it may lead to the suspension of your account.`,
          data: { report_id: reportId, operators: true },
        },
        now,
      ),
    ]);
    return { outcome, audience: audience([reportedId]) };
  }
  if (action === "suspend") {
    const [marked] = await db.batch([
      mark.returning({ id: userReports.id }),
      db
        .update(users)
        .set({ suspendedAt: now })
        .where(and(eq(users.id, reportedId), isNull(users.suspendedAt), sql`changes() = 1`)),
      operatorAuditInsert(
        db,
        { id: newId(), actorId, action: "suspend", targetUserId: reportedId },
        reportId,
        now,
        sql`changes() = 1`,
      ),
    ]);
    // Sessions, the calendar feed, push and open sockets end at once (access.server.ts).
    if (marked.length > 0) await revokeAllAccess(ctx, reportedId);
    return { outcome, audience: audience() };
  }
  await mark;
  return { outcome, audience: audience() };
}
