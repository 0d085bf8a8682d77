import { and, asc, eq, sql } from "drizzle-orm";
import { communities, communityMembers, communityPickupPoints } from "../../db/schema";
import { PRICING_MODES, type PricingMode } from "../domain/cost-split";
import { unknownPlaceMessage } from "../domain/places";
import { auditInsert, isAdminSql } from "./community-audit.server";
import { ONLY_ADMINS_SET_RULES } from "./community-rules.server";
import type { ModelCtx } from "./context.server";
import type { Db } from "./db.server";
import { COMMUNITY_NOT_FOUND } from "./community-rows.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { placeById, resolvePlace } from "./places.server";

// Community rules set by its admins (issue 16, item 2; ADR 0024): the pricing mode of rides
// shared with the community, whether they must be women-only, and its approved pickup points.
// A ride copies the pricing mode when it is created (rides.pricing_mode), so a later change
// moves nobody's price; the women-only rule is applied at creation too (existing rides keep theirs).

export const MAX_PICKUP_POINTS = 10;
export const WOMEN_ONLY_COMMUNITY =
  "This community only allows women-only rides, and only a woman driver can offer one. You can set your gender in your profile's ride preferences; it is never shown to anyone.";

export type CommunityPolicy = {
  pricingMode: PricingMode;
  womenOnly: boolean;
  pickupPoints: string[];
  canEdit: boolean;
};

const pricingOf = (v: string): PricingMode =>
  (PRICING_MODES as readonly string[]).includes(v) ? (v as PricingMode) : "equal";
const namesOf = (placeIds: string[]) => placeIds.map((id) => placeById(id)?.name).filter((n): n is string => !!n);

/**
 * The rules as one JSON column of the community page's card query (getCommunityDetail: no
 * extra round trip), which hands them to members and admins only, through `policyOf`.
 */
export const policyColumn = sql<string>`json_object('pricingMode', ${communities.pricingMode}, 'womenOnly', ${communities.womenOnly},
  'pickupPlaceIds', (SELECT json_group_array(place_id) FROM (SELECT ${communityPickupPoints.placeId} AS place_id FROM ${communityPickupPoints}
    WHERE ${communityPickupPoints.communityId} = ${communities.id} ORDER BY ${communityPickupPoints.position})))`;

export function policyOf(json: string, canEdit: boolean): CommunityPolicy {
  const p = JSON.parse(json) as { pricingMode: string; womenOnly: number; pickupPlaceIds: string[] };
  return {
    pricingMode: pricingOf(p.pricingMode),
    womenOnly: p.womenOnly === 1,
    pickupPoints: namesOf(p.pickupPlaceIds),
    canEdit,
  };
}

export type PolicyInput = { pricingMode: PricingMode; womenOnly: boolean; pickupPoints: string[] };

/**
 * Replaces the community's rules in one batch, every statement guarded on the actor still
 * being an admin (creator or approved admin, the rule of community-rules.server.ts), with an
 * audit row. Pickup points must be places of the place list (a typo gets "did you mean").
 */
export async function setCommunityPolicy(
  { db }: ModelCtx,
  actorId: string | null,
  communityId: string,
  input: PolicyInput,
  now = Date.now(),
) {
  const community = await db
    .select({ id: communities.id, admin: sql<number>`${isAdminSql(communityId, actorId ?? "")}` })
    .from(communities)
    .where(eq(communities.id, communityId))
    .get();
  if (!community) throw new NotFoundError(COMMUNITY_NOT_FOUND);
  if (!actorId || !community.admin) throw new ForbiddenError(ONLY_ADMINS_SET_RULES);
  const places: { id: string; name: string }[] = [];
  for (const typed of input.pickupPoints) {
    const r = resolvePlace(typed);
    if (!r.place) throw new ConflictError(unknownPlaceMessage(typed, r.suggestions ?? []), { field: "pickupPoints" });
    if (!places.some((p) => p.id === r.place!.id)) places.push(r.place);
  }
  if (places.length > MAX_PICKUP_POINTS)
    throw new ConflictError(`At most ${MAX_PICKUP_POINTS} pickup points, please.`, { field: "pickupPoints" });
  const admin = isAdminSql(communityId, actorId);
  const detail = `pricing: ${input.pricingMode}; women-only: ${input.womenOnly ? "yes" : "no"}; pickup points: ${places.map((p) => p.name).join(", ") || "none"}`;
  const [updated] = await db.batch([
    db
      .update(communities)
      .set({ pricingMode: input.pricingMode, womenOnly: input.womenOnly })
      .where(and(eq(communities.id, communityId), admin))
      .returning({ id: communities.id }),
    db.delete(communityPickupPoints).where(and(eq(communityPickupPoints.communityId, communityId), admin)),
    ...places.map((p, position) =>
      db.insert(communityPickupPoints).select(sql`SELECT ${communityId}, ${p.id}, ${position} WHERE ${admin}`),
    ),
    auditInsert(
      db,
      { communityId, actorId, action: "rules", targetUserId: null, detail: detail.slice(0, 500) },
      now,
      admin,
    ),
  ]);
  // The actor stopped being an admin between the check and the batch: nothing was written.
  if (updated.length === 0) throw new ForbiddenError(ONLY_ADMINS_SET_RULES);
  return { id: communityId };
}

export type DriverCommunityRules = { id: string; womenOnly: boolean; pricingMode: PricingMode; pickupPoints: string[] };

/** For Create a New Ride: the rules of the communities the driver is an approved member of (one query). */
export async function rulesOfMyCommunities({ db }: ModelCtx, driverId: string): Promise<DriverCommunityRules[]> {
  return communityRulesFrom(await myCommunityRulesQuery(db, driverId));
}

/** rulesOfMyCommunities' read for another model's batch (AlsoReads), and its mapper. */
export function myCommunityRulesQuery(db: Db, driverId: string) {
  return db
    .select({
      id: communities.id,
      womenOnly: communities.womenOnly,
      pricingMode: communities.pricingMode,
      points: sql<
        string | null
      >`(SELECT json_group_array(place_id) FROM (SELECT ${communityPickupPoints.placeId} AS place_id FROM ${communityPickupPoints}
        WHERE ${communityPickupPoints.communityId} = ${communities.id} ORDER BY ${communityPickupPoints.position}))`,
    })
    .from(communityMembers)
    .innerJoin(communities, eq(communities.id, communityMembers.communityId))
    .where(and(eq(communityMembers.userId, driverId), eq(communityMembers.status, "approved")))
    .orderBy(asc(communities.name));
}

export function communityRulesFrom(results: unknown): DriverCommunityRules[] {
  return (results as Awaited<ReturnType<typeof myCommunityRulesQuery>>).map((r) => ({
    id: r.id,
    womenOnly: r.womenOnly,
    pricingMode: pricingOf(r.pricingMode),
    pickupPoints: namesOf(r.points ? (JSON.parse(r.points) as string[]) : []),
  }));
}
