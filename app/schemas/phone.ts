import { z } from "zod";
import { normalizeIndianMobile } from "../domain/phone";

export const MOBILE_INVALID = "Please enter a valid 10-digit mobile number";
/** Long enough for "+91 98765 43210" as people type it; the stored value is the 10 digits. */
export const MOBILE_INPUT_MAX = 16;

/**
 * The one Indian mobile rule, wherever a mobile is entered (onboarding, profile completion):
 * spaces, dashes and a leading +91 or 0 are removed, then it must be 10 digits starting 6-9.
 * The parsed value is the bare 10 digits (normalizeIndianMobile, which sign-in uses too).
 */
export function indianMobileSchema(requiredMessage: string) {
  return z
    .string({ required_error: requiredMessage })
    .trim()
    .min(1, requiredMessage)
    .max(40, MOBILE_INVALID)
    .transform((v, ctx) => {
      const digits = normalizeIndianMobile(v);
      if (digits === null) {
        ctx.addIssue({ code: "custom", message: MOBILE_INVALID });
        return z.NEVER;
      }
      return digits;
    });
}
