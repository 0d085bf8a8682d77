import { redirect, type AppLoadContext } from "@remix-run/cloudflare";
import type { SessionUser } from "~/models/sessions.server";
import { completeOnboarding } from "~/models/profiles.server";
import { completeReferral, ensureReferralCode, redeemReferralCode } from "~/models/referrals.server";
import { resolvePlace } from "~/models/places.server";
import { carStepSchema, homeLocalityField, phoneStepSchema } from "~/schemas/onboarding";
import { answerError } from "~/utils/errors.server";
import { clearDraft, type OnboardingDraft } from "~/utils/onboarding-draft.server";
import { redirectWithToast } from "~/utils/toast.server";

/** Complete Setup: validates every step again on the server, then saves. */
export async function completeOnboardingFlow(
  request: Request,
  context: Pick<AppLoadContext, "db" | "env">,
  user: SessionUser,
  draft: OnboardingDraft,
) {
  const phone = phoneStepSchema.safeParse({ phone: draft.phone ?? "" });
  if (!phone.success) return redirect("/onboarding?step=1");
  const car = carStepSchema.safeParse({ hasCar: draft.hasCar, carType: draft.carType || undefined });
  if (!car.success) return redirect("/onboarding?step=2");
  const home = homeLocalityField(resolvePlace).safeParse(draft.homeLocality);
  if (!home.success) return redirect("/onboarding?step=2");
  const unexpected = { title: "Error", description: "Failed to complete onboarding. Please try again." };
  // Only saving the profile answers with the error toast (through the one error table);
  // what follows runs once it is saved, so it is not the runner's single handler.
  const profile = {
    phone: phone.data.phone,
    hasCar: car.data.hasCar === "yes",
    carType: car.data.carType ?? null,
    residentialArea: home.data,
  };
  const page = { kind: "toast" as const, request, env: context.env, to: "/onboarding?step=4", unexpected };
  const failed = await completeOnboarding(context, user.id, profile).then(
    () => null,
    (e: unknown) => answerError(e, page),
  );
  if (failed) return failed;
  const headers = { "Set-Cookie": await clearDraft(request, context.env) };
  let toast = { title: "Profile completed successfully!" } as { title: string; description?: string; type?: "error" };
  if (draft.referralCode) {
    const result = await redeemReferralCode(context, user.id, draft.referralCode);
    if (!result.ok && result.reason !== "own") {
      // An already-redeemed or unknown code is not applied; the profile is saved all the same.
      toast = { title: "Invalid referral code, but your profile was updated successfully.", type: "error" };
    }
  }
  // The account is real now: the referrer of a pending referral (from sign-up or the step
  // above) is credited, within the referral rules (ADR 0003).
  await completeReferral(context, user.id);
  try {
    await ensureReferralCode(context, user.id);
  } catch (e) {
    console.error("referral code generation failed", e);
  }
  return redirectWithToast(request, context.env, "/dashboard", toast, { headers });
}
