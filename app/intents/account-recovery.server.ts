import { data } from "@remix-run/cloudflare";
import { revokeAllAccess } from "~/models/access.server";
import { resetPassword, verifyEmail } from "~/models/password-resets.server";
import { completeReferral } from "~/models/referrals.server";
import { mailTokenSchema, resetPasswordSchema, VERIFY_LINK_INVALID } from "~/schemas/account-recovery";
import { getUser } from "~/utils/auth.server";
import { requireSecret } from "~/utils/env.server";
import type { FormErrors } from "~/utils/errors.server";
import { readMailToken } from "~/models/outbox/tokens.server";
import { hashPassword } from "~/utils/password.server";
import { signInAndRedirect } from "~/utils/sign-in.server";
import { runIntent, type Ctx } from "./run.server";

const HIDDEN = ["password", "confirmPassword"];

/** Set a new password from a reset link; a used or expired link is the form's error (400). */
export function handleResetPassword(request: Request, context: Ctx, formData: FormData) {
  return runIntent(request, context, formData, {
    schema: resetPasswordSchema,
    invalid: (_, __, submission) => data(submission.reply({ hideFields: HIDDEN }), { status: 400 }),
    page: () => ({
      kind: "form",
      status: 400,
      reply: (errors, submission) => submission.reply({ hideFields: HIDDEN, formErrors: errors.formErrors }),
    }),
    handle: async ({ token, password }) => {
      const passwordHash = await hashPassword(password, requireSecret(context.env, "PASSWORD_PEPPER"));
      const { userId } = await resetPassword(context, token, passwordHash);
      // The reset's batch revoked sessions, feed and push subscriptions: close the sockets too
      // (and whatever a request in flight made meanwhile), then sign in afresh here.
      await revokeAllAccess(context, userId);
      const description = "You are signed in with your new password. Every other session was signed out.";
      const toast = { title: "Password changed", description, type: "success" as const };
      return { answer: await signInAndRedirect(request, context, userId, "/dashboard", { toast }) };
    },
  });
}

const linkProblem = (error: string) => data({ error }, { status: 400 });
const firstError = (errors: FormErrors) =>
  errors.formErrors?.[0] ?? Object.values(errors.fieldErrors ?? {})[0]?.[0] ?? "";

/** Confirm an e-mail address from its link; a bad or used link is the page's message (400). */
export function handleVerifyEmail(request: Request, context: Ctx, formData: FormData) {
  return runIntent(request, context, formData, {
    schema: mailTokenSchema,
    invalid: () => linkProblem(VERIFY_LINK_INVALID),
    page: () => ({ kind: "form", status: 400, reply: (errors) => ({ error: firstError(errors) }) }),
    handle: async ({ token }) => {
      const claims = await readMailToken(context.env, token, "verify-email");
      if (!claims?.e) return { answer: linkProblem(VERIFY_LINK_INVALID) };
      const { onboarded } = await verifyEmail(context, claims.u, claims.e);
      // A referral waits for a verified address (ADR 0003); onboarding credits it otherwise.
      if (onboarded) await completeReferral(context, claims.u);
      const signedIn = await getUser(request, context);
      const description = "Thank you. Ride updates can now reach you by e-mail.";
      const toast = { title: "E-mail confirmed", description, type: "success" as const };
      return { to: signedIn ? "/dashboard/profile" : "/login", toast };
    },
  });
}
