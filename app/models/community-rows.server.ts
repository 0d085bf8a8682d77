import { and, count, eq, sql } from "drizzle-orm";
import { communities, communityMembers } from "../../db/schema";
import type { Db } from "./db.server";
import { NotFoundError } from "./errors.server";

// The community and membership rows every community module reads or keeps exact. Their own
// module, below communities, its rules, its policy and work e-mail joins, so that each of
// those can use them without importing another (they used to import each other in a circle).

export const COMMUNITY_NOT_FOUND = "Community not found";

/**
 * The statement that keeps communities.member_count exact: recomputed from the approved
 * rows (not incremented), and always sent in the same db.batch as the membership change,
 * so concurrent joins, approvals and leaves cannot drift it.
 */
export function refreshMemberCount(db: Db, communityId: string) {
  return db
    .update(communities)
    .set({
      memberCount: sql`(${db
        .select({ n: count() })
        .from(communityMembers)
        .where(and(eq(communityMembers.communityId, communityId), eq(communityMembers.status, "approved")))})`,
    })
    .where(eq(communities.id, communityId));
}

export async function findCommunity(db: Db, communityId: string) {
  const row = await db
    .select({
      id: communities.id,
      name: communities.name,
      createdBy: communities.createdBy,
      joinMode: communities.joinMode,
    })
    .from(communities)
    .where(eq(communities.id, communityId))
    .get();
  if (!row) throw new NotFoundError(COMMUNITY_NOT_FOUND);
  return row;
}

export async function findMembership(db: Db, communityId: string, userId: string) {
  return db
    .select({ id: communityMembers.id, status: communityMembers.status, role: communityMembers.role })
    .from(communityMembers)
    .where(and(eq(communityMembers.communityId, communityId), eq(communityMembers.userId, userId)))
    .get();
}
