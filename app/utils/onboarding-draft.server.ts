import type { AppEnv } from "./env.server";
import { appCookie } from "./cookies.server";

export type OnboardingDraft = {
  userId: string;
  phone?: string;
  hasCar?: "yes" | "no";
  carType?: string;
  /** As resolved (the list's name), or as typed when it is not a place yet. */
  homeLocality?: string;
  referralCode?: string;
};

// The wizard's answers live in a signed cookie until Complete Setup, so they survive
// Back and reload without JavaScript and nothing half-finished reaches the profile.
function draftCookie(request: Request, env: AppEnv) {
  // Path "/" (the factory's) and not "/onboarding": JS navigations fetch /onboarding.data.
  return appCookie<OnboardingDraft>(request, env, { name: "lr_onboarding", maxAge: 24 * 3600 });
}

export async function readDraft(request: Request, env: AppEnv, userId: string): Promise<OnboardingDraft> {
  // An unreadable or someone else's draft is an empty one; the next step overwrites it.
  const value = await draftCookie(request, env).parse(request);
  return value && typeof value === "object" && value.userId === userId ? value : { userId };
}

export function writeDraft(request: Request, env: AppEnv, draft: OnboardingDraft) {
  return draftCookie(request, env).serialize(draft);
}

export function clearDraft(request: Request, env: AppEnv) {
  return draftCookie(request, env).clear();
}
