import { createCookie } from "@remix-run/cloudflare";
import { isSecureRequest, requireSecret } from "./env.server";

export type OnboardingDraft = { userId: string; phone?: string; hasCar?: "yes" | "no"; carType?: string; referralCode?: string };

// The wizard's answers live in a signed cookie until Complete Setup, so they survive
// Back and reload without JavaScript and nothing half-finished reaches the profile.
function draftCookie(request: Request, env: Env) {
  return createCookie("lr_onboarding", {
    httpOnly: true,
    sameSite: "lax",
    secure: isSecureRequest(request),
    // "/" and not "/onboarding": JS navigations fetch /onboarding.data.
    path: "/",
    maxAge: 24 * 3600,
    secrets: [requireSecret(env, "SESSION_SECRET")],
  });
}

export async function readDraft(request: Request, env: Env, userId: string): Promise<OnboardingDraft> {
  const value = (await draftCookie(request, env).parse(request.headers.get("Cookie"))) as OnboardingDraft | null;
  return value && value.userId === userId ? value : { userId };
}

export function writeDraft(request: Request, env: Env, draft: OnboardingDraft) {
  return draftCookie(request, env).serialize(draft);
}

export function clearDraft(request: Request, env: Env) {
  return draftCookie(request, env).serialize("", { maxAge: 0 });
}
