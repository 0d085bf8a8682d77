import { holdsRoleSql } from "./permissions.server";
import { alias } from "drizzle-orm/sqlite-core";
import { and, desc, eq, sql, type SQL } from "drizzle-orm";
import { communities, communityAuditLog, userProfiles } from "../../db/schema";
import { newId } from "../domain/ids";
import type { Db } from "./db.server";
import { ForbiddenError, NotFoundError } from "./errors.server";
import type { ModelCtx } from "./context.server";

// The moderation audit log (issue 16, item 4): one row per moderator action, written in the
// same db.batch as the action and only when the action took effect (the `guard`), so the
// log says exactly what happened. Admins of the community read it; nobody edits it.

export const AUDIT_ACTIONS = [
  "approve",
  "reject",
  "clear",
  "promote",
  "remove",
  "suspend",
  "unsuspend",
  "handover",
  "rules",
  "invite",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_SHOWN = 50;
export const FORBIDDEN_AUDIT = "Only the community's admins can read its moderation log.";

/**
 * The audit row for a batch. `guard` is SQL that is true only if the action's own write
 * changed something (e.g. `changes() = 1` right after it, or an EXISTS on the new state).
 */
export function auditInsert(
  db: Db,
  entry: {
    communityId: string;
    actorId: string;
    action: AuditAction;
    targetUserId: string | null;
    detail?: string | null;
  },
  now: number,
  guard: SQL,
) {
  // Columns in table order: id, community_id, actor_id, action, target_user_id, detail, created_at.
  return db
    .insert(communityAuditLog)
    .select(
      sql`SELECT ${newId()}, ${entry.communityId}, ${entry.actorId}, ${entry.action}, ${entry.targetUserId}, ${entry.detail ?? null}, ${now} WHERE ${guard}`,
    );
}

/** An approved admin member (holdsRole): the people who read the log. */
export const isAdminSql = (communityId: string, userId: string) => holdsRoleSql(userId, communityId, "admin");

/** The newest moderator actions of a community, with who did what to whom; admins only. */
export async function listAuditLog({ db }: ModelCtx, actorId: string, communityId: string) {
  return auditLogFrom(await db.batch(auditLogQueries(db, actorId, communityId)));
}

/** listAuditLog's reads, for another model's batch (AlsoReads); auditLogFrom decides. */
export function auditLogQueries(db: Db, actorId: string, communityId: string) {
  const actor = alias(userProfiles, "actor_profile");
  return [
    db
      .select({ exists: sql<number>`1`, admin: sql<number>`${isAdminSql(communityId, actorId)}` })
      .from(communities)
      .where(eq(communities.id, communityId)),
    db
      .select({
        id: communityAuditLog.id,
        action: communityAuditLog.action,
        detail: communityAuditLog.detail,
        createdAt: communityAuditLog.createdAt,
        // Named apart: in a D1 batch drizzle maps rows by column name, and both are full_name.
        actorName: sql<string | null>`${actor.fullName}`.as("actor_name"),
        targetName: sql<string | null>`${userProfiles.fullName}`.as("target_name"),
      })
      .from(communityAuditLog)
      .leftJoin(actor, eq(actor.userId, communityAuditLog.actorId))
      .leftJoin(userProfiles, eq(userProfiles.userId, communityAuditLog.targetUserId))
      // The admin check is in the WHERE too: a non-admin's read returns no row at all.
      .where(and(eq(communityAuditLog.communityId, communityId), sql`${isAdminSql(communityId, actorId)}`))
      .orderBy(desc(communityAuditLog.createdAt), desc(communityAuditLog.id))
      .limit(AUDIT_SHOWN),
  ] as const;
}

type AuditQueries = ReturnType<typeof auditLogQueries>;
type AuditResults = [Awaited<AuditQueries[0]>, Awaited<AuditQueries[1]>];

/** The results of auditLogQueries as the log (NotFoundError, ForbiddenError for a non-admin). */
export function auditLogFrom(results: readonly unknown[]) {
  const [allowed, rows] = results as AuditResults;
  if (allowed.length === 0) throw new NotFoundError("Community not found");
  if (!allowed[0].admin) throw new ForbiddenError(FORBIDDEN_AUDIT);
  return rows.map((r) => ({ ...r, action: r.action as AuditAction }));
}

export type AuditEntry = Awaited<ReturnType<typeof listAuditLog>>[number];
