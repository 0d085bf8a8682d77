export const REFERRER_BONUS = 750;
export const NEW_USER_BONUS = 375;
export const REFERRAL_CODE_ATTEMPTS = 10;
const CODE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** 'LR' plus 6 uppercase alphanumerics. */
export function generateReferralCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return "LR" + Array.from(bytes, (b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join("");
}

/** Codes are trimmed and upper-cased before use. */
export function normalizeReferralCode(input: string | null | undefined): string {
  return (input ?? "").trim().toUpperCase();
}

export function isReferralCodeShape(code: string): boolean {
  return /^LR[A-Z0-9]{6}$/.test(code);
}

/** Referral credits a referrer can earn per IST day (issue 19, finding 8). */
export const REFERRALS_CREDITED_PER_DAY = 5;

/**
 * Why a referral is not credited yet (completeReferral in app/models/referrals.server.ts, and
 * its callers: onboarding, and the e-mail confirmation link once onboarded).
 */
export type ReferralHold = "confirm-email" | "onboarding" | "shared-phone" | "shared-address";

export type ReferralFacts = {
  emailVerified: boolean;
  /** Phone and car answer saved (needsOnboarding in app/utils/auth.server.ts is false). */
  onboarded: boolean;
  phones: (string | null)[];
  referrerPhones: (string | null)[];
  addressHash: string | null;
  referrerAddressHash: string | null;
};

/**
 * Every hold on a pending referral, in the order completeReferral checks them: the one rule
 * both the crediting and the referrer's list read, so the list never promises what the
 * crediting would refuse. A new account that shares the referrer's phone number or sign-up
 * address is one person with two accounts: never credited.
 */
export function referralHolds(f: ReferralFacts): ReferralHold[] {
  const holds: ReferralHold[] = [];
  if (!f.emailVerified) holds.push("confirm-email");
  if (!f.onboarded) holds.push("onboarding");
  const mine = new Set(f.phones.filter((p): p is string => !!p));
  if (f.referrerPhones.some((p) => !!p && mine.has(p))) holds.push("shared-phone");
  if (f.addressHash && f.addressHash === f.referrerAddressHash) holds.push("shared-address");
  return holds;
}

/** What the referrer reads for each hold. */
export const REFERRAL_HOLD_TEXT: Record<ReferralHold, string> = {
  "confirm-email": "Waiting for them to confirm their e-mail address.",
  onboarding: "Waiting for them to finish setting up their profile (phone number and car).",
  "shared-phone": "Not credited: their account has your phone number. Referrals are for new people.",
  "shared-address": "Not credited: their account was created from the same connection as yours.",
};

/** A completed referral without a credit: the referrer had reached the day's limit. */
export const REFERRAL_OVER_LIMIT_TEXT = `Completed, not credited: you had already earned ${REFERRALS_CREDITED_PER_DAY} referral credits that day.`;

/**
 * What credits are, and are not, today: a count of thanks. Nothing in LoopRide spends them (no
 * code writes a spending transaction), they pay for no ride and no plan, and have no cash value.
 */
export const CREDITS_TODAY_TEXT =
  "Credits are a thank-you count for now: they cannot be spent on anything yet, not on rides and not on Pro, and they have no cash value. Rides are paid directly between members.";
