import { and, count, eq, sql } from "drizzle-orm";
import { communities, communityMembers } from "../../db/schema";
import type { Db } from "../utils/db.server";

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

/** Communities where the user is an approved member (for sharing a ride with one). */
export async function listMyCommunities({ db }: { db: Db }, userId: string) {
  return db
    .select({ id: communities.id, name: communities.name, type: communities.type })
    .from(communityMembers)
    .innerJoin(communities, eq(communities.id, communityMembers.communityId))
    .where(and(eq(communityMembers.userId, userId), eq(communityMembers.status, "approved")))
    .orderBy(communities.name);
}
