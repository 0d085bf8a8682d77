import type { SecretEnv } from "../utils/env.server";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { outbox, passwordResets, passwords, userProfiles, users } from "../../db/schema";
import { newId, randomToken, sha256Hex } from "../domain/ids";
import { revokeAccessStatements } from "./access.server";
import { type ModelCtx } from "./context.server";
import { ConflictError } from "./errors.server";
import { outboxInsert } from "./outbox/queue.server";
import {
  accountLimitKey,
  hitRateLimit,
  identifierLimitKey,
  peekRateLimit,
  rateLimitHitStatement,
} from "./rate-limits.server";
import { RESET_LINK_INVALID, VERIFY_LINK_INVALID } from "../schemas/account-recovery";

// Password recovery and e-mail verification (issue 15; docs/SECURITY.md "Account recovery").

export const RESET_TTL_MS = 30 * 60_000;
/** Reset e-mails one account may be sent per window (the form's answer never says so). */
export const RESETS_PER_ACCOUNT = 3;
export const RESET_ACCOUNT_WINDOW_MS = 15 * 60_000;

/**
 * "Forgot password?": for an account with this e-mail, the unused reset links are withdrawn
 * and a reset e-mail is queued, in one batch (the link itself is made when the e-mail is
 * sent, so no usable token is ever stored). Unknown addresses, and accounts over their
 * per-account limit, queue nothing; the caller answers the same either way.
 */
export async function requestPasswordReset({ db }: ModelCtx, email: string, now = Date.now()): Promise<boolean> {
  const user = await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())).get();
  if (!user) return false;
  const { allowed } = await hitRateLimit(
    { db },
    accountLimitKey("reset-account", user.id),
    RESETS_PER_ACCOUNT,
    RESET_ACCOUNT_WINDOW_MS,
    now,
  );
  if (!allowed) return false;
  await db.batch([
    db
      .update(passwordResets)
      .set({ expiresAt: now })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now))),
    outboxInsert(
      db,
      {
        channel: "email",
        userId: user.id,
        kind: "password_reset",
        key: `password_reset:${user.id}:${now}:${newId(8)}`,
      },
      now,
    ),
  ]);
  return true;
}

/** A fresh reset token for the e-mail being sent; every older unused one stops working. */
export async function issueResetToken({ db }: ModelCtx, userId: string, now = Date.now()): Promise<string> {
  const token = randomToken(256);
  await db.batch([
    db
      .update(passwordResets)
      .set({ expiresAt: now })
      .where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now))),
    db.insert(passwordResets).values({
      id: newId(),
      userId,
      tokenHash: await sha256Hex(token),
      createdAt: now,
      expiresAt: now + RESET_TTL_MS,
    }),
  ]);
  return token;
}

/** Whether a reset link still works (the page shows the form or says it has expired). */
export async function resetTokenUsable({ db }: ModelCtx, token: string, now = Date.now()): Promise<boolean> {
  if (!token || token.length > 200) return false;
  const row = await db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(
      and(
        eq(passwordResets.tokenHash, await sha256Hex(token)),
        isNull(passwordResets.usedAt),
        gt(passwordResets.expiresAt, now),
      ),
    )
    .get();
  return !!row;
}

/**
 * Sets a new password with a reset link, in one batch: the link is used up (only one of any
 * number of concurrent uses wins the guarded UPDATE), the password replaced, every session,
 * calendar feed and push subscription of the account deleted (revokeAccessStatements) and the
 * e-mail counted as verified (the link proved the mailbox). The statements after the first act
 * only for the batch whose UPDATE won: the password insert is guarded by changes(), and the
 * later ones by the new hash (random salt) being the stored one.
 * Returns the account; the caller runs revokeAllAccess (sockets) and signs it in afresh.
 */
export async function resetPassword(
  { db }: ModelCtx,
  token: string,
  passwordHash: string,
  now = Date.now(),
): Promise<{ userId: string }> {
  const tokenHash = await sha256Hex(token);
  const owner = sql`(SELECT ${passwordResets.userId} FROM ${passwordResets} WHERE ${passwordResets.tokenHash} = ${tokenHash})`;
  const won = sql`EXISTS (SELECT 1 FROM ${passwords} WHERE ${passwords.userId} = ${owner} AND ${passwords.hash} = ${passwordHash})`;
  const [used] = await db.batch([
    db
      .update(passwordResets)
      .set({ usedAt: now })
      .where(
        and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)),
      )
      .returning({ userId: passwordResets.userId }),
    db
      .insert(passwords)
      .select(
        sql`SELECT ${passwordResets.userId}, ${passwordHash}, ${now} FROM ${passwordResets} WHERE ${passwordResets.tokenHash} = ${tokenHash} AND changes() = 1`,
      )
      .onConflictDoUpdate({
        target: passwords.userId,
        set: { hash: sql`excluded.hash`, updatedAt: sql`excluded.updated_at` },
      }),
    // Every session, feed and push subscription (an intruder's too); the route closes sockets.
    ...revokeAccessStatements(db, owner, won),
    db
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})` })
      .where(and(sql`${users.id} = ${owner}`, won)),
    db
      .update(passwordResets)
      .set({ expiresAt: now })
      .where(and(sql`${passwordResets.userId} = ${owner}`, isNull(passwordResets.usedAt), won)),
  ]);
  if (used.length === 0) throw new ConflictError(RESET_LINK_INVALID);
  return { userId: used[0].userId };
}

// Confirmation e-mails go to an address nobody has proved, greeting the account's own name:
// without a cap, one account (or a sign-up, deletion, sign-up loop) could mail any address
// once a minute forever (issue 34, finding 7). Days are fixed UTC windows; keys hold a keyed
// hash of the address, never the address (identifierLimitKey).
const DAY_MS = 24 * 60 * 60_000;
/** Confirmation links one address may be sent per day, by sign-up and "send again" alike. */
export const VERIFY_MAILS_PER_ADDRESS = 3;
/** Confirmation e-mails (links and work-address codes) one account may cause per day. */
export const CONFIRMATIONS_PER_SENDER = 10;
export const VERIFY_ADDRESS_LIMIT = `This address was sent ${VERIFY_MAILS_PER_ADDRESS} confirmation links today. Please use the newest one, or ask again tomorrow.`;
export const CONFIRMATION_SENDER_LIMIT = `You have asked for ${CONFIRMATIONS_PER_SENDER} confirmation e-mails today. Please try again tomorrow.`;

type SecretCtx = ModelCtx & { env: SecretEnv };
const verifyAddressKey = (ctx: SecretCtx, email: string) =>
  identifierLimitKey(ctx.env, "verify-to", email.toLowerCase());
const senderKey = (userId: string) => accountLimitKey("confirm-from", userId);

/** Counts one confirmation e-mail caused by `userId` today; false once over the day's cap. */
export async function hitConfirmationSenderLimit(ctx: ModelCtx, userId: string, now = Date.now()): Promise<boolean> {
  return (await hitRateLimit(ctx, senderKey(userId), CONFIRMATIONS_PER_SENDER, DAY_MS, now)).allowed;
}

const verificationKey = (userId: string, now: number) => `verify_email:${userId}:${now}`;

/** Queues the verification e-mail of a password account with an unverified e-mail (for a batch). */
export function verificationEmailInsert(ctx: ModelCtx, userId: string, now = Date.now()) {
  return outboxInsert(
    ctx.db,
    { channel: "email", userId, kind: "verify_email", key: verificationKey(userId, now) },
    now,
  );
}

/**
 * Sign-up's verification e-mail, for its batch: the e-mail and its count, or nothing when the
 * address had its day's links already (the account is made all the same; "send again" works
 * tomorrow). Counted only if the batch, and so the account, commits.
 */
export async function signupVerificationStatements(ctx: SecretCtx, userId: string, email: string, now = Date.now()) {
  const key = await verifyAddressKey(ctx, email);
  if ((await peekRateLimit(ctx, key, DAY_MS, now)) >= VERIFY_MAILS_PER_ADDRESS) return [];
  return [
    verificationEmailInsert(ctx, userId, now),
    rateLimitHitStatement(ctx, key, DAY_MS, now),
    rateLimitHitStatement(ctx, senderKey(userId), DAY_MS, now),
  ] as const;
}

/** "Send the link again" from the profile: only for the acting user's own unverified e-mail. */
export async function resendVerification(ctx: SecretCtx, userId: string, now = Date.now()) {
  const me = await ctx.db
    .select({ email: users.email, verifiedAt: users.emailVerifiedAt })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!me?.email) throw new ConflictError("Your account has no e-mail address to confirm.");
  if (me.verifiedAt !== null) throw new ConflictError("Your e-mail address is already confirmed.");
  // One a minute: the key repeats within the minute, so a double click queues one e-mail
  // and is counted once.
  const minute = Math.floor(now / 60_000) * 60_000;
  const queued = await ctx.db
    .select({ id: outbox.id })
    .from(outbox)
    .where(eq(outbox.idempotencyKey, verificationKey(userId, minute)))
    .get();
  if (queued) return;
  const toAddress = await hitRateLimit(
    ctx,
    await verifyAddressKey(ctx, me.email),
    VERIFY_MAILS_PER_ADDRESS,
    DAY_MS,
    now,
  );
  if (!toAddress.allowed) throw new ConflictError(VERIFY_ADDRESS_LIMIT);
  if (!(await hitConfirmationSenderLimit(ctx, userId, now))) throw new ConflictError(CONFIRMATION_SENDER_LIMIT);
  await verificationEmailInsert(ctx, userId, minute);
}

/**
 * Follows a verification link (claims already checked by signature and expiry): the address
 * is verified only if it is still the account's. Returns whether onboarding is complete (the
 * caller then credits a waiting referral, ADR 0003).
 */
export async function verifyEmail(
  { db }: ModelCtx,
  userId: string,
  email: string,
  now = Date.now(),
): Promise<{ onboarded: boolean }> {
  const [updated, profile] = await db.batch([
    db
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})` })
      .where(and(eq(users.id, userId), eq(users.email, email)))
      .returning({ id: users.id }),
    db
      .select({ phone: userProfiles.phoneNumber, vehicle: userProfiles.vehicleInfo })
      .from(userProfiles)
      .where(eq(userProfiles.userId, userId))
      .limit(1),
  ]);
  if (updated.length === 0) throw new ConflictError(VERIFY_LINK_INVALID);
  const p = profile[0];
  return { onboarded: !!p?.phone && !!p.vehicle && Object.keys(p.vehicle).length > 0 };
}
