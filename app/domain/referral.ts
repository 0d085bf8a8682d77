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
