import { roleRank } from "./permissions.server";
import { and, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import { communityMembers, commutes, rideRequests, rides, userProfiles } from "../../db/schema";
import { addDays, istDate } from "../domain/time";
import { formatDateTimeShort } from "../domain/time";
import { SUSPENSION_DAY_OPTIONS } from "../domain/moderation";
import { auditInsert } from "./community-audit.server";
import { endCommutesAndRides } from "./commute-ending.server";
import { findRequest, type MemberRole } from "./communities.server";
import { findCommunity, findMembership, refreshMemberCount } from "./community-rows.server";
import { type ModelCtx, audience } from "./context.server";
import type { Db } from "./db.server";
import { ConflictError, ForbiddenError } from "./errors.server";
import { daysListSql, notificationInsert, notificationInsertIfChanged, PER_ROW_ID } from "./notifications.server";

// Moderation of members (issue 16, item 4): remove, suspend for a period, lift a
// suspension, hand over admin. Who may act on whom (docs/decisions/0021):
//   a moderator acts on plain members; an admin (or the creator) also on moderators;
//   nobody removes or suspends an admin or the creator, nor themselves;
//   only an admin member hands over admin (they become a moderator).
// Every action is one db.batch whose first statement is the guarded membership change;
// everything after it (cancellations, notifications, the audit row) is guarded on that
// change having happened, so a refused or lost race writes nothing.

const DAY_MS = 24 * 60 * 60 * 1000;
export const SUSPENSION_DAYS = SUSPENSION_DAY_OPTIONS;
export const FORBIDDEN_MODERATE_MEMBER = "You don't have permission to moderate this member.";
export const ONLY_ADMIN_MODERATES_MODERATORS = "Only an admin can remove or suspend a moderator.";
export const ADMINS_ARE_PROTECTED = "An admin cannot be removed or suspended. Hand over admin first.";
export const NOT_YOURSELF = "You cannot remove or suspend yourself.";
export const ONLY_ADMIN_HANDS_OVER = "Only an admin can hand over admin.";
export const NOT_AN_APPROVED_MEMBER = "This person is no longer a member of this community.";

const RANK: Record<MemberRole, number> = { member: 0, moderator: 1, admin: 2 };

/** The acting user's power in the community: -1 none, 1 moderator, 2 admin (roleRank: membership rows only). */
function rankOf(actorId: string | null, membership: { status: string; role: string } | undefined) {
  const rank = actorId ? roleRank(membership) : -1;
  return rank < RANK.moderator ? -1 : rank;
}

/**
 * Loads community, actor and target and checks the actor may remove / suspend the target.
 * Returns the roles the guarded UPDATE may still find (so a target promoted meanwhile is
 * not removed by someone who may no longer do it).
 */
async function authorizeOnMember(db: Db, actorId: string | null, communityId: string, memberId: string) {
  const community = await findCommunity(db, communityId);
  const membership = actorId ? await findMembership(db, communityId, actorId) : undefined;
  const rank = rankOf(actorId, membership);
  if (rank < RANK.moderator) throw new ForbiddenError(FORBIDDEN_MODERATE_MEMBER);
  const target = await findRequest(db, communityId, memberId);
  if (target.userId === actorId) throw new ConflictError(NOT_YOURSELF);
  if (target.status !== "approved") throw new ConflictError(NOT_AN_APPROVED_MEMBER);
  if (target.role === "admin") throw new ForbiddenError(ADMINS_ARE_PROTECTED);
  if (RANK[target.role as MemberRole] >= rank) throw new ForbiddenError(ONLY_ADMIN_MODERATES_MODERATORS);
  const roles = (Object.keys(RANK) as MemberRole[]).filter((r) => RANK[r] < rank);
  return { community, target, roles };
}

/** The target's live requests on this community's rides that have not departed. */
function futureBookings(communityId: string, riderId: string, now: number) {
  return sql`${rideRequests.riderId} = ${riderId} AND ${rideRequests.status} IN ('pending','accepted')
    AND ${rideRequests.rideId} IN (SELECT ${rides.id} FROM ${rides} WHERE ${rides.communityId} = ${communityId} AND ${rides.status} = 'active' AND ${rides.departsAt} > ${now})`;
}

/** The driver's active rides with the community that have not departed (`rides` in scope). */
function drivenRides(communityId: string, driverId: string, now: number) {
  return sql`${rides.communityId} = ${communityId} AND ${rides.driverId} = ${driverId} AND ${rides.status} = 'active' AND ${rides.departsAt} > ${now}`;
}

/**
 * The statements that take a driver's upcoming rides and commutes out of a community they no
 * longer belong to, each guarded on `guard` (their membership change having happened): every
 * rider with a live request is told, the requests and rides are cancelled (the top-up would
 * not add days for them any more: permissions.server.ts inGoodStanding), the commutes end.
 */
function driverLeaves(db: Db, communityId: string, communityName: string, driverId: string, now: number, guard: SQL) {
  const reason = `The driver is no longer a member of ${communityName}.`;
  return endCommutesAndRides(db, {
    driverId,
    rides: eq(rides.communityId, communityId),
    commutes: eq(commutes.communityId, communityId),
    ending: { endDate: sql`max(${commutes.startDate}, ${addDays(istDate(now), -1)})`, status: "ended" },
    notice: {
      title: "Ride cancelled",
      message: sql`CASE WHEN count(*) = 1 THEN 'The ride' ELSE 'The rides' END || ' from ' || ${rides.fromLocation} || ' to ' || ${rides.toLocation}
        || ' on ' || ${daysListSql()} || CASE WHEN count(*) = 1 THEN ' is' ELSE ' are' END || ' cancelled: ' || ${reason}`,
      extra: sql`'status', 'cancelled'`,
    },
    reason,
    now,
    guard,
  });
}

/**
 * Removes an approved member: their row becomes 'rejected' (decided by the actor), so they
 * cannot ask again until a moderator clears it; their pending and accepted requests on the
 * community's rides that have not departed are cancelled (seats released), each rider and
 * driver is told, and the action is logged. One batch.
 */
export async function removeMember(
  { db }: ModelCtx,
  actorId: string | null,
  communityId: string,
  memberId: string,
  now = Date.now(),
) {
  const { community, target, roles } = await authorizeOnMember(db, actorId, communityId, memberId);
  const [profile, bookings, riders] = await db.batch([
    db
      .select({ fullName: userProfiles.fullName })
      .from(userProfiles)
      .where(eq(userProfiles.userId, target.userId))
      .limit(1),
    // Whom to tell live (the drivers, and the riders of their own rides); the batch below
    // decides which rows really change.
    db
      .select({ driverId: rides.driverId })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .where(futureBookings(communityId, target.userId, now)),
    db
      .select({ riderId: rideRequests.riderId })
      .from(rideRequests)
      .where(
        and(
          inArray(rideRequests.status, ["pending", "accepted"]),
          sql`${rideRequests.rideId} IN (SELECT ${rides.id} FROM ${rides} WHERE ${drivenRides(communityId, target.userId, now)})`,
        ),
      ),
  ]);
  const name = profile[0]?.fullName ?? "A member";
  const removedNow = sql`EXISTS (SELECT 1 FROM ${communityMembers} WHERE ${communityMembers.id} = ${memberId}
    AND ${communityMembers.status} = 'rejected' AND ${communityMembers.decidedAt} = ${now} AND ${communityMembers.decidedBy} = ${actorId})`;
  const bookingRows = sql`FROM ${rideRequests} JOIN ${rides} ON ${rides.id} = ${rideRequests.rideId}
    WHERE ${futureBookings(communityId, target.userId, now)} AND ${removedNow}`;
  const [removed] = await db.batch([
    db
      .update(communityMembers)
      .set({ status: "rejected", role: "member", suspendedUntil: null, decidedAt: now, decidedBy: actorId })
      .where(
        and(
          eq(communityMembers.id, memberId),
          eq(communityMembers.status, "approved"),
          inArray(communityMembers.role, roles),
        ),
      )
      .returning({ id: communityMembers.id }),
    // changes() chains: the audit row exists exactly when the update changed the row, and
    // the notice exactly when the audit row was inserted (a same-millisecond duplicate by
    // the same moderator matches removedNow too, so these two cannot use it).
    auditInsert(
      db,
      { communityId, actorId: actorId!, action: "remove", targetUserId: target.userId },
      now,
      sql`changes() = 1`,
    ),
    notificationInsertIfChanged(
      db,
      {
        userId: target.userId,
        type: "community",
        title: "Removed from community",
        message: `A moderator removed you from ${community.name}. Your bookings on its upcoming rides were cancelled.`,
        data: { community_id: communityId, action: "removed" },
      },
      now,
    ),
    notificationInsert(
      db,
      {
        id: PER_ROW_ID,
        userId: sql`${rideRequests.riderId}`,
        type: "ride_update",
        title: "Booking cancelled",
        message: sql`'Your booking on the ride from ' || ${rides.fromLocation} || ' to ' || ${rides.toLocation} || ' on ' || ${rides.date} || ' was cancelled: you are no longer a member of ' || ${community.name} || '.'`,
        data: sql`json_object('ride_id', ${rideRequests.rideId}, 'request_id', ${rideRequests.id}, 'status', 'cancelled')`,
      },
      now,
      bookingRows,
    ),
    notificationInsert(
      db,
      {
        id: PER_ROW_ID,
        userId: sql`${rides.driverId}`,
        type: "ride_update",
        title: "Seat cancelled",
        message: sql`${name} || ' is no longer a member of ' || ${community.name} || ': their ' || CASE ${rideRequests.status} WHEN 'accepted' THEN 'seat' ELSE 'request' END || ' on your ride from ' || ${rides.fromLocation} || ' to ' || ${rides.toLocation} || ' was cancelled.'`,
        data: sql`json_object('ride_id', ${rideRequests.rideId}, 'request_id', ${rideRequests.id}, 'status', 'cancelled', 'seats', ${rideRequests.seats})`,
      },
      now,
      bookingRows,
    ),
    db
      .update(rideRequests)
      .set({ status: "cancelled", cancelledAt: now })
      .where(and(sql`${futureBookings(communityId, target.userId, now)}`, removedNow)),
    // booked_seats recomputed (ADR 0007) for every ride that just lost this rider.
    db
      .update(rides)
      .set({
        bookedSeats: sql`(SELECT coalesce(sum(rr.seats), 0) FROM ride_requests rr WHERE rr.ride_id = ${rides.id} AND rr.status = 'accepted')`,
      })
      .where(
        sql`${rides.id} IN (SELECT ${rideRequests.rideId} FROM ${rideRequests} WHERE ${rideRequests.riderId} = ${target.userId} AND ${rideRequests.status} = 'cancelled' AND ${rideRequests.cancelledAt} = ${now}) AND ${removedNow}`,
      ),
    // Issue 34: a removed driver's upcoming rides with the community are cancelled (their
    // riders told) and their commutes with it ended, so nothing of theirs stays bookable there.
    ...driverLeaves(db, communityId, community.name, target.userId, now, removedNow),
    refreshMemberCount(db, communityId),
  ]);
  if (removed.length === 0) throw new ConflictError(NOT_AN_APPROVED_MEMBER);
  const told = [target.userId, ...bookings.map((b) => b.driverId), ...riders.map((r) => r.riderId)];
  return { id: community.id, name: community.name, memberName: name, audience: audience([...new Set(told)]) };
}

/**
 * Suspends an approved member for `days` (replacing a running suspension): until then they
 * can neither share a ride with the community nor ask for a seat on its rides. Their
 * membership and existing bookings stay.
 */
export async function suspendMember(
  { db }: ModelCtx,
  actorId: string | null,
  communityId: string,
  memberId: string,
  days: number,
  now = Date.now(),
) {
  if (!SUSPENSION_DAYS.includes(days as (typeof SUSPENSION_DAYS)[number]))
    throw new ConflictError("Choose a suspension period from the list.");
  const { community, target, roles } = await authorizeOnMember(db, actorId, communityId, memberId);
  const until = now + days * DAY_MS;
  const [updated] = await db.batch([
    db
      .update(communityMembers)
      .set({ suspendedUntil: until })
      .where(
        and(
          eq(communityMembers.id, memberId),
          eq(communityMembers.status, "approved"),
          inArray(communityMembers.role, roles),
        ),
      )
      .returning({ id: communityMembers.id }),
    notificationInsertIfChanged(
      db,
      {
        userId: target.userId,
        type: "community",
        title: "Suspended from community",
        message: `A moderator suspended you from ${community.name} until ${formatDateTimeShort(until)}. Until then you cannot share or book its rides.`,
        data: { community_id: communityId, action: "suspended", until },
      },
      now,
    ),
    // The notification above inserted a row exactly when the suspension was written.
    auditInsert(
      db,
      {
        communityId,
        actorId: actorId!,
        action: "suspend",
        targetUserId: target.userId,
        detail: `${days} day${days === 1 ? "" : "s"}`,
      },
      now,
      sql`changes() = 1`,
    ),
  ]);
  if (updated.length === 0) throw new ConflictError(NOT_AN_APPROVED_MEMBER);
  return { id: community.id, until, audience: audience([target.userId]) };
}

/** Ends a running suspension early. */
export async function liftSuspension(
  { db }: ModelCtx,
  actorId: string | null,
  communityId: string,
  memberId: string,
  now = Date.now(),
) {
  const { community, target, roles } = await authorizeOnMember(db, actorId, communityId, memberId);
  const [updated] = await db.batch([
    db
      .update(communityMembers)
      .set({ suspendedUntil: null })
      .where(
        and(
          eq(communityMembers.id, memberId),
          eq(communityMembers.status, "approved"),
          inArray(communityMembers.role, roles),
          sql`${communityMembers.suspendedUntil} > ${now}`,
        ),
      )
      .returning({ id: communityMembers.id }),
    notificationInsertIfChanged(
      db,
      {
        userId: target.userId,
        type: "community",
        title: "Suspension lifted",
        message: `Your suspension from ${community.name} was lifted. You can share and book its rides again.`,
        data: { community_id: communityId, action: "unsuspended" },
      },
      now,
    ),
    auditInsert(
      db,
      { communityId, actorId: actorId!, action: "unsuspend", targetUserId: target.userId },
      now,
      sql`changes() = 1`,
    ),
  ]);
  if (updated.length === 0) throw new ConflictError("This member is not suspended.");
  return { id: community.id, audience: audience([target.userId]) };
}

/**
 * An admin hands admin over to an approved member, and becomes a moderator. Both role
 * changes are in one batch, each guarded on the other, so a community never loses its
 * admin and two hand-overs at once cannot both succeed.
 */
export async function handOverAdmin(
  { db }: ModelCtx,
  actorId: string | null,
  communityId: string,
  memberId: string,
  now = Date.now(),
) {
  const community = await findCommunity(db, communityId);
  const mine = actorId ? await findMembership(db, communityId, actorId) : undefined;
  if (!actorId || mine?.status !== "approved" || mine.role !== "admin") throw new ForbiddenError(ONLY_ADMIN_HANDS_OVER);
  const target = await findRequest(db, communityId, memberId);
  if (target.userId === actorId) throw new ConflictError("You are already an admin.");
  if (target.status !== "approved") throw new ConflictError(NOT_AN_APPROVED_MEMBER);
  if (target.role === "admin") throw new ConflictError("This member is already an admin.");
  const actorIsAdmin = sql`EXISTS (SELECT 1 FROM ${communityMembers} WHERE ${communityMembers.id} = ${mine.id} AND ${communityMembers.status} = 'approved' AND ${communityMembers.role} = 'admin')`;
  const targetIsAdmin = sql`EXISTS (SELECT 1 FROM ${communityMembers} WHERE ${communityMembers.id} = ${memberId} AND ${communityMembers.status} = 'approved' AND ${communityMembers.role} = 'admin')`;
  const [promoted] = await db.batch([
    db
      .update(communityMembers)
      .set({ role: "admin" })
      .where(
        and(
          eq(communityMembers.id, memberId),
          eq(communityMembers.status, "approved"),
          ne(communityMembers.role, "admin"),
          actorIsAdmin,
        ),
      )
      .returning({ id: communityMembers.id }),
    db
      .update(communityMembers)
      .set({ role: "moderator" })
      .where(
        and(eq(communityMembers.id, mine.id), eq(communityMembers.role, "admin"), targetIsAdmin, sql`changes() = 1`),
      ),
    notificationInsertIfChanged(
      db,
      {
        userId: target.userId,
        type: "community",
        title: "You are now an admin",
        message: `You are now an admin of ${community.name}: you set its rules and moderate its moderators.`,
        data: { community_id: communityId, action: "admin" },
      },
      now,
    ),
    auditInsert(db, { communityId, actorId, action: "handover", targetUserId: target.userId }, now, sql`changes() = 1`),
  ]);
  if (promoted.length === 0)
    throw new ConflictError("Admin could not be handed over: the roles changed meanwhile. Please try again.");
  return { id: community.id, audience: audience([target.userId]) };
}
