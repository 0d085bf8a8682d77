import { redirect, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { findOrCreateGoogleUser } from "~/models/accounts.server";
import { safeRedirect, startUserSession } from "~/utils/auth.server";
import {
  getAuthenticator,
  GOOGLE_LINK_TTL_MS,
  googleConfigured,
  googleLinkCookie,
  referralCookie,
  returnToCookie,
} from "~/utils/authenticator.server";
import { signupAddressHash } from "~/utils/public-form.server";
import { PROVE_PASSWORD_MESSAGE } from "~/schemas/auth";
import { redirectWithToast } from "~/utils/toast.server";
import { welcomeNewUser } from "~/utils/welcome.server";

export const meta: MetaFunction = () => [{ title: "Completing Sign Up | LoopRide" }];

const NEW_USER_WINDOW_MS = 5 * 60 * 1000;
const loginWithError = (message: string, init?: ResponseInit) =>
  redirect(`/login?error=${encodeURIComponent(message)}`, init);

/** Google's return target: the spec's callback logic, all on the server. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (!googleConfigured(context.env) || !url.searchParams.has("code")) return loginWithError("No user session found");
  const { authenticator, clearOAuthCookie } = getAuthenticator(request, context);
  let result;
  try {
    result = await authenticator.authenticate("google", request, { throwOnError: true });
  } catch (e) {
    if (e instanceof Response) throw e;
    return loginWithError("Unable to authenticate");
  }
  if (result.via !== "google") return loginWithError("Unable to authenticate");

  try {
    let account;
    try {
      account = await findOrCreateGoogleUser(context, result.identity, {
        signupAddressHash: await signupAddressHash(request, context.env),
      });
    } catch (e) {
      console.error(e);
      return redirectWithToast(request, context.env, "/login", {
        title: "Error creating profile",
        description: "Please try signing in again",
        type: "error",
      });
    }
    if (account.kind === "prove-password") {
      // Not linked to an account whose e-mail nobody has proven (finding 10 of issue 19).
      const headers = new Headers();
      headers.append(
        "Set-Cookie",
        await googleLinkCookie(request, context.env).serialize({
          ...account.pending,
          exp: Date.now() + GOOGLE_LINK_TTL_MS,
        }),
      );
      headers.append("Set-Cookie", await clearOAuthCookie());
      return loginWithError(PROVE_PASSWORD_MESSAGE, { headers });
    }
    const now = Date.now();
    const profile = account.profile;
    const isNew = !!profile && now - profile.createdAt < NEW_USER_WINDOW_MS;
    const lacksDetails =
      !profile?.phoneNumber?.trim() || !profile.vehicleInfo || Object.keys(profile.vehicleInfo).length === 0;

    const headers = new Headers();
    headers.append("Set-Cookie", (await startUserSession(request, context, account.userId)).cookie);
    headers.append("Set-Cookie", await clearOAuthCookie());

    if (isNew && lacksDetails) {
      const ref = await referralCookie(request).parse(request);
      const toast = await welcomeNewUser(context, account.userId, typeof ref === "string" ? ref : null);
      headers.append("Set-Cookie", await referralCookie(request).clear());
      return redirectWithToast(request, context.env, "/onboarding", toast, { headers });
    }
    const returnTo = await returnToCookie(request).parse(request);
    headers.append("Set-Cookie", await returnToCookie(request).clear());
    // A returning user with an incomplete profile is sent on to /onboarding by the guards.
    return redirect(safeRedirect(returnTo), { headers });
  } catch (e) {
    console.error(e);
    return redirectWithToast(request, context.env, "/login", { title: "An unexpected error occurred", type: "error" });
  }
}

export default function AuthCallback() {
  return (
    <main className="flex min-h-screen items-center justify-center p-8">
      <h1 className="text-xl font-semibold">Completing Sign Up</h1>
    </main>
  );
}
