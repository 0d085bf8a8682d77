import type { SecretEnv } from "../utils/env.server";
import { isUniqueViolation } from "./db-errors.server";
import { ConflictError } from "./errors.server";
import { and, eq, exists, sql } from "drizzle-orm";
import { oauthAccounts, passwords, userCredits, userProfiles, userSettings, users } from "../../db/schema";
import { newId } from "../domain/ids";
import type { Identifier } from "../schemas/auth";
import { type ModelCtx } from "./context.server";
import { signupVerificationStatements } from "./password-resets.server";

export class AccountTakenError extends ConflictError {
  constructor(public readonly kind: "email" | "phone") {
    super(
      kind === "email"
        ? "An account with this e-mail already exists"
        : "An account with this mobile number already exists",
      { field: "identifier" },
    );
  }
}

function splitName(fullName: string) {
  const [first, ...rest] = fullName.trim().split(/\s+/);
  return { firstName: first || null, lastName: rest.join(" ") || null };
}

/** A new password account with its profile, settings and credit wallet, in one batch. */
export async function createPasswordAccount(
  ctx: ModelCtx & { env: SecretEnv },
  input: { fullName: string; identifier: Identifier; passwordHash: string; signupAddressHash?: string | null },
  now = Date.now(),
) {
  const id = newId();
  const { firstName, lastName } = splitName(input.fullName);
  const email = input.identifier.kind === "email" ? input.identifier.value : null;
  const phone = input.identifier.kind === "phone" ? input.identifier.value : null;
  const { db } = ctx;
  const verification = email ? await signupVerificationStatements(ctx, id, email, now) : [];
  try {
    await db.batch([
      // The e-mail is not verified: nothing proves it yet (the link in the e-mail below does).
      db.insert(users).values({ id, email, phone, createdAt: now, signupAddressHash: input.signupAddressHash ?? null }),
      db.insert(passwords).values({ userId: id, hash: input.passwordHash, updatedAt: now }),
      db.insert(userProfiles).values({
        userId: id,
        fullName: input.fullName.trim(),
        firstName,
        lastName,
        // Sign-up metadata: a mobile number used to sign up is the contact number too.
        phoneNumber: phone,
        createdAt: now,
        updatedAt: now,
      }),
      db.insert(userSettings).values({ userId: id, updatedAt: now }),
      db.insert(userCredits).values({ userId: id, updatedAt: now }),
      // The verification e-mail, queued with the account (issue 15): only the link proves the address.
      ...verification,
    ]);
  } catch (e) {
    if (isUniqueViolation(e)) throw new AccountTakenError(input.identifier.kind);
    throw e;
  }
  return { id };
}

/** The stored password hash for an e-mail or phone, or null. */
export async function findPasswordCredential({ db }: ModelCtx, identifier: Identifier) {
  const row = await db
    .select({ userId: users.id, hash: passwords.hash })
    .from(users)
    .innerJoin(passwords, eq(passwords.userId, users.id))
    .where(identifier.kind === "email" ? eq(users.email, identifier.value) : eq(users.phone, identifier.value))
    .get();
  return row ?? null;
}

export type GoogleIdentity = {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
};

/** A Google identity waiting for its holder to prove the password account with the same e-mail. */
export type PendingGoogleLink = { sub: string; email: string };

export type GoogleSignIn =
  | {
      kind: "user";
      userId: string;
      profile: { createdAt: number; phoneNumber: string | null; vehicleInfo: Record<string, unknown> | null } | null;
    }
  | { kind: "prove-password"; pending: PendingGoogleLink };

/**
 * The user behind a Google identity: the linked account, else an existing account with
 * the same e-mail if that account's e-mail is verified (linked now), else a new account.
 * An existing account whose e-mail was never verified is not linked (issue 19, finding
 * 10: whoever registered the address first, perhaps not its owner, would keep password
 * access to the Google user's account): the caller asks for that account's password
 * first (linkGoogleAfterPasswordSignIn). The profile is created from Google's name and
 * avatar when missing.
 */
export async function findOrCreateGoogleUser(
  { db }: ModelCtx,
  g: GoogleIdentity,
  { now = Date.now(), signupAddressHash = null }: { now?: number; signupAddressHash?: string | null } = {},
): Promise<GoogleSignIn> {
  const linked = await db
    .select({ userId: oauthAccounts.userId })
    .from(oauthAccounts)
    .where(and(eq(oauthAccounts.provider, "google"), eq(oauthAccounts.providerAccountId, g.sub)))
    .get();
  let userId = linked?.userId ?? null;
  const email = g.email?.toLowerCase() ?? null;
  if (!userId && email && g.emailVerified) {
    const existing = await db
      .select({ id: users.id, verifiedAt: users.emailVerifiedAt })
      .from(users)
      .where(eq(users.email, email))
      .get();
    if (existing) {
      if (existing.verifiedAt === null) return { kind: "prove-password", pending: { sub: g.sub, email } };
      userId = existing.id;
      await db
        .insert(oauthAccounts)
        .values({ provider: "google", providerAccountId: g.sub, userId, createdAt: now })
        .onConflictDoNothing();
    }
  }
  if (!userId) {
    userId = newId();
    const verified = g.emailVerified && email !== null;
    await db.batch([
      db.insert(users).values({
        id: userId,
        email: verified ? email : null,
        emailVerifiedAt: verified ? now : null,
        signupAddressHash,
        createdAt: now,
      }),
      db.insert(oauthAccounts).values({ provider: "google", providerAccountId: g.sub, userId, createdAt: now }),
      db.insert(userSettings).values({ userId, updatedAt: now }),
      db.insert(userCredits).values({ userId, updatedAt: now }),
    ]);
  }
  // Missing profile: create it from the provider's name and avatar.
  const fullName = g.name?.trim() || null;
  const { firstName, lastName } = splitName(fullName ?? "");
  await db
    .insert(userProfiles)
    .values({ userId, fullName, firstName, lastName, avatarUrl: g.picture, createdAt: now, updatedAt: now })
    .onConflictDoNothing();
  const profile = await db
    .select({
      createdAt: userProfiles.createdAt,
      phoneNumber: userProfiles.phoneNumber,
      vehicleInfo: userProfiles.vehicleInfo,
    })
    .from(userProfiles)
    .where(eq(userProfiles.userId, userId))
    .get();
  return { kind: "user", userId, profile: profile ?? null };
}

/**
 * After a password sign-in: links the pending Google identity to the account if the
 * account's e-mail is the Google one, and marks that e-mail verified (Google vouched for
 * it, and the password proved the account). One batch; false when the account's e-mail is
 * another, or the Google identity is already someone else's.
 */
export async function linkGoogleAfterPasswordSignIn(
  { db }: ModelCtx,
  userId: string,
  pending: PendingGoogleLink,
  now = Date.now(),
): Promise<boolean> {
  const email = pending.email.toLowerCase();
  const account = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).get();
  if (!account || account.email !== email) return false;
  const [, updated] = await db.batch([
    db
      .insert(oauthAccounts)
      .values({ provider: "google", providerAccountId: pending.sub, userId, createdAt: now })
      .onConflictDoNothing(),
    db
      .update(users)
      .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})` })
      .where(
        and(
          eq(users.id, userId),
          eq(users.email, email),
          exists(
            db
              .select({ one: sql`1` })
              .from(oauthAccounts)
              .where(
                and(
                  eq(oauthAccounts.provider, "google"),
                  eq(oauthAccounts.providerAccountId, pending.sub),
                  eq(oauthAccounts.userId, userId),
                ),
              ),
          ),
        ),
      )
      .returning({ id: users.id }),
  ]);
  return updated.length > 0;
}
