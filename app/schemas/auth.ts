import { z } from "zod";
import { isCleanLine, LINE_INVALID } from "./text";
import { isCommonPassword } from "../domain/common-passwords";
import { normalizeIndianMobile } from "../domain/phone";

export const IDENTIFIER_INVALID = "Please enter a valid e-mail address or 10-digit mobile number";
export const CREDENTIALS_INVALID = "Invalid e-mail, mobile number or password";
/** Google sign-in found an account with the same e-mail that nobody has verified yet. */
export const PROVE_PASSWORD_MESSAGE =
  "An account with this e-mail already exists. Sign in with its password once to link Google sign-in to it.";

/** An e-mail address or a 10-digit Indian mobile number. */
export type Identifier = { kind: "email"; value: string } | { kind: "phone"; value: string };

export function parseIdentifier(input: string): Identifier | null {
  const trimmed = input.trim();
  if (trimmed.includes("@")) {
    const ok = z.string().email().max(254).safeParse(trimmed);
    return ok.success ? { kind: "email", value: trimmed.toLowerCase() } : null;
  }
  const phone = normalizeIndianMobile(trimmed);
  return phone ? { kind: "phone", value: phone } : null;
}

const identifier = z
  .string({ required_error: "Please enter your e-mail or mobile number" })
  .trim()
  .max(254, IDENTIFIER_INVALID)
  .refine((v) => parseIdentifier(v) !== null, IDENTIFIER_INVALID);

export const loginSchema = z.object({
  identifier,
  password: z.string({ required_error: "Please enter your password" }).max(1024, CREDENTIALS_INVALID),
  redirectTo: z.string().optional(),
});

export const signupSchema = z.object({
  fullName: z
    .string({ required_error: "Please enter your full name" })
    .trim()
    .min(2, "Please enter your full name")
    .max(100, "Full name must be at most 100 characters")
    .refine(isCleanLine, LINE_INVALID),
  identifier,
  password: z
    .string({ required_error: "Please choose a password" })
    .min(8, "Password must be at least 8 characters")
    .max(128, "Password must be at most 128 characters")
    .refine((p) => !isCommonPassword(p), "This password is too common. Please choose one that is harder to guess."),
  referralCode: z
    .string()
    .trim()
    .max(20)
    .optional()
    .transform((v) => (v ? v.toUpperCase() : undefined)),
});
