import { isUniqueViolation } from "./db-errors.server";
import { and, desc, eq, exists, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { creditTransactions, referrals, userCredits, userProfiles, userReferralCodes, users } from "../../db/schema";
import { IST_OFFSET_MS } from "../domain/time";
import { newId } from "../domain/ids";
import {
  generateReferralCode,
  NEW_USER_BONUS,
  normalizeReferralCode,
  REFERRAL_CODE_ATTEMPTS,
  REFERRALS_CREDITED_PER_DAY,
  REFERRER_BONUS,
  referralHolds,
  type ReferralHold,
} from "../domain/referral";
import type { Db } from "./db.server";
import { aliased } from "./ride-columns.server";
import { type AlsoReads, type ModelCtx } from "./context.server";

/** The user's own referral code, created on first use (unique, at most 10 attempts). */
export async function ensureReferralCode(
  { db }: ModelCtx,
  userId: string,
  { now = Date.now(), knownMissing = false }: { now?: number; knownMissing?: boolean } = {},
): Promise<string> {
  if (!knownMissing) {
    const existing = await db
      .select({ code: userReferralCodes.referralCode })
      .from(userReferralCodes)
      .where(eq(userReferralCodes.userId, userId))
      .get();
    if (existing) return existing.code;
  }
  for (let attempt = 0; attempt < REFERRAL_CODE_ATTEMPTS; attempt++) {
    const code = generateReferralCode();
    const inserted = await db
      .insert(userReferralCodes)
      .values({ userId, referralCode: code, createdAt: now })
      .onConflictDoNothing()
      .returning({ code: userReferralCodes.referralCode });
    if (inserted.length) return inserted[0].code;
    // Either the code was taken, or a concurrent call created this user's code.
    const mine = await db
      .select({ code: userReferralCodes.referralCode })
      .from(userReferralCodes)
      .where(eq(userReferralCodes.userId, userId))
      .get();
    if (mine) return mine.code;
  }
  throw new Error("Unable to generate unique referral code");
}

export type RedeemResult = { ok: true; referrerId: string } | { ok: false; reason: "invalid" | "own" | "already" };

export { REFERRALS_CREDITED_PER_DAY };

function creditUpsert(db: Db, userId: string, amount: number, now: number) {
  return db
    .insert(userCredits)
    .values({ userId, credits: amount, totalEarned: amount, updatedAt: now })
    .onConflictDoUpdate({
      target: userCredits.userId,
      set: {
        credits: sql`${userCredits.credits} + ${amount}`,
        totalEarned: sql`${userCredits.totalEarned} + ${amount}`,
        updatedAt: now,
      },
    });
}

/**
 * Redeems a referral code for a new user: the user's 375-credit welcome bonus at once, and
 * a pending referral whose 750 credits for the referrer wait until the new account is real
 * (completeReferral; ADR 0003). One batch; the unique index on referrals.referred_user_id
 * makes a second redemption fail as a whole, however many arrive at once.
 */
export async function redeemReferralCode(
  { db }: ModelCtx,
  userId: string,
  rawCode: string,
  now = Date.now(),
): Promise<RedeemResult> {
  const code = normalizeReferralCode(rawCode);
  if (!code) return { ok: false, reason: "invalid" };
  const owner = await db
    .select({ userId: userReferralCodes.userId })
    .from(userReferralCodes)
    .where(eq(userReferralCodes.referralCode, code))
    .get();
  if (!owner) return { ok: false, reason: "invalid" };
  // A user's own code is ignored.
  if (owner.userId === userId) return { ok: false, reason: "own" };
  const referralId = newId();
  try {
    await db.batch([
      db.insert(referrals).values({
        id: referralId,
        referrerId: owner.userId,
        referredUserId: userId,
        referralCode: code,
        status: "pending",
        createdAt: now,
      }),
      db.insert(creditTransactions).values({
        id: newId(),
        userId,
        amount: NEW_USER_BONUS,
        transactionType: "earned",
        description: "Welcome bonus",
        referenceId: referralId,
        referenceType: "referral",
        createdAt: now,
      }),
      creditUpsert(db, userId, NEW_USER_BONUS, now),
    ]);
  } catch (e) {
    if (isUniqueViolation(e)) return { ok: false, reason: "already" };
    throw e;
  }
  return { ok: true, referrerId: owner.userId };
}

/** Midnight in Bengaluru (IST, no daylight saving) at or before `now`, in ms. */
const istDayStart = (now: number) => Math.floor((now + IST_OFFSET_MS) / 86_400_000) * 86_400_000 - IST_OFFSET_MS;

const HOLD_STATUS = {
  "confirm-email": "unverified",
  onboarding: "unverified",
  "shared-phone": "shared-phone",
  "shared-address": "shared-address",
} as const satisfies Record<ReferralHold, string>;

/** The facts referralHolds reads, from a row of the referral's two accounts. */
const holdFacts = (r: {
  emailVerifiedAt: number | null;
  phone: string | null;
  phoneNumber: string | null;
  referrerPhone: string | null;
  referrerPhoneNumber: string | null;
  addressHash: string | null;
  referrerAddressHash: string | null;
}) => ({
  emailVerified: r.emailVerifiedAt !== null,
  phones: [r.phone, r.phoneNumber],
  referrerPhones: [r.referrerPhone, r.referrerPhoneNumber],
  addressHash: r.addressHash,
  referrerAddressHash: r.referrerAddressHash,
});

export type CompleteReferralResult =
  | { status: "none" | "already" | "shared-phone" | "shared-address" | "unverified" }
  | { status: "completed"; referrerCredited: boolean };

/**
 * Credits the referrer of a pending referral once the new account is real: the caller has
 * just completed the user's onboarding (phone and vehicle answer saved). Nothing, and the
 * referral stays pending, when the new account shares the referrer's phone number or
 * sign-up address (one person with two accounts). Otherwise one batch: the referral
 * completes and the referrer gets 750 credits unless they already earned
 * REFERRALS_CREDITED_PER_DAY referral credits today (IST). The daily count is checked
 * inside the batch and the status change is guarded, and the unique (user, reference)
 * index on credit_transactions refuses a second credit for one referral, so concurrent
 * completions credit at most once and cannot pass the cap.
 *
 * The new account must also have a verified e-mail (issue 15): { status: "unverified" } while
 * users.email_verified_at is null (LoopRide verifies no phone numbers), and the verification
 * link (app/routes/_public.verify-email.tsx) calls this again.
 */
export async function completeReferral(
  { db }: ModelCtx,
  userId: string,
  now = Date.now(),
): Promise<CompleteReferralResult> {
  const referrer = alias(users, "referrer");
  const referrerProfile = alias(userProfiles, "referrer_profile");
  const row = await db
    .select({
      id: referrals.id,
      referrerId: referrals.referrerId,
      status: referrals.status,
      phone: users.phone,
      phoneNumber: userProfiles.phoneNumber,
      addressHash: users.signupAddressHash,
      emailVerifiedAt: users.emailVerifiedAt,
      referrerPhone: referrer.phone,
      referrerPhoneNumber: referrerProfile.phoneNumber,
      referrerAddressHash: referrer.signupAddressHash,
    })
    .from(referrals)
    .innerJoin(users, eq(users.id, referrals.referredUserId))
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .innerJoin(referrer, eq(referrer.id, referrals.referrerId))
    .leftJoin(referrerProfile, eq(referrerProfile.userId, referrer.id))
    .where(eq(referrals.referredUserId, userId))
    .get();
  if (!row) return { status: "none" };
  if (row.status !== "pending") return { status: "already" };
  // Onboarding is the callers' part (they call this once it is done); the rest is the one rule
  // the referrer's list reads too (referralHolds).
  const hold = referralHolds({ ...holdFacts(row), onboarded: true })[0];
  if (hold) return { status: HOLD_STATUS[hold] };

  const dayStart = istDayStart(now);
  const referrerTx = newId();
  let completedNow: Array<{ id: string }>;
  try {
    [completedNow] = await db.batch([
      db
        .update(referrals)
        .set({ status: "completed", completedAt: now })
        .where(and(eq(referrals.id, row.id), eq(referrals.status, "pending")))
        .returning({ id: referrals.id }),
      // Only for the batch that completed the referral (changes() is the update's), and only
      // under today's cap, counted inside this transaction. A second credit for the same
      // referral fails on the unique (user, reference) index. Columns in table order.
      db.insert(creditTransactions).select(sql`
        SELECT ${referrerTx}, ${row.referrerId}, ${REFERRER_BONUS}, 'earned', 'Referral bonus', ${row.id}, 'referral', ${now}
        WHERE changes() = 1
          AND (SELECT count(*) FROM credit_transactions
               WHERE user_id = ${row.referrerId} AND reference_type = 'referral' AND description = 'Referral bonus'
                 AND created_at >= ${dayStart}) < ${REFERRALS_CREDITED_PER_DAY}`),
      db.insert(userCredits).values({ userId: row.referrerId, updatedAt: now }).onConflictDoNothing(),
      db
        .update(userCredits)
        .set({
          credits: sql`${userCredits.credits} + ${REFERRER_BONUS}`,
          totalEarned: sql`${userCredits.totalEarned} + ${REFERRER_BONUS}`,
          updatedAt: now,
        })
        .where(
          and(
            eq(userCredits.userId, row.referrerId),
            exists(db.select({ one: sql`1` }).from(creditTransactions).where(eq(creditTransactions.id, referrerTx))),
          ),
        ),
    ]);
  } catch (e) {
    if (isUniqueViolation(e)) return { status: "already" };
    throw e;
  }
  // Another completion got there first (this batch changed nothing).
  if (completedNow.length === 0) return { status: "already" };
  const credited = await db
    .select({ id: creditTransactions.id })
    .from(creditTransactions)
    .where(eq(creditTransactions.id, referrerTx))
    .get();
  return { status: "completed", referrerCredited: !!credited };
}

export async function hasRedeemedReferral({ db }: ModelCtx, userId: string): Promise<boolean> {
  const row = await db.select({ id: referrals.id }).from(referrals).where(eq(referrals.referredUserId, userId)).get();
  return !!row;
}

/** How many of their referrals the referrer's page lists (newest first). */
export const REFERRALS_SHOWN = 50;

/**
 * The referrals a user made, newest first, with what referralHolds needs to say why each
 * pending one waits, and the referrer's credit for each completed one (none: over the day's limit).
 * The friend's facts are read to give the reason only; the page gets the reason, not them.
 */
function referralsMadeQuery(db: Db, referrerId: string) {
  const referrer = alias(users, "referrer");
  const referrerProfile = alias(userProfiles, "referrer_profile");
  return db
    .select({
      id: referrals.id,
      status: referrals.status,
      createdAt: referrals.createdAt,
      completedAt: referrals.completedAt,
      name: userProfiles.fullName,
      closed: sql<number>`${users.deletedAt} IS NOT NULL`.mapWith(Boolean),
      phone: users.phone,
      phoneNumber: userProfiles.phoneNumber,
      addressHash: users.signupAddressHash,
      emailVerifiedAt: users.emailVerifiedAt,
      onboarded: sql<number>`coalesce(trim(${userProfiles.phoneNumber}), '') != ''
        AND ${userProfiles.vehicleInfo} IS NOT NULL AND ${userProfiles.vehicleInfo} != '{}'`.mapWith(Boolean),
      // Aliased: a batch's rows are keyed by column name, and these names come twice (ride-columns.server.ts).
      referrerPhone: aliased<string | null>(referrer.phone, "referrer_phone"),
      referrerPhoneNumber: aliased<string | null>(referrerProfile.phoneNumber, "referrer_phone_number"),
      referrerAddressHash: aliased<string | null>(referrer.signupAddressHash, "referrer_address_hash"),
      credited: creditTransactions.amount,
    })
    .from(referrals)
    .innerJoin(users, eq(users.id, referrals.referredUserId))
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .innerJoin(referrer, eq(referrer.id, referrals.referrerId))
    .leftJoin(referrerProfile, eq(referrerProfile.userId, referrer.id))
    .leftJoin(
      creditTransactions,
      and(
        eq(creditTransactions.userId, referrals.referrerId),
        eq(creditTransactions.referenceType, "referral"),
        eq(creditTransactions.referenceId, referrals.id),
      ),
    )
    .where(eq(referrals.referrerId, referrerId))
    .orderBy(desc(referrals.createdAt), desc(referrals.id))
    .limit(REFERRALS_SHOWN);
}

export type ReferralMade = {
  id: string;
  name: string;
  joinedAt: number;
} & (
  | { state: "pending"; holds: ReferralHold[] }
  | { state: "credited"; amount: number; at: number }
  | { state: "over-limit"; at: number }
);

const toReferralMade = (r: Awaited<ReturnType<ReturnType<typeof referralsMadeQuery>["all"]>>[number]): ReferralMade => {
  const base = {
    id: r.id,
    name: r.closed ? "A closed account" : r.name?.trim() || "A new member",
    joinedAt: r.createdAt,
  };
  if (r.status !== "pending") {
    const at = r.completedAt ?? r.createdAt;
    return r.credited ? { ...base, state: "credited", amount: r.credited, at } : { ...base, state: "over-limit", at };
  }
  return { ...base, state: "pending", holds: referralHolds({ ...holdFacts(r), onboarded: r.onboarded }) };
};

/** Code, balance, history and the referrals made, for the user's own credits page. */
export async function getCreditsOverview({ db }: ModelCtx, userId: string, also: AlsoReads = []) {
  // `also`: the page's other reads (the Profile page's profile and reliability record).
  const [code, wallet, history, made, ...alsoRead] = await db.batch([
    db
      .select({ code: userReferralCodes.referralCode })
      .from(userReferralCodes)
      .where(eq(userReferralCodes.userId, userId)),
    db
      .select({
        credits: userCredits.credits,
        totalEarned: userCredits.totalEarned,
        totalSpent: userCredits.totalSpent,
      })
      .from(userCredits)
      .where(eq(userCredits.userId, userId)),
    db
      .select({
        id: creditTransactions.id,
        amount: creditTransactions.amount,
        type: creditTransactions.transactionType,
        description: creditTransactions.description,
        createdAt: creditTransactions.createdAt,
      })
      .from(creditTransactions)
      .where(eq(creditTransactions.userId, userId))
      .orderBy(desc(creditTransactions.createdAt))
      .limit(20),
    referralsMadeQuery(db, userId),
    ...also,
  ]);
  return {
    also: alsoRead as unknown[],
    referralCode: code[0]?.code ?? null,
    credits: wallet[0]?.credits ?? 0,
    totalEarned: wallet[0]?.totalEarned ?? 0,
    totalSpent: wallet[0]?.totalSpent ?? 0,
    history,
    referrals: made.map(toReferralMade),
  };
}
