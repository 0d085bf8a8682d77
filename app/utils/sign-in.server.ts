import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { getSessionUser } from "../models/sessions.server";
import { getUser, needsOnboarding, safeRedirect, startUserSession } from "./auth.server";
import { redirectWithToast } from "./toast.server";

type Ctx = Pick<AppLoadContext, "db" | "env">;

/** /login and /signup send signed-in users on: to /onboarding when incomplete, else /dashboard. */
export async function redirectSignedIn(request: Request, context: Ctx) {
  const user = await getUser(request, context);
  if (!user) return;
  if (needsOnboarding(user)) {
    throw await redirectWithToast(request, context.env, "/onboarding", { title: "Please complete your profile setup first.", type: "info" });
  }
  throw await redirectWithToast(request, context.env, "/dashboard", { title: "You are already signed in! Redirecting to dashboard...", type: "info" });
}

/** Starts a fresh session for the user and sends them where they belong. */
export async function signInAndRedirect(request: Request, context: Ctx, userId: string, redirectTo?: string | null) {
  const { cookie, sessionId } = await startUserSession(request, context, userId);
  const user = await getSessionUser(context, sessionId);
  const headers = { "Set-Cookie": cookie };
  if (user && needsOnboarding(user)) {
    return redirectWithToast(request, context.env, "/onboarding", { title: "Please complete your profile setup first.", type: "info" }, { headers });
  }
  return redirect(safeRedirect(redirectTo), { headers });
}
