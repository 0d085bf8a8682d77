import { isUniqueViolation } from "./db-errors.server";
import { desc, eq, sql } from "drizzle-orm";
import { creditTransactions, referrals, userCredits, userReferralCodes } from "../../db/schema";
import { newId } from "../domain/ids";
import {
  generateReferralCode,
  NEW_USER_BONUS,
  normalizeReferralCode,
  REFERRAL_CODE_ATTEMPTS,
  REFERRER_BONUS,
} from "../domain/referral";
import type { Db } from "../utils/db.server";

/** The user's own referral code, created on first use (unique, at most 10 attempts). */
export async function ensureReferralCode(
  { db }: { db: Db },
  userId: string,
  { now = Date.now(), knownMissing = false }: { now?: number; knownMissing?: boolean } = {},
): Promise<string> {
  if (!knownMissing) {
    const existing = await db.select({ code: userReferralCodes.referralCode }).from(userReferralCodes).where(eq(userReferralCodes.userId, userId)).get();
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
    const mine = await db.select({ code: userReferralCodes.referralCode }).from(userReferralCodes).where(eq(userReferralCodes.userId, userId)).get();
    if (mine) return mine.code;
  }
  throw new Error("Unable to generate unique referral code");
}

export type RedeemResult =
  | { ok: true; referrerId: string }
  | { ok: false; reason: "invalid" | "own" | "already" };

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
 * Redeems a referral code for a new user: 750 credits to the referrer, 375 to the user,
 * recorded as earned transactions, referral completed. One batch (one transaction); the
 * unique index on referrals.referred_user_id makes a second redemption fail as a whole,
 * however many arrive at once.
 */
export async function redeemReferralCode({ db }: { db: Db }, userId: string, rawCode: string, now = Date.now()): Promise<RedeemResult> {
  const code = normalizeReferralCode(rawCode);
  if (!code) return { ok: false, reason: "invalid" };
  const owner = await db.select({ userId: userReferralCodes.userId }).from(userReferralCodes).where(eq(userReferralCodes.referralCode, code)).get();
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
        status: "completed",
        createdAt: now,
        completedAt: now,
      }),
      db.insert(creditTransactions).values({
        id: newId(),
        userId: owner.userId,
        amount: REFERRER_BONUS,
        transactionType: "earned",
        description: "Referral bonus",
        referenceId: referralId,
        referenceType: "referral",
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
      creditUpsert(db, owner.userId, REFERRER_BONUS, now),
      creditUpsert(db, userId, NEW_USER_BONUS, now),
    ]);
  } catch (e) {
    if (isUniqueViolation(e)) {
      return { ok: false, reason: "already" };
    }
    throw e;
  }
  return { ok: true, referrerId: owner.userId };
}

export async function hasRedeemedReferral({ db }: { db: Db }, userId: string): Promise<boolean> {
  const row = await db.select({ id: referrals.id }).from(referrals).where(eq(referrals.referredUserId, userId)).get();
  return !!row;
}

/** Code, balance and history for the user's own credits page. */
export async function getCreditsOverview({ db }: { db: Db }, userId: string) {
  const [code, wallet, history] = await db.batch([
    db.select({ code: userReferralCodes.referralCode }).from(userReferralCodes).where(eq(userReferralCodes.userId, userId)),
    db.select({ credits: userCredits.credits, totalEarned: userCredits.totalEarned, totalSpent: userCredits.totalSpent }).from(userCredits).where(eq(userCredits.userId, userId)),
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
  ]);
  return {
    referralCode: code[0]?.code ?? null,
    credits: wallet[0]?.credits ?? 0,
    totalEarned: wallet[0]?.totalEarned ?? 0,
    totalSpent: wallet[0]?.totalSpent ?? 0,
    history,
  };
}
