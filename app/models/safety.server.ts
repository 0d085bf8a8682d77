import { holdsRole, holdsRoleSql, operatorEmails } from "./permissions.server";
import { and, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  communities,
  communityMembers,
  rideRequests,
  rides,
  userBlocks,
  userProfiles,
  userReports,
  users,
} from "../../db/schema";
import { newId } from "../domain/ids";
import { REPORT_REASONS, URGENT_REASONS, type ReportReason } from "../schemas/safety";
import type { AppEnv } from "../utils/env.server";
import { audience, type ModelCtx } from "./context.server";
import { isUniqueViolation } from "./db-errors.server";
import type { Db } from "./db.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { notificationInsert, PER_ROW_ID } from "./notifications.server";

// Report and block (issue 16, docs/decisions/0020-report-block-and-own-data.md). The blocking
// rule itself is `blockedEitherWay` (relations.server.ts), read by messaging and rides.

export const PERSON_NOT_FOUND = "Person not found";
export const ALREADY_REPORTED = "You have already reported this person.";
export const REPORTS_FORBIDDEN = "Only the community's admins can read its reports.";

export const reasonLabel = (r: string) => REPORT_REASONS.find((x) => x.value === r)?.label ?? r;

/** A person's row for requireOther/otherFrom: one read, batched with what depends on it. */
const personQuery = (db: Db, personId: string) =>
  db
    .select({
      id: users.id,
      deletedAt: users.deletedAt,
      fullName: userProfiles.fullName,
      avatarUrl: userProfiles.avatarUrl,
    })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.id, personId));

/** Someone else who exists and has not closed their account (else NotFoundError). */
function otherFrom(rows: Awaited<ReturnType<typeof personQuery>>) {
  const row = rows[0];
  if (!row || row.deletedAt !== null) throw new NotFoundError(PERSON_NOT_FOUND);
  return row;
}

async function requireOther(db: Db, actorId: string, personId: string) {
  if (actorId === personId) throw new NotFoundError(PERSON_NOT_FOUND);
  return otherFrom(await personQuery(db, personId));
}

/**
 * The "report or block" page of a person: their name and photo (already shown on their rides
 * and chats) and what the acting user has done about them. Whether THEY blocked the viewer is
 * never read, so the page looks the same either way. One batch (ADR 0029): the person's row
 * decides; the other two read only the acting user's own blocks and reports, so they are
 * discarded unread when the person is not found.
 */
export async function getPersonForSafety({ db }: ModelCtx, actorId: string, personId: string) {
  if (actorId === personId) throw new NotFoundError(PERSON_NOT_FOUND);
  const [found, blocked, reported] = await db.batch([
    personQuery(db, personId),
    db
      .select({ n: sql<number>`1` })
      .from(userBlocks)
      .where(and(eq(userBlocks.blockerId, actorId), eq(userBlocks.blockedId, personId))),
    db
      .select({ n: sql<number>`1` })
      .from(userReports)
      .where(and(eq(userReports.reporterId, actorId), eq(userReports.reportedId, personId))),
  ]);
  const person = otherFrom(found);
  return {
    id: person.id,
    fullName: person.fullName,
    avatarUrl: person.avatarUrl,
    blockedByMe: blocked.length > 0,
    reportedByMe: reported.length > 0,
  };
}

/**
 * The acting user blocks someone, in one batch: the block, and every PENDING request between
 * the two (either one riding with the other) cancelled without a notification, so neither
 * sees the other in their request lists. Accepted seats stay (a ride already arranged is
 * cancelled the ordinary way, with notice). Blocking twice changes nothing.
 */
export async function blockUser({ db }: ModelCtx, actorId: string, personId: string, now = Date.now()) {
  await requireOther(db, actorId, personId);
  const between = sql`${rideRequests.status} = 'pending' AND (
    (${rideRequests.riderId} = ${actorId} AND ${rideRequests.rideId} IN (SELECT ${rides.id} FROM ${rides} WHERE ${rides.driverId} = ${personId}))
    OR (${rideRequests.riderId} = ${personId} AND ${rideRequests.rideId} IN (SELECT ${rides.id} FROM ${rides} WHERE ${rides.driverId} = ${actorId})))`;
  const [inserted] = await db.batch([
    db
      .insert(userBlocks)
      .values({ blockerId: actorId, blockedId: personId, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: userBlocks.blockedId }),
    db.update(rideRequests).set({ status: "cancelled", cancelledAt: now }).where(between),
  ]);
  // The other person's counts may change (a cancelled pending request); they are told nothing.
  return { created: inserted.length > 0, audience: audience([], [personId]) };
}

export async function unblockUser({ db }: ModelCtx, actorId: string, personId: string) {
  if (actorId === personId) throw new NotFoundError(PERSON_NOT_FOUND);
  const removed = await db
    .delete(userBlocks)
    .where(and(eq(userBlocks.blockerId, actorId), eq(userBlocks.blockedId, personId)))
    .returning({ id: userBlocks.blockedId });
  if (removed.length === 0) throw new NotFoundError("You have not blocked this person.");
  return { audience: audience() };
}

/** The people the acting user blocked (Settings, to unblock). */
export async function listBlocked({ db }: ModelCtx, actorId: string) {
  return blockedQuery(db, actorId);
}

/** listBlocked's read, for another model's batch (AlsoReads). */
export function blockedQuery(db: Db, actorId: string) {
  return db
    .select({ id: userBlocks.blockedId, fullName: userProfiles.fullName, createdAt: userBlocks.createdAt })
    .from(userBlocks)
    .leftJoin(userProfiles, eq(userProfiles.userId, userBlocks.blockedId))
    .where(eq(userBlocks.blockerId, actorId))
    .orderBy(desc(userBlocks.createdAt))
    .limit(200);
}

/** Who reads a report: the shared communities' admins, LoopRide's operators, or both. */
export type ReportReaders = "admins" | "operators" | "both";

export type ReportInput = { reason: ReportReason; details: string | null; context: "profile" | "ride" | "chat" };

/**
 * Any member reports someone else (once per person). In the same batch each admin of every
 * community both are approved members of gets one 'community' notification (never the
 * reporter or the reported person themselves, even if an admin). Issue 37: a report no such
 * admin can read, or an urgent one (URGENT_REASONS), goes to LoopRide's operators' queue too
 * (`queue`, decided in the INSERT itself), and each operator is notified; the reporter is
 * told who reads it (`readers`).
 */
export async function reportUser(
  { db, env }: ModelCtx & { env: Pick<AppEnv, "OPERATOR_EMAILS"> },
  reporterId: string,
  reportedId: string,
  input: ReportInput,
  now = Date.now(),
) {
  const [reported, reporter] = await Promise.all([
    requireOther(db, reporterId, reportedId),
    db.select({ fullName: userProfiles.fullName }).from(userProfiles).where(eq(userProfiles.userId, reporterId)).get(),
  ]);
  const id = newId();
  const admin = alias(communityMembers, "admin");
  const r = alias(communityMembers, "r");
  const d = alias(communityMembers, "d");
  const shared = sql`FROM ${communityMembers} AS admin
    JOIN ${communityMembers} AS r ON r.community_id = admin.community_id AND r.user_id = ${reporterId} AND r.status = 'approved'
    JOIN ${communityMembers} AS d ON d.community_id = admin.community_id AND d.user_id = ${reportedId} AND d.status = 'approved'
    WHERE admin.role = 'admin' AND admin.status = 'approved' AND admin.user_id NOT IN (${reporterId}, ${reportedId})`;
  const message = `${reporter?.fullName ?? "A member"} reported ${reported.fullName ?? "a member"}: ${reasonLabel(input.reason)}.`;
  const queue = URGENT_REASONS.includes(input.reason)
    ? sql`'operators'`
    : sql`CASE WHEN EXISTS (SELECT 1 ${shared}) THEN 'community' ELSE 'operators' END`;
  const emails = operatorEmails(env.OPERATOR_EMAILS);
  const operators = emails.length
    ? sql`FROM users op WHERE op.email IN (${sql.join(
        emails.map((e) => sql`${e}`),
        sql`, `,
      )}) AND op.email_verified_at IS NOT NULL AND op.id NOT IN (${reporterId}, ${reportedId})
        AND EXISTS (SELECT 1 FROM user_reports q WHERE q.id = ${id} AND q.queue = 'operators')`
    : sql`WHERE 0`;
  try {
    const [inserted, , admins] = await db.batch([
      db
        .insert(userReports)
        .values({
          id,
          reporterId,
          reportedId,
          reason: input.reason,
          details: input.details,
          context: input.context,
          createdAt: now,
          queue,
        })
        .returning({ queue: userReports.queue }),
      notificationInsert(
        db,
        {
          id: PER_ROW_ID,
          userId: sql`admin.user_id`,
          type: "community",
          title: "A member was reported",
          message,
          data: sql`json_object('report_id', ${id}, 'community_id', min(admin.community_id))`,
        },
        now,
        sql`${shared} GROUP BY admin.user_id`,
      ),
      db
        .selectDistinct({ userId: admin.userId })
        .from(admin)
        .innerJoin(r, and(eq(r.communityId, admin.communityId), eq(r.userId, reporterId), eq(r.status, "approved")))
        .innerJoin(d, and(eq(d.communityId, admin.communityId), eq(d.userId, reportedId), eq(d.status, "approved")))
        .where(
          and(
            eq(admin.role, "admin"),
            eq(admin.status, "approved"),
            sql`${admin.userId} NOT IN (${reporterId}, ${reportedId})`,
          ),
        ),
      notificationInsert(
        db,
        {
          id: PER_ROW_ID,
          userId: sql`op.id`,
          type: "community",
          title: "A report for LoopRide's operators",
          message,
          data: { report_id: id, operators: true },
        },
        now,
        operators,
      ),
    ]);
    const toOperators = inserted[0]?.queue === "operators";
    const readers: ReportReaders = toOperators ? (admins.length ? "both" : "operators") : "admins";
    return { id, readers, audience: audience(admins.map((a) => a.userId)) };
  } catch (e) {
    if (isUniqueViolation(e)) throw new ConflictError(ALREADY_REPORTED);
    throw e;
  }
}

/**
 * A community's reports, for its admins (from their membership rows: holdsRole): reports by one approved member
 * about another, newest first. Anyone else: ForbiddenError; a missing community: NotFoundError.
 */
export async function listCommunityReports({ db }: ModelCtx, actorId: string, communityId: string) {
  const reporterProfile = alias(userProfiles, "reporter_profile");
  const r = alias(communityMembers, "r");
  const d = alias(communityMembers, "d");
  const [community, me, rows] = await db.batch([
    db.select({ id: communities.id, name: communities.name }).from(communities).where(eq(communities.id, communityId)),
    db
      .select({ role: communityMembers.role, status: communityMembers.status })
      .from(communityMembers)
      .where(and(eq(communityMembers.communityId, communityId), eq(communityMembers.userId, actorId))),
    db
      .select({
        id: userReports.id,
        reason: userReports.reason,
        details: userReports.details,
        context: userReports.context,
        createdAt: userReports.createdAt,
        reportedId: userReports.reportedId,
        // Two full_name columns in one batched row would collide (see ride-columns.server.ts `aliased`).
        reportedName: sql<string | null>`${userProfiles.fullName}`.as("reported_name"),
        reporterName: sql<string | null>`${reporterProfile.fullName}`.as("reporter_name"),
      })
      .from(userReports)
      .innerJoin(r, and(eq(r.userId, userReports.reporterId), eq(r.communityId, communityId), eq(r.status, "approved")))
      .innerJoin(d, and(eq(d.userId, userReports.reportedId), eq(d.communityId, communityId), eq(d.status, "approved")))
      .leftJoin(userProfiles, eq(userProfiles.userId, userReports.reportedId))
      .leftJoin(reporterProfile, eq(reporterProfile.userId, userReports.reporterId))
      // The same rule as below, in SQL: the batch returns no report to anyone but an admin.
      .where(holdsRoleSql(actorId, communityId, "admin"))
      .orderBy(desc(userReports.createdAt))
      .limit(200),
  ]);
  const c = community[0];
  if (!c) throw new NotFoundError("Community not found");
  if (!holdsRole(me[0], "admin")) throw new ForbiddenError(REPORTS_FORBIDDEN);
  return {
    community: { id: c.id, name: c.name },
    reports: rows.map((x) => ({ ...x, reasonLabel: reasonLabel(x.reason) })),
  };
}
