import type { AppEnv } from "./env.server";
import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { hitRateLimit, identifierLimitKey, peekRateLimit } from "../models/rate-limits.server";
import { deleteSession, getSessionUser } from "../models/sessions.server";
import type { Identifier } from "../schemas/auth";
import { getUser, needsOnboarding, safeRedirect, startUserSession } from "./auth.server";
import { authRateLimit, clientAddress } from "./public-form.server";
import { redirectWithToast, type Toast } from "./toast.server";

type Ctx = Pick<AppLoadContext, "db" | "env">;

/** Issue 37: what a person suspended by LoopRide's operators is told when signing in. */
export const ACCOUNT_SUSPENDED = "This account is suspended by LoopRide's operators.";

/** /login and /signup send signed-in users on: to /onboarding when incomplete, else /dashboard. */
export async function redirectSignedIn(request: Request, context: Ctx) {
  const user = await getUser(request, context);
  if (!user) return;
  if (needsOnboarding(user)) {
    throw await redirectWithToast(request, context.env, "/onboarding", {
      title: "Please complete your profile setup first.",
      type: "info",
    });
  }
  throw await redirectWithToast(request, context.env, "/dashboard", {
    title: "You are already signed in! Redirecting to dashboard...",
    type: "info",
  });
}

/** Starts a fresh session for the user and sends them where they belong. */
export async function signInAndRedirect(
  request: Request,
  context: Ctx,
  userId: string,
  redirectTo?: string | null,
  { setCookies = [], toast }: { setCookies?: string[]; toast?: Toast } = {},
) {
  const { cookie, sessionId } = await startUserSession(request, context, userId);
  const user = await getSessionUser(context, sessionId);
  // Issue 37: a suspended account's session reads as no session; it is not kept either.
  if (!user) {
    await deleteSession(context, sessionId);
    return redirectWithToast(request, context.env, "/login", {
      title: ACCOUNT_SUSPENDED,
      description: "Please write to LoopRide's support if you think this is a mistake.",
      type: "error",
    });
  }
  const headers = new Headers();
  for (const c of [cookie, ...setCookies]) headers.append("Set-Cookie", c);
  if (user && needsOnboarding(user)) {
    return redirectWithToast(
      request,
      context.env,
      "/onboarding",
      { title: "Please complete your profile setup first.", type: "info" },
      { headers },
    );
  }
  const to = safeRedirect(redirectTo);
  return toast ? redirectWithToast(request, context.env, to, toast, { headers }) : redirect(to, { headers });
}

// ---------------------------------------------------------------------------------------
// Sign-in limits (OWASP Authentication Cheat Sheet, "Login Throttling" / account lockout):
// - per address: every attempt counts, 10 a minute (guardPublicForm, a hard limit);
// - per account: failed passwords count, 10 a minute, keyed on the normalised identifier
//   (the one the sign-in lookup uses), so "+91 98765-01234" and "09876501234" are one account;
// - once an account is over its limit, only an address with no failed attempt on that
//   account in the last 15 minutes may still try, and a wrong password from it is counted
//   (so it gets one try). The owner signing in from their usual address is not locked out by
//   a stranger guessing from elsewhere; the stranger's addresses are.

export const PAIR_FAILURE_WINDOW_MS = 15 * 60_000;

/** The account a sign-in attempt is about: kind and normalised value, as the lookup sees it. */
export const accountKey = (identifier: Identifier) => `${identifier.kind}:${identifier.value}`;

// Keyed hashes: the e-mail, phone and address are not stored (issue 34, finding 9).
const keys = async (request: Request, env: AppEnv, identifier: Identifier) => ({
  account: await identifierLimitKey(env, "signin-fail-account", accountKey(identifier)),
  pair: await identifierLimitKey(env, "signin-fail-pair", clientAddress(request), accountKey(identifier)),
});

export type SignInGate = { accountLocked: boolean; addressFailedBefore: boolean };

/** Where this attempt stands before the password is checked. Refuse when both are true. */
export async function signInGate(
  request: Request,
  context: Ctx,
  identifier: Identifier,
  now = Date.now(),
): Promise<SignInGate> {
  const k = await keys(request, context.env, identifier);
  const [accountFailures, pairFailures] = await Promise.all([
    peekRateLimit(context, k.account, 60_000, now),
    peekRateLimit(context, k.pair, PAIR_FAILURE_WINDOW_MS, now),
  ]);
  return { accountLocked: accountFailures >= authRateLimit(context.env), addressFailedBefore: pairFailures > 0 };
}

/** Counts a wrong password; says whether the account is now over its limit. */
export async function recordSignInFailure(
  request: Request,
  context: Ctx,
  identifier: Identifier,
  now = Date.now(),
): Promise<{ accountLocked: boolean }> {
  const k = await keys(request, context.env, identifier);
  const [account] = await Promise.all([
    hitRateLimit(context, k.account, authRateLimit(context.env), 60_000, now),
    hitRateLimit(context, k.pair, Number.MAX_SAFE_INTEGER, PAIR_FAILURE_WINDOW_MS, now),
  ]);
  return { accountLocked: !account.allowed };
}
