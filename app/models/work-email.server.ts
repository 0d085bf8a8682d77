import { generateTOTP } from "@epic-web/totp";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { AnySQLiteColumn } from "drizzle-orm/sqlite-core";
import { communities, communityEmailCodes, communityMembers } from "../../db/schema";
import { newId } from "../domain/ids";
import { parse } from "tldts";
import { isAddressAt, normalizeMailbox } from "../domain/work-email";
import { requireSecret, type SecretEnv } from "../utils/env.server";
import { refreshMemberCount } from "./community-rows.server";
import type { ModelCtx } from "./context.server";
import { isUniqueViolation } from "./db-errors.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { outboxInsert } from "./outbox/queue.server";
import { CONFIRMATION_SENDER_LIMIT, hitConfirmationSenderLimit } from "./password-resets.server";
import { accountLimitKey, hitRateLimit, identifierLimitKey } from "./rate-limits.server";

// Joining a community by proving a work e-mail address at its domain (issue 16, item 1;
// docs/decisions/0023-work-email-domain-join.md). A member asks for a code for their work
// address; the outbox sends it (the code is made by @epic-web/totp when the e-mail is sent and
// only its HMAC is stored); the right code within 10 minutes and 5 tries admits them at once and
// records the address and domain on their membership.

export const CODE_TTL_MS = 10 * 60_000;
export const CODE_TRIES = 5;
/** Codes one person may ask for, and one address may be sent, per hour. */
export const CODES_PER_HOUR = 5;
const HOUR_MS = 60 * 60_000;

export const NOT_DOMAIN_JOIN = "This community is not joined with a work e-mail address.";
export const NO_CODE = "There is no code to check. Ask for a code first.";
export const CODE_EXPIRED = "This code has expired. Ask for a new one.";
export const CODE_DEAD = "This code was tried too many times and no longer works. Ask for a new one.";
export const CODE_LIMIT = "You have asked for too many codes. Please wait an hour and try again.";
export const ADDRESS_TAKEN = "That work address already verified another member of this community.";
export const ALREADY_VERIFIED = "You have already verified your work e-mail in this community.";
export const DECLINED =
  "Your membership of this community was declined. A moderator must clear it before you can join again.";
export const wrongDomain = (domain: string) => `Use your work address at @${domain} (or a subdomain of it).`;
export const wrongCode = (left: number) =>
  left > 0
    ? `That code is not right. ${left} ${left === 1 ? "try" : "tries"} left.`
    : "That code is not right, and it no longer works. Ask for a new one.";

/**
 * Whether `domain` is a public suffix (co.in, gov.in, github.io...) rather than one
 * organisation's domain, by the maintained Public Suffix List (tldts, private section
 * included: anyone can get a *.github.io address). Server-only: the list is ~100 KB.
 */
export function isPublicSuffix(domain: string): boolean {
  const r = parse(domain, { allowPrivateDomains: true });
  return r.domain === null || r.publicSuffix === domain;
}

type SecretCtx = ModelCtx & { env: SecretEnv };

const enc = new TextEncoder();

/** HMAC-SHA-256 of the code under a key that is not in D1, bound to its row (hex). */
async function codeHash(env: SecretCtx["env"], codeId: string, code: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    enc.encode(`work-email-code:${requireSecret(env, "SESSION_SECRET")}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode(`${codeId}:${code}`)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
}

async function domainCommunity({ db }: ModelCtx, communityId: string) {
  const row = await db
    .select({
      id: communities.id,
      name: communities.name,
      joinMode: communities.joinMode,
      domain: communities.emailDomain,
    })
    .from(communities)
    .where(eq(communities.id, communityId))
    .get();
  if (!row) throw new NotFoundError("Community not found");
  if (row.joinMode !== "domain" || !row.domain) throw new ConflictError(NOT_DOMAIN_JOIN);
  return { ...row, domain: row.domain };
}

async function myMembership({ db }: ModelCtx, communityId: string, userId: string) {
  return db
    .select({ status: communityMembers.status, verifiedAt: communityMembers.verifiedAt })
    .from(communityMembers)
    .where(and(eq(communityMembers.communityId, communityId), eq(communityMembers.userId, userId)))
    .get();
}

/**
 * Queues a one-time code for the actor's work address at the community's domain. The new row
 * replaces any earlier one (a new id), so an earlier code stops working; the outbox row names
 * the new row, and the code itself is made when the e-mail is sent. Rate-limited per person
 * and per address (so no one can flood someone's inbox from several accounts).
 */
export async function requestWorkEmailCode(
  ctx: SecretCtx,
  actorId: string | null,
  communityId: string,
  email: string,
  now = Date.now(),
) {
  if (!actorId) throw new ForbiddenError("Please sign in to join communities.");
  const community = await domainCommunity(ctx, communityId);
  // The code goes to the address as typed; the mailbox (without +tag) is what it proves.
  const address = email.trim().toLowerCase();
  const mailbox = normalizeMailbox(address);
  if (!isAddressAt(address, community.domain))
    throw new ConflictError(wrongDomain(community.domain), { field: "email" });
  const mine = await myMembership(ctx, communityId, actorId);
  if (mine?.status === "rejected") throw new ConflictError(DECLINED);
  if (mine?.verifiedAt != null) throw new ConflictError(ALREADY_VERIFIED);
  const taken = await ctx.db
    .select({ id: communityMembers.id })
    .from(communityMembers)
    .where(and(eq(communityMembers.communityId, communityId), eq(communityMembers.verifiedEmail, mailbox)))
    .get();
  if (taken) throw new ConflictError(ADDRESS_TAKEN, { field: "email" });
  const mineOk = await hitRateLimit(ctx, accountLimitKey("work-code", actorId), CODES_PER_HOUR, HOUR_MS, now);
  // The address is hashed in the key: rate_limits must not hold a person's work address.
  const toOk = await hitRateLimit(
    ctx,
    await identifierLimitKey(ctx.env, "work-code-to", address),
    CODES_PER_HOUR,
    HOUR_MS,
    now,
  );
  if (!mineOk.allowed || !toOk.allowed) throw new ConflictError(CODE_LIMIT);
  // And the day's cap on every confirmation e-mail one account causes (issue 34, finding 7).
  if (!(await hitConfirmationSenderLimit(ctx, actorId, now))) throw new ConflictError(CONFIRMATION_SENDER_LIMIT);
  const id = newId();
  await ctx.db.batch([
    ctx.db
      .delete(communityEmailCodes)
      .where(and(eq(communityEmailCodes.communityId, communityId), eq(communityEmailCodes.userId, actorId))),
    ctx.db.insert(communityEmailCodes).values({
      id,
      communityId,
      userId: actorId,
      email: address,
      domain: community.domain,
      codeHash: null,
      attempts: 0,
      createdAt: now,
      expiresAt: now + CODE_TTL_MS,
    }),
    outboxInsert(
      ctx.db,
      {
        channel: "email",
        userId: actorId,
        kind: "work_email_code",
        key: `work_email_code:${id}`,
        payload: { code_id: id },
      },
      now,
    ),
  ]);
  return { id: community.id, name: community.name, email: address };
}

/**
 * Makes the code for the e-mail being sent (a TOTP from @epic-web/totp on a fresh random secret
 * that is thrown away) and stores only its HMAC, valid for 10 minutes from now. Null when the
 * row was replaced meanwhile. A retried send makes a new code: the e-mail that went out last
 * holds the one that works.
 */
export async function issueWorkEmailCode(ctx: SecretCtx, codeId: string, now = Date.now()): Promise<string | null> {
  const { otp } = await generateTOTP({ period: CODE_TTL_MS / 1000, digits: 6, algorithm: "SHA-256" });
  const updated = await ctx.db
    .update(communityEmailCodes)
    .set({ codeHash: await codeHash(ctx.env, codeId, otp), expiresAt: now + CODE_TTL_MS })
    .where(eq(communityEmailCodes.id, codeId))
    .returning({ id: communityEmailCodes.id });
  return updated.length ? otp : null;
}

/**
 * Checks a code. Every try is counted first by one guarded UPDATE (at most 5 succeed, however
 * many arrive at once), then compared. The right code, in one batch: the code row is deleted
 * (only one of concurrent right tries wins), the membership inserted as approved with the
 * verified address and domain (or a pending/approved one updated), and the member count
 * refreshed; the community must still be joined by that domain.
 */
export async function verifyWorkEmailCode(
  ctx: SecretCtx,
  actorId: string | null,
  communityId: string,
  code: string,
  now = Date.now(),
) {
  if (!actorId) throw new ForbiddenError("Please sign in to join communities.");
  const { db } = ctx;
  const row = await db
    .select({
      id: communityEmailCodes.id,
      email: communityEmailCodes.email,
      domain: communityEmailCodes.domain,
      name: communities.name,
    })
    .from(communityEmailCodes)
    .innerJoin(communities, eq(communities.id, communityEmailCodes.communityId))
    .where(and(eq(communityEmailCodes.communityId, communityId), eq(communityEmailCodes.userId, actorId)))
    .get();
  if (!row) {
    await domainCommunity(ctx, communityId);
    throw new ConflictError(NO_CODE);
  }
  const tried = await db
    .update(communityEmailCodes)
    .set({ attempts: sql`${communityEmailCodes.attempts} + 1` })
    .where(
      and(
        eq(communityEmailCodes.id, row.id),
        sql`${communityEmailCodes.attempts} < ${CODE_TRIES}`,
        sql`${communityEmailCodes.expiresAt} > ${now}`,
      ),
    )
    .returning({ attempts: communityEmailCodes.attempts, codeHash: communityEmailCodes.codeHash });
  if (tried.length === 0) {
    const after = await db
      .select({ attempts: communityEmailCodes.attempts, expiresAt: communityEmailCodes.expiresAt })
      .from(communityEmailCodes)
      .where(eq(communityEmailCodes.id, row.id))
      .get();
    if (!after) throw new ConflictError(NO_CODE);
    throw new ConflictError(after.attempts >= CODE_TRIES ? CODE_DEAD : CODE_EXPIRED);
  }
  const hash = await codeHash(ctx.env, row.id, code.trim());
  const stored = tried[0].codeHash;
  if (!stored || !timingSafeEqualHex(hash, stored))
    throw new ConflictError(wrongCode(CODE_TRIES - tried[0].attempts), { field: "code" });
  const ruleHolds = sql`EXISTS (SELECT 1 FROM ${communities} WHERE ${communities.id} = ${communityId} AND ${communities.joinMode} = 'domain' AND ${communities.emailDomain} = ${row.domain})`;
  let joined: { id: string }[];
  try {
    [, joined] = await db.batch([
      db
        .delete(communityEmailCodes)
        .where(and(eq(communityEmailCodes.id, row.id), eq(communityEmailCodes.codeHash, stored))),
      // Columns in table order: id, community_id, user_id, status, role, requested_at, decided_at,
      // decided_by, suspended_until, verified_email, verified_domain, verified_at.
      db
        .insert(communityMembers)
        .select(
          sql`SELECT ${newId()}, ${communityId}, ${actorId}, 'approved', 'member', ${now}, ${now}, NULL, NULL, ${normalizeMailbox(row.email)}, ${row.domain}, ${now} WHERE changes() = 1 AND ${ruleHolds}`,
        )
        .onConflictDoUpdate({
          target: [communityMembers.communityId, communityMembers.userId],
          set: {
            status: sql`'approved'`,
            decidedAt: sql`coalesce(${communityMembers.decidedAt}, excluded.decided_at)`,
            verifiedEmail: sql`excluded.verified_email`,
            verifiedDomain: sql`excluded.verified_domain`,
            verifiedAt: sql`excluded.verified_at`,
          },
          setWhere: sql`${communityMembers.status} IN ('pending','approved') AND ${communityMembers.verifiedAt} IS NULL`,
        })
        .returning({ id: communityMembers.id }),
      refreshMemberCount(db, communityId),
    ]);
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
    throw new ConflictError(ADDRESS_TAKEN);
  }
  if (joined.length === 0) {
    const mine = await myMembership(ctx, communityId, actorId);
    if (mine?.status === "rejected") throw new ConflictError(DECLINED);
    if (mine?.verifiedAt != null) throw new ConflictError(ALREADY_VERIFIED);
    throw new ConflictError("This community's join rule just changed. Please try again.");
  }
  return { id: communityId, name: row.name, domain: row.domain };
}

function timingSafeEqualHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * The community page's work e-mail state for the viewer: their live code (address, expiry,
 * tries left; never the code) and what they verified. Private: only the viewer's own rows.
 */
export async function getWorkEmailState({ db }: ModelCtx, viewerId: string, communityId: string, now = Date.now()) {
  return workEmailFrom(await db.batch(workEmailQueries(db, viewerId, communityId)), now);
}

/** getWorkEmailState's reads (the viewer's own rows only), for another model's batch (AlsoReads). */
export function workEmailQueries(db: ModelCtx["db"], viewerId: string, communityId: string) {
  return [
    db
      .select({
        email: communityEmailCodes.email,
        expiresAt: communityEmailCodes.expiresAt,
        attempts: communityEmailCodes.attempts,
      })
      .from(communityEmailCodes)
      .where(and(eq(communityEmailCodes.communityId, communityId), eq(communityEmailCodes.userId, viewerId)))
      .limit(1),
    db
      .select({ email: communityMembers.verifiedEmail, domain: communityMembers.verifiedDomain })
      .from(communityMembers)
      .where(
        and(
          eq(communityMembers.communityId, communityId),
          eq(communityMembers.userId, viewerId),
          sql`${communityMembers.verifiedAt} IS NOT NULL`,
        ),
      )
      .limit(1),
  ] as const;
}

/** How many reads workEmailQueries makes (the type holds it to the list's length). */
export const WORK_EMAIL_READS: ReturnType<typeof workEmailQueries>["length"] = 2;

type WorkEmailQueries = ReturnType<typeof workEmailQueries>;
type WorkEmailResults = [Awaited<WorkEmailQueries[0]>, Awaited<WorkEmailQueries[1]>];

/** The results of workEmailQueries as the viewer's state. */
export function workEmailFrom(results: readonly unknown[], now = Date.now()) {
  const [code, mine] = results as WorkEmailResults;
  const c = code[0];
  return {
    code:
      c && c.expiresAt > now && c.attempts < CODE_TRIES
        ? { email: c.email, expiresAt: c.expiresAt, triesLeft: CODE_TRIES - c.attempts }
        : null,
    verified: mine[0]?.email ? { email: mine[0].email, domain: mine[0].domain ?? "" } : null,
  };
}

/**
 * The workplace badge of person `userId` (a column of the ride card / request queries, no extra
 * round trip): the domain they verified in the ride's community; "" when they verified only in
 * other communities (whose domain is not shown outside them); NULL for none. One lookup on the
 * partial index of verified memberships (INDEXED BY: the unique (community, user) index would
 * read a row for every unverified member too), so people who never verified cost no row read.
 */
export function workplaceBadge(
  userId: AnySQLiteColumn | SQL,
  rideCommunityId: AnySQLiteColumn | SQL,
): SQL<string | null> {
  return sql<string | null>`(SELECT CASE WHEN count(*) = 0 THEN NULL
      ELSE coalesce(max(CASE WHEN wb.community_id = ${rideCommunityId} THEN wb.verified_domain END), '') END
    FROM ${communityMembers} AS wb INDEXED BY community_members_verified_idx
    WHERE wb.user_id = ${userId} AND wb.verified_at IS NOT NULL AND wb.status = 'approved')`;
}
