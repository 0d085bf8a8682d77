import { holdsRole } from "./permissions.server";
import { and, eq, sql } from "drizzle-orm";
import { DOMAIN_PUBLIC_SUFFIX } from "../domain/work-email";
import { isPublicSuffix } from "./work-email.server";
import { communities } from "../../db/schema";
import { auditInsert } from "./community-audit.server";
import { findCommunity, findMembership } from "./community-rows.server";
import type { ModelCtx } from "./context.server";
import type { Db } from "./db.server";
import { ConflictError, ForbiddenError } from "./errors.server";

// Community rules set by its admins (issue 16, item 1): how people join. Every change is
// one statement guarded on the actor still being an admin, plus its audit row.

export const JOIN_MODES = ["open", "moderated", "invite"] as const;
export type JoinMode = (typeof JOIN_MODES)[number] | "domain";
export const ONLY_ADMINS_SET_RULES = "Only the community's admins can change its rules.";

async function requireAdmin(db: Db, actorId: string | null, communityId: string) {
  const community = await findCommunity(db, communityId);
  const membership = actorId ? await findMembership(db, communityId, actorId) : undefined;
  if (!holdsRole(membership, "admin")) throw new ForbiddenError(ONLY_ADMINS_SET_RULES);
  return community;
}

/** An unguessable invite token (128 bits, URL-safe). */
function newInviteToken() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * Sets how people join. Changing the rule never touches existing members or pending
 * requests (a moderator still decides those). Choosing "invite" creates a link if there is none.
 */
export async function setJoinMode(
  { db }: ModelCtx,
  actorId: string | null,
  communityId: string,
  mode: (typeof JOIN_MODES)[number],
  now = Date.now(),
) {
  const community = await requireAdmin(db, actorId, communityId);
  if (community.joinMode === mode) throw new ConflictError("The community already uses that join rule.");
  await db.batch([
    db
      .update(communities)
      .set({
        joinMode: mode,
        ...(mode === "invite" ? { inviteToken: sql`coalesce(${communities.inviteToken}, ${newInviteToken()})` } : {}),
      })
      .where(and(eq(communities.id, communityId), sql`${communities.joinMode} <> ${mode}`)),
    auditInsert(
      db,
      { communityId, actorId: actorId!, action: "rules", targetUserId: null, detail: `join: ${mode}` },
      now,
      sql`changes() = 1`,
    ),
  ]);
  return { id: community.id, mode };
}

/** A new invite link; the old one stops working at once. `revoke` leaves no link at all. */
export async function resetInvite(
  { db }: ModelCtx,
  actorId: string | null,
  communityId: string,
  revoke: boolean,
  now = Date.now(),
) {
  const community = await requireAdmin(db, actorId, communityId);
  const token = revoke ? null : newInviteToken();
  await db.batch([
    db.update(communities).set({ inviteToken: token }).where(eq(communities.id, communityId)),
    auditInsert(
      db,
      {
        communityId,
        actorId: actorId!,
        action: "invite",
        targetUserId: null,
        detail: revoke ? "link revoked" : "new link",
      },
      now,
      sql`changes() = 1`,
    ),
  ]);
  return { id: community.id, token };
}

/**
 * Issue 16: the community joins by a verified work e-mail at `domain` (already validated and
 * lower-cased by the schema). Also how an admin changes the domain: members who verified keep
 * their verification and the domain they verified (the badge shows it); live codes for the old
 * domain stop admitting anyone (the join re-checks the domain).
 */
export async function setEmailDomain(
  { db }: ModelCtx,
  actorId: string | null,
  communityId: string,
  domain: string,
  now = Date.now(),
) {
  await requireAdmin(db, actorId, communityId);
  if (isPublicSuffix(domain)) throw new ConflictError(DOMAIN_PUBLIC_SUFFIX, { field: "domain" });
  const [updated] = await db.batch([
    db
      .update(communities)
      .set({ joinMode: "domain", emailDomain: domain })
      .where(
        and(
          eq(communities.id, communityId),
          sql`NOT (${communities.joinMode} = 'domain' AND ${communities.emailDomain} IS ${domain})`,
        ),
      )
      .returning({ id: communities.id }),
    auditInsert(
      db,
      { communityId, actorId: actorId!, action: "rules", targetUserId: null, detail: `join: domain ${domain}` },
      now,
      sql`changes() = 1`,
    ),
  ]);
  if (updated.length === 0) throw new ConflictError(`The community already joins with @${domain} addresses.`);
  return { id: communityId, domain };
}
