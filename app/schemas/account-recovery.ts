import { z } from "zod";
import { signupSchema } from "./auth";

// Forms of issue 15: "Forgot password?", the reset form, and the token-carrying links
// (e-mail verification, unsubscribe). Shared by the server and conform on the client.

export const EMAIL_INVALID = "Please enter a valid e-mail address";
export const PASSWORDS_DIFFER = "The two passwords do not match";
export const RESET_LINK_INVALID = "This password reset link is invalid or has expired. Please ask for a new one.";
export const VERIFY_LINK_INVALID =
  "This confirmation link is invalid or has expired. Sign in and ask for a new one from your profile.";
export const UNSUBSCRIBE_INVALID =
  "This unsubscribe link is invalid. You can turn e-mail notifications off in your settings.";

export const forgotPasswordSchema = z.object({
  email: z
    .string({ required_error: "Please enter your e-mail address" })
    .trim()
    .max(254, EMAIL_INVALID)
    .email(EMAIL_INVALID),
});

const token = z
  .string({ required_error: "This link is incomplete." })
  .trim()
  .min(1, "This link is incomplete.")
  .max(1000, "This link is invalid.");

export const resetPasswordSchema = z
  .object({
    token,
    password: signupSchema.shape.password,
    confirmPassword: z.string({ required_error: "Please type the new password again" }).max(128, PASSWORDS_DIFFER),
  })
  .refine((v) => v.password === v.confirmPassword, { message: PASSWORDS_DIFFER, path: ["confirmPassword"] });

export const mailTokenSchema = z.object({ token });

/** The one answer to "Forgot password?", whether or not an account uses the address. */
export const RESET_SENT = {
  title: "Check your e-mail",
  description:
    "If a LoopRide account uses that address, we have sent it a link to choose a new password. The link works for 30 minutes.",
};
