import { holdsRole } from "./permissions.server";
import { isUniqueViolation } from "./db-errors.server";
import { and, asc, count, desc, eq, exists, like, ne, or, sql, type SQL } from "drizzle-orm";
import { communities, communityMembers, communityNameKey, userProfiles, userSettings } from "../../db/schema";
import { cursorParam, type Cursor } from "../domain/cursor";
import { newId } from "../domain/ids";
import { straightLineKm } from "../domain/places";
import { PLACES, placeByName } from "./places.server";
import { afterCursor } from "./keyset.server";
import type { Db } from "./db.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { notificationInsert, notificationInsertIfChanged, PER_ROW_ID } from "./notifications.server";
import { type ModelCtx, audience } from "./context.server";
import { builtListOnce, type Preparable, type RowsOfAll, runReads } from "./statements.server";
import { auditInsert } from "./community-audit.server";
import { policyColumn, policyOf } from "./community-policy.server";
import { COMMUNITY_NOT_FOUND, findCommunity, findMembership, refreshMemberCount } from "./community-rows.server";

/** The community card everyone may see: the list's rows and the head of a community's page. */
const communityCardColumns = {
  id: communities.id,
  name: communities.name,
  type: communities.type,
  location: communities.location,
  description: communities.description,
  memberCount: communities.memberCount,
  createdAt: communities.createdAt,
};

/** How far from a rider's home a community's locality still counts as nearby. */
const NEARBY_KM = 3;

/**
 * Up to `limit` communities near a home locality that the viewer is not in (nor waiting for):
 * those whose location starts with the home's name or one of the places within NEARBY_KM of it,
 * the largest first. Locations are free text ("HSR Layout, Bengaluru"), hence the prefixes.
 * Everyone may see every community card (the list is public), so no other rule applies.
 * Null without a home to be near.
 */
export function nearbyCommunitiesQuery(db: Db, viewerId: string, home: string | null, limit = 3) {
  const typed = home?.trim();
  if (!typed) return null;
  const at = placeByName(typed);
  const names = at
    ? PLACES.map((p) => ({ name: p.name, km: straightLineKm(at, p) }))
        .filter((p) => p.km <= NEARBY_KM)
        .sort((a, b) => a.km - b.km)
        .slice(0, 12)
        .map((p) => p.name)
    : [typed];
  const mine = db
    .select({ one: sql`1` })
    .from(communityMembers)
    .where(and(eq(communityMembers.communityId, communities.id), eq(communityMembers.userId, viewerId)));
  return db
    .select(communityCardColumns)
    .from(communities)
    .where(and(or(...names.map((n) => like(communities.location, `${n}%`))), sql`NOT ${exists(mine)}`))
    .orderBy(desc(communities.memberCount), asc(communities.id))
    .limit(limit);
}

export type NearbyCommunity = Awaited<NonNullable<ReturnType<typeof nearbyCommunitiesQuery>>>[number];

/** Communities where the user is an approved member (for sharing a ride with one). */
export async function listMyCommunities({ db }: ModelCtx, userId: string) {
  return db
    .select({ id: communities.id, name: communities.name, type: communities.type })
    .from(communityMembers)
    .innerJoin(communities, eq(communities.id, communityMembers.communityId))
    .where(and(eq(communityMembers.userId, userId), eq(communityMembers.status, "approved")))
    .orderBy(communities.name);
}

// ---------------------------------------------------------------- communities and membership
//
// The membership state machine (one community_members row per user and community):
//   not_member --join--> pending --approve--> approved --leave--> not_member (row deleted)
//                                 --reject---> rejected --clear (moderator)--> not_member
// A rejected user cannot ask again until a moderator clears the rejection
// (docs/decisions/0004-rejected-join-requests.md). Every change is one db.batch with
// refreshMemberCount, so member_count always equals the approved rows.

export const COMMUNITY_TYPES = ["residential", "workplace", "interest"] as const;
export type CommunityType = (typeof COMMUNITY_TYPES)[number];
export type MembershipStatus = "not_member" | "pending" | "approved" | "rejected";
export type MemberRole = "member" | "moderator" | "admin";

export const COMMUNITIES_PAGE_SIZE = 24;
export const FORBIDDEN_MODERATION = "You don't have permission to moderate this community.";

/** Newest first, optionally by type and a case-insensitive name search, with the viewer's status. */
export async function listCommunities(
  { db }: ModelCtx,
  viewerId: string | null,
  { q = "", type = null, page = 1 }: { q?: string; type?: CommunityType | null; page?: number } = {},
) {
  const conditions = [];
  if (type) conditions.push(eq(communities.type, type));
  const needle = q.trim().toLowerCase();
  if (needle) conditions.push(sql`instr(lower(${communities.name}), ${needle}) > 0`);
  const size = COMMUNITIES_PAGE_SIZE;
  const rows = await db
    .select({
      ...communityCardColumns,
      status: communityMembers.status,
    })
    .from(communities)
    .leftJoin(
      communityMembers,
      and(eq(communityMembers.communityId, communities.id), eq(communityMembers.userId, viewerId ?? "")),
    )
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(communities.createdAt), desc(communities.id))
    .limit(size + 1)
    .offset((Math.max(1, page) - 1) * size);
  return {
    communities: rows.slice(0, size).map(({ status, ...c }) => ({
      ...c,
      type: c.type as CommunityType,
      membership: (status ?? "not_member") as MembershipStatus,
    })),
    hasMore: rows.length > size,
  };
}

/** Creates a community; its creator is an approved admin member (member_count 1). */
export async function createCommunity(
  { db }: ModelCtx,
  userId: string,
  input: { name: string; type: CommunityType; location: string; description: string },
  now = Date.now(),
) {
  const clash = await sameName(db, input.name);
  if (clash) throw duplicateName(clash.id);
  const id = newId();
  // Two creations of one name at once both pass the read above; the unique index on
  // name_key lets one insert through and the other is refused the same way.
  await guardSameName(db, input.name, async () => {
    await db.batch([
      db.insert(communities).values({ id, ...input, createdBy: userId, createdAt: now }),
      db.insert(communityMembers).values({
        id: newId(),
        communityId: id,
        userId,
        status: "approved",
        role: "admin",
        requestedAt: now,
        decidedAt: now,
        decidedBy: userId,
      }),
      refreshMemberCount(db, id),
    ]);
  });
  return { id, name: input.name };
}

export const DUPLICATE_NAME = "A community with this name already exists";

const duplicateName = (id: string) => new ConflictError(DUPLICATE_NAME, { field: "name", link: `/communities/${id}` });

/** The community whose name matches `name` once spaces and case are set aside, if any. */
const sameName = (db: Db, name: string) =>
  db
    .select({ id: communities.id })
    .from(communities)
    .where(eq(communities.nameKey, communityNameKey(sql`${name}`)))
    .get();

/** Runs the insert; a unique violation on the name is answered as the duplicate it is. */
async function guardSameName(db: Db, name: string, insert: () => Promise<void>) {
  try {
    await insert();
  } catch (e) {
    const clash = isUniqueViolation(e) ? await sameName(db, name) : undefined;
    if (clash) throw duplicateName(clash.id);
    throw e;
  }
}

/** An approved moderator or admin may moderate (holdsRole: membership rows only). */
function mayModerate(userId: string | null, membership: { status: string; role: string } | undefined): boolean {
  return userId !== null && holdsRole(membership, "moderator");
}

async function requireModerator(db: Db, actorId: string | null, communityId: string) {
  const community = await findCommunity(db, communityId);
  const membership = actorId ? await findMembership(db, communityId, actorId) : undefined;
  if (!mayModerate(actorId, membership)) throw new ForbiddenError(FORBIDDEN_MODERATION);
  return { community, membership };
}

const ALREADY: Record<string, string> = {
  pending: "You have already requested to join this community.",
  approved: "You are already a member of this community.",
  rejected: "Your request to join this community was declined. A moderator must clear it before you can ask again.",
};

export const INVITE_ONLY = "This community is joined with an invitation link from its admins.";
export const INVITE_INVALID = "This invitation link is no longer valid. Ask the community's admins for a new one.";
export const DOMAIN_JOIN =
  "This community is joined by verifying your work e-mail address: enter it on the community's page to get a code.";

/**
 * not_member -> pending, or straight to approved where the community's join rule says so
 * (issue 16: open, or invite with the current token). One insert guarded by the unique
 * (community, user) index: a second join, however many arrive at once, is refused with a
 * ConflictError; the insert also re-checks the rule, so a link revoked meanwhile admits nobody.
 */
export async function requestToJoin(
  { db }: ModelCtx,
  userId: string,
  communityId: string,
  now = Date.now(),
  opts: { invite?: string | null } = {},
) {
  const community = await findCommunity(db, communityId);
  const mode = community.joinMode;
  if (mode === "domain") throw new ConflictError(DOMAIN_JOIN);
  if (mode === "invite" && !opts.invite) throw new ConflictError(INVITE_ONLY);
  const admitted = mode === "open" || mode === "invite";
  const rule =
    mode === "invite"
      ? sql`EXISTS (SELECT 1 FROM ${communities} WHERE ${communities.id} = ${communityId} AND ${communities.joinMode} = 'invite' AND ${communities.inviteToken} = ${opts.invite ?? ""})`
      : sql`EXISTS (SELECT 1 FROM ${communities} WHERE ${communities.id} = ${communityId} AND ${communities.joinMode} = ${mode})`;
  let inserted: { id: string }[];
  try {
    [inserted] = await db.batch([
      // Columns in table order: id, community_id, user_id, status, role, requested_at, decided_at, decided_by, suspended_until,
      // verified_email, verified_domain, verified_at.
      db
        .insert(communityMembers)
        .select(
          sql`SELECT ${newId()}, ${communityId}, ${userId}, ${admitted ? "approved" : "pending"}, 'member', ${now}, ${admitted ? now : null}, NULL, NULL, NULL, NULL, NULL WHERE ${rule}`,
        )
        .returning({ id: communityMembers.id }),
      refreshMemberCount(db, communityId),
    ]);
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    const existing = await findMembership(db, communityId, userId);
    throw new ConflictError(ALREADY[existing?.status ?? "pending"] ?? ALREADY.pending);
  }
  if (inserted.length === 0)
    throw new ConflictError(
      mode === "invite" ? INVITE_INVALID : "This community's join rule just changed. Please try again.",
    );
  return { id: community.id, name: community.name, joined: admitted };
}

export const LAST_ADMIN_MESSAGE =
  "You are the only admin of this community. Make another member an admin before leaving.";

/**
 * approved -> not_member: the row is deleted. The last admin cannot leave; the guard is in the
 * DELETE itself, so two admins leaving at once cannot both succeed.
 */
export async function leaveCommunity({ db }: ModelCtx, userId: string, communityId: string) {
  const community = await findCommunity(db, communityId);
  const membership = await findMembership(db, communityId, userId);
  if (!membership || membership.status !== "approved")
    throw new ConflictError("You are not a member of this community.");
  const otherAdmin = db
    .select({ one: sql`1` })
    .from(communityMembers)
    .where(
      and(
        eq(communityMembers.communityId, communityId),
        eq(communityMembers.status, "approved"),
        eq(communityMembers.role, "admin"),
        ne(communityMembers.userId, userId),
      ),
    );
  const [deleted] = await db.batch([
    db
      .delete(communityMembers)
      .where(
        and(
          eq(communityMembers.id, membership.id),
          eq(communityMembers.status, "approved"),
          or(ne(communityMembers.role, "admin"), exists(otherAdmin)),
        ),
      )
      .returning({ id: communityMembers.id }),
    refreshMemberCount(db, communityId),
  ]);
  if (deleted.length === 0) {
    if (membership.role === "admin") throw new ConflictError(LAST_ADMIN_MESSAGE);
    throw new ConflictError("You are not a member of this community.");
  }
  return { id: community.id, name: community.name };
}

export async function findRequest(db: Db, communityId: string, memberId: string) {
  const row = await db
    .select({
      id: communityMembers.id,
      userId: communityMembers.userId,
      status: communityMembers.status,
      role: communityMembers.role,
    })
    .from(communityMembers)
    .where(and(eq(communityMembers.id, memberId), eq(communityMembers.communityId, communityId)))
    .get();
  if (!row) throw new NotFoundError("Request not found");
  return row;
}

/**
 * pending -> approved / rejected, by a moderator of THAT community. The status change, the
 * member count and the requester's notification are one batch.
 */
export async function decideJoinRequest(
  { db }: ModelCtx,
  actorId: string | null,
  communityId: string,
  memberId: string,
  decision: "approved" | "rejected",
  now = Date.now(),
) {
  const { community } = await requireModerator(db, actorId, communityId);
  const request = await findRequest(db, communityId, memberId);
  if (request.status !== "pending") throw new ConflictError("This request is no longer pending.");
  const approved = decision === "approved";
  const [updated] = await db.batch([
    db
      .update(communityMembers)
      .set({ status: decision, decidedAt: now, decidedBy: actorId })
      .where(and(eq(communityMembers.id, memberId), eq(communityMembers.status, "pending")))
      .returning({ id: communityMembers.id }),
    // Right after the guarded update: written only if this decision won.
    notificationInsertIfChanged(
      db,
      {
        userId: request.userId,
        type: "community",
        title: approved ? "Request Approved" : "Request Rejected",
        message: approved
          ? `Your request to join ${community.name} has been approved. Welcome aboard!`
          : `Your request to join ${community.name} was not approved.`,
        data: { community_id: communityId },
      },
      now,
    ),
    // The notification above inserted a row exactly when this decision won.
    auditInsert(
      db,
      { communityId, actorId: actorId!, action: approved ? "approve" : "reject", targetUserId: request.userId },
      now,
      sql`changes() = 1`,
    ),
    refreshMemberCount(db, communityId),
  ]);
  if (updated.length === 0) throw new ConflictError("This request is no longer pending.");
  return { id: community.id, name: community.name, audience: audience([request.userId]) };
}

/** rejected -> not_member: a moderator clears a rejection so the user may ask again. */
export async function clearRejection(
  { db }: ModelCtx,
  actorId: string | null,
  communityId: string,
  memberId: string,
  now = Date.now(),
) {
  const { community } = await requireModerator(db, actorId, communityId);
  const request = await findRequest(db, communityId, memberId);
  if (request.status !== "rejected") throw new ConflictError("Only a rejected request can be cleared.");
  await db.batch([
    db.delete(communityMembers).where(and(eq(communityMembers.id, memberId), eq(communityMembers.status, "rejected"))),
    auditInsert(
      db,
      { communityId, actorId: actorId!, action: "clear", targetUserId: request.userId },
      now,
      sql`changes() = 1`,
    ),
    refreshMemberCount(db, communityId),
  ]);
  return { id: community.id, name: community.name };
}

/**
 * Promotes an approved member: any moderator may make a moderator; only an admin (or the
 * creator) may make an admin.
 */
export async function promoteMember(
  { db }: ModelCtx,
  actorId: string | null,
  communityId: string,
  memberId: string,
  role: "moderator" | "admin" = "moderator",
  now = Date.now(),
) {
  const { community, membership } = await requireModerator(db, actorId, communityId);
  if (role === "admin" && !holdsRole(membership, "admin")) {
    throw new ForbiddenError("Only an admin can make another member an admin.");
  }
  const target = await findRequest(db, communityId, memberId);
  if (target.status !== "approved") throw new ConflictError("Only approved members can be promoted.");
  if (target.role === role || target.role === "admin") throw new ConflictError("This member already has that role.");
  await db.batch([
    db
      .update(communityMembers)
      .set({ role })
      .where(and(eq(communityMembers.id, memberId), eq(communityMembers.status, "approved"))),
    auditInsert(
      db,
      { communityId, actorId: actorId!, action: "promote", targetUserId: target.userId, detail: role },
      now,
      sql`changes() = 1`,
    ),
    refreshMemberCount(db, communityId),
  ]);
  return { id: community.id, name: community.name };
}

/** Members on one page of each list of a community's page; "More" shows the next this many. */
export const MEMBERS_PAGE = 20;
/** Members a page on the moderation tab, where each comes with its remove and suspend forms. */
export const MODERATED_MEMBERS_PAGE = 10;
/** Join requests (pending, rejected) a page on the moderation tab, each with its decision forms. */
export const REQUESTS_PAGE = 15;
/**
 * Where each list of a community's page starts (a cursor from `more`; none: the first page);
 * `moderation`: the page is the moderation tab (fewer, heavier member rows).
 */
export type MemberPages = {
  members?: Cursor | null;
  pending?: Cursor | null;
  rejected?: Cursor | null;
  moderation?: boolean;
};

/** The values a community page's statements bind (builtListOnce, ADR 0069): the cursors' too. */
export type CommunityPageValues = {
  viewerId: string;
  communityId: string;
  membersAt: number;
  membersId: string;
  pendingAt: number;
  pendingId: string;
  rejectedAt: number;
  rejectedId: string;
};

/** The community page's other reads, made from its values; `key` names the list. */
export type CommunityPageReads = { key: string; make: (values: CommunityPageValues) => readonly Preparable[] };

function communityDetailQueries(db: Db, viewerId: string, communityId: string, pages: MemberPages) {
  const viewerIs = (roles: SQL) =>
    sql`EXISTS (SELECT 1 FROM ${communityMembers} AS vm WHERE vm.community_id = ${communityId} AND vm.user_id = ${viewerId} AND vm.status = 'approved' AND ${roles})`;
  const membersVisibleSql = viewerIs(sql`1`);
  const canModerateSql = viewerIs(sql`vm.role IN ('moderator', 'admin')`);
  // The community's id only where the guard holds (else NULL): as the index's search key, a
  // refused list reads no row at all (a guard in the WHERE would be tested on every row).
  const communityIf = (guard: SQL) => sql`(SELECT ${communityId} WHERE ${guard})`;

  // One page per list (ADR 0025), each a range read on community_members_status_idx
  // (community, status, requested_at) in order of joining, the id breaking ties; moderators
  // also get the pending count for the tab. One round trip however large the community.
  const listOf = (status: "approved" | "pending" | "rejected", after: Cursor | null, size: number, guard: SQL) =>
    db
      .select({
        id: communityMembers.id,
        userId: communityMembers.userId,
        status: communityMembers.status,
        role: communityMembers.role,
        requestedAt: communityMembers.requestedAt,
        decidedAt: communityMembers.decidedAt,
        fullName: userProfiles.fullName,
        avatarUrl: userProfiles.avatarUrl,
        residentialArea: userProfiles.residentialArea,
        workplace: userProfiles.workplace,
        showProfile: userSettings.showProfile,
        suspendedUntil: communityMembers.suspendedUntil,
        verifiedDomain: communityMembers.verifiedDomain,
      })
      .from(communityMembers)
      .leftJoin(userProfiles, eq(userProfiles.userId, communityMembers.userId))
      .leftJoin(userSettings, eq(userSettings.userId, communityMembers.userId))
      .where(
        and(
          eq(communityMembers.communityId, communityIf(guard)),
          eq(communityMembers.status, status),
          afterCursor(communityMembers.requestedAt, communityMembers.id, after, "newer"),
        ),
      )
      .orderBy(asc(communityMembers.requestedAt), asc(communityMembers.id))
      .limit(size + 1);
  const countOf = (status: "pending" | "rejected") =>
    db
      .select({ n: count() })
      .from(communityMembers)
      .where(and(eq(communityMembers.communityId, communityIf(canModerateSql)), eq(communityMembers.status, status)));
  // The moderation tab shows a moderator fewer members a page, anyone else the members tab:
  // both pages are asked for, each guarded by its rule, so exactly one of them reads rows.
  const moderatedTab = pages.moderation ? canModerateSql : sql`0`;
  const membersTab = pages.moderation ? sql`(${membersVisibleSql} AND NOT ${canModerateSql})` : membersVisibleSql;
  return [
    db
      .select({
        ...communityCardColumns,
        createdBy: communities.createdBy,
        joinMode: communities.joinMode,
        inviteToken: communities.inviteToken,
        emailDomain: communities.emailDomain,
        // Issue 16: the ride rules, read with the card (community-policy.server.ts), shown to members only.
        policy: policyColumn,
      })
      .from(communities)
      .where(eq(communities.id, communityId)),
    db
      .select({ id: communityMembers.id, status: communityMembers.status, role: communityMembers.role })
      .from(communityMembers)
      .where(and(eq(communityMembers.communityId, communityId), eq(communityMembers.userId, viewerId))),
    listOf("approved", pages.members ?? null, MODERATED_MEMBERS_PAGE, moderatedTab),
    listOf("approved", pages.members ?? null, MEMBERS_PAGE, membersTab),
    listOf("pending", pages.pending ?? null, REQUESTS_PAGE, canModerateSql),
    listOf("rejected", pages.rejected ?? null, REQUESTS_PAGE, canModerateSql),
    countOf("pending"),
    countOf("rejected"),
  ] as const;
}

type CommunityQueries = ReturnType<typeof communityDetailQueries>;

/**
 * The detail page: the community, the viewer's status, approved members (with profiles that
 * respect user_settings.show_profile) and, for moderators only, the open requests. Members
 * and their details are for approved members and moderators only (a closed community):
 * anyone else gets the community's card (name, type, location, description, member count)
 * and their own membership status, and the member lists return no row.
 *
 * One batch (ADR 0029): the card and the viewer's membership decide; the lists come in the
 * same batch, each guarded in SQL by the same rule (approved member or creator for the members;
 * moderator, admin or creator for the requests), so a non-member's batch reads no member.
 * The page's other reads (`also`) run in it too and come back as `also`.
 */
export async function getCommunityDetail(
  { db }: ModelCtx,
  viewerId: string,
  communityId: string,
  pages: MemberPages = {},
  also: CommunityPageReads = { key: "none", make: () => [] },
) {
  // Built once per isolate (ADR 0069): the cursors are bound values; the key says which are given.
  const values: CommunityPageValues = {
    viewerId,
    communityId,
    membersAt: pages.members?.at ?? 0,
    membersId: pages.members?.id ?? "",
    pendingAt: pages.pending?.at ?? 0,
    pendingId: pages.pending?.id ?? "",
    rejectedAt: pages.rejected?.at ?? 0,
    rejectedId: pages.rejected?.id ?? "",
  };
  const shape = ["members", "pending", "rejected", "moderation"].map((k) => (pages[k as keyof MemberPages] ? 1 : 0));
  const reads = builtListOnce(db, `community:${shape.join("")}:${also.key}`, values, (v) => [
    ...communityDetailQueries(db, v.viewerId, v.communityId, {
      members: pages.members && { at: v.membersAt, id: v.membersId },
      pending: pages.pending && { at: v.pendingAt, id: v.pendingId },
      rejected: pages.rejected && { at: v.rejectedAt, id: v.rejectedId },
      moderation: pages.moderation,
    }),
    ...also.make(v),
  ]);
  const results = await runReads(db, reads);
  const [found, membership, moderatedRows, memberRows, pendingRows, rejectedRows, pendingCount, rejectedCount] =
    results as unknown as RowsOfAll<CommunityQueries>;
  const alsoRead = results.slice(8);
  const community = found[0];
  if (!community) throw new NotFoundError(COMMUNITY_NOT_FOUND);
  const viewer = membership[0];
  const canModerate = mayModerate(viewerId, viewer);
  const membersVisible = canModerate || viewer?.status === "approved";
  const moderating = canModerate && !!pages.moderation;
  const membersPage = moderating ? MODERATED_MEMBERS_PAGE : MEMBERS_PAGE;
  // The SQL guards and these flags are the same rule read in the same batch; the flags win.
  const approvedRows = !membersVisible ? [] : moderating ? moderatedRows : memberRows;
  const nextOf = (rows: { requestedAt: number; id: string }[], size = MEMBERS_PAGE) => {
    const last = rows.length > size ? rows[size - 1] : null;
    return last ? cursorParam(last.requestedAt, last.id) : null;
  };
  const people = [
    approvedRows.slice(0, membersPage),
    canModerate ? pendingRows.slice(0, REQUESTS_PAGE) : [],
    canModerate ? rejectedRows.slice(0, REQUESTS_PAGE) : [],
  ].flat();

  const shown = people.map((p) => {
    const visible = p.showProfile !== false || p.userId === viewerId;
    return {
      id: p.id,
      userId: p.userId,
      status: p.status as Exclude<MembershipStatus, "not_member">,
      role: p.role as MemberRole,
      requestedAt: p.requestedAt,
      fullName: p.fullName,
      avatarUrl: visible ? p.avatarUrl : null,
      residentialArea: visible ? p.residentialArea : null,
      workplace: visible ? p.workplace : null,
      isSelf: p.userId === viewerId,
      isCreator: p.userId === community.createdBy,
      // Issue 16: moderators see who is suspended (and until when).
      suspendedUntil: canModerate && p.suspendedUntil && p.suspendedUntil > Date.now() ? p.suspendedUntil : null,
      // Issue 16: the workplace badge (the domain they verified; never their address).
      verifiedDomain: p.status === "approved" ? p.verifiedDomain : null,
    };
  });
  const { createdBy, inviteToken, policy, ...rest } = community;
  const canMakeAdmin = holdsRole(viewer, "admin");
  return {
    community: { ...rest, type: community.type as CommunityType },
    // Issue 16: the invite link is for the community's admins only.
    inviteToken: canMakeAdmin ? inviteToken : null,
    policy: membersVisible ? policyOf(policy, canMakeAdmin) : null,
    membership: (viewer?.status ?? "not_member") as MembershipStatus,
    viewerRole: viewer?.status === "approved" ? (viewer.role as MemberRole) : null,
    isCreator: createdBy === viewerId,
    canModerate,
    membersVisible,
    canMakeAdmin,
    members: shown.filter((p) => p.status === "approved"),
    pending: canModerate ? shown.filter((p) => p.status === "pending") : [],
    rejected: canModerate ? shown.filter((p) => p.status === "rejected") : [],
    pendingCount: canModerate ? (pendingCount[0]?.n ?? 0) : 0,
    rejectedCount: canModerate ? (rejectedCount[0]?.n ?? 0) : 0,
    /** Cursors of each list's next page (null: it ends here). */
    more: {
      members: nextOf(approvedRows, membersPage),
      pending: canModerate ? nextOf(pendingRows, REQUESTS_PAGE) : null,
      rejected: canModerate ? nextOf(rejectedRows, REQUESTS_PAGE) : null,
    },
    also: alsoRead as unknown[],
  };
}

/**
 * Issue 34: a community whose only admin closes their account is not left without one. The
 * statements (for the deletion's batch, before the person's membership rows go) make, in each
 * such community, the longest-standing approved moderator, else member, its admin and tell
 * them. A community with no one else left keeps no admin, and no member either.
 */
export function adminSuccession(db: Db, userId: string, now: number) {
  const successor = sql`(SELECT s.id FROM community_members s
    WHERE s.community_id = me.community_id AND s.user_id <> ${userId} AND s.status = 'approved'
    ORDER BY CASE s.role WHEN 'moderator' THEN 0 ELSE 1 END, s.requested_at, s.id LIMIT 1)`;
  const orphaned = sql`me.user_id = ${userId} AND me.status = 'approved' AND me.role = 'admin'
    AND NOT EXISTS (SELECT 1 FROM community_members o WHERE o.community_id = me.community_id AND o.user_id <> ${userId} AND o.status = 'approved' AND o.role = 'admin')`;
  return [
    notificationInsert(
      db,
      {
        id: PER_ROW_ID,
        userId: sql`s2.user_id`,
        type: "community",
        title: "You are now an admin",
        message: sql`'The only admin of ' || c.name || ' closed their account: you are now its admin. You set its rules and moderate its moderators.'`,
        data: sql`json_object('community_id', c.id, 'action', 'admin')`,
      },
      now,
      sql`FROM community_members me JOIN communities c ON c.id = me.community_id JOIN community_members s2 ON s2.id = ${successor} WHERE ${orphaned}`,
    ),
    db
      .update(communityMembers)
      .set({ role: "admin" })
      .where(sql`${communityMembers.id} IN (SELECT ${successor} FROM community_members me WHERE ${orphaned})`),
  ];
}
