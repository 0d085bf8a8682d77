import { data, redirect } from "@remix-run/cloudflare";
import { createPasswordAccount } from "~/models/accounts.server";
import { hitRateLimit, identifierLimitKey } from "~/models/rate-limits.server";
import { parseIdentifier, signupSchema } from "~/schemas/auth";
import { startUserSession } from "~/utils/auth.server";
import { referralCookie } from "~/utils/authenticator.server";
import { requireSecret } from "~/utils/env.server";
import { kickOutbox } from "~/models/outbox/deliver.server";
import { hashPassword } from "~/utils/password.server";
import { RATE_LIMIT_MESSAGE, signupAddressHash } from "~/utils/public-form.server";
import { accountKey } from "~/utils/sign-in.server";
import { welcomeNewUser } from "~/utils/welcome.server";
import { runIntent, type Ctx } from "./run.server";

const SIGNUP_PER_IDENTIFIER = 5;
const SIGNUP_IDENTIFIER_WINDOW_MS = 15 * 60_000;
const HIDDEN = ["password"];

/**
 * Sign up with a password. A taken e-mail or mobile is shown on the identifier field (400,
 * the password not sent back); a bot (the honeypot) is sent home having made nothing.
 */
export function handleSignup(request: Request, context: Ctx, formData: FormData, isBot: boolean) {
  return runIntent(request, context, formData, {
    schema: signupSchema,
    invalid: (_, __, submission) => data(submission.reply({ hideFields: HIDDEN }), { status: 400 }),
    page: () => ({
      kind: "form",
      status: 400,
      reply: (errors, submission) => submission.reply({ ...errors, hideFields: HIDDEN }),
    }),
    handle: async ({ fullName, identifier, password, referralCode }) => {
      if (isBot) return { answer: redirect("/") };
      const parsed = parseIdentifier(identifier)!;
      // "An account with this e-mail already exists" tells whether an address is registered.
      // Until sign-up can answer by e-mail (issue 15), each identifier may be tried a few times
      // per 15 minutes, counted the same whether it exists or not (docs/SECURITY.md).
      const identifierKey = await identifierLimitKey(context.env, "signup-identifier", accountKey(parsed));
      const perIdentifier = await hitRateLimit(
        context,
        identifierKey,
        SIGNUP_PER_IDENTIFIER,
        SIGNUP_IDENTIFIER_WINDOW_MS,
      );
      if (!perIdentifier.allowed) throw data(RATE_LIMIT_MESSAGE, { status: 429 });
      const passwordHash = await hashPassword(password, requireSecret(context.env, "PASSWORD_PEPPER"));
      const signupHash = await signupAddressHash(request, context.env);
      const account = { fullName, identifier: parsed, passwordHash, signupAddressHash: signupHash };
      const { id: userId } = await createPasswordAccount(context, account);
      kickOutbox(context);
      const toast = await welcomeNewUser(context, userId, referralCode);
      const { cookie } = await startUserSession(request, context, userId);
      const headers = new Headers();
      headers.append("Set-Cookie", cookie);
      headers.append("Set-Cookie", await referralCookie(request).clear());
      return { to: "/onboarding", toast, headers };
    },
  });
}
