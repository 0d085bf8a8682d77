import { and, eq, isNull, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { userProfiles, userReports, users } from "../../db/schema";
import type { AppEnv } from "../utils/env.server";
import { revokeAllAccess } from "./access.server";
import { audience, type ModelCtx } from "./context.server";
import { NotFoundError } from "./errors.server";
import { notificationInsertIfChanged } from "./notifications.server";
import { isOperatorSql } from "./permissions.server";
import { reasonLabel } from "./safety.server";

// LoopRide's operators' queue (issue 37, item 7; ADR 0052): the reports no community admin
// can read (no shared community with an admin) and the urgent ones (harassment or threats,
// unsafe driving). Operators are OPERATOR_EMAILS (isOperatorSql); to anyone else the queue
// does not exist (NotFoundError, a 404), so its address says nothing.

type OperatorCtx = ModelCtx & { env: Pick<AppEnv, "OPERATOR_EMAILS"> };

export const QUEUE_NOT_FOUND = "Page not found";
export const REPORT_HANDLED = "This report was already handled.";
export const OPERATOR_ACTIONS = ["warn", "suspend", "close"] as const;
export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];
const OUTCOME = { warn: "warned", suspend: "suspended", close: "closed" } as const;

/** The open reports of the operators' queue with their context, oldest first (first come, first read). */
export async function listOperatorQueue({ db, env }: OperatorCtx, actorId: string) {
  const reporter = alias(userProfiles, "reporter_profile");
  const reportedUser = alias(users, "reported_user");
  const [me, rows] = await db.batch([
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
  ]);
  if (!me[0]?.ok) throw new NotFoundError(QUEUE_NOT_FOUND);
  return rows.map((r) => ({ ...r, reasonLabel: reasonLabel(r.reason) }));
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
    ]);
    // Sessions, the calendar feed, push and open sockets end at once (access.server.ts).
    if (marked.length > 0) await revokeAllAccess(ctx, reportedId);
    return { outcome, audience: audience() };
  }
  await mark;
  return { outcome, audience: audience() };
}
