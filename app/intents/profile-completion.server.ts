import { wizardStep } from "~/domain/wizard-step";
import { updateOwnProfile } from "~/models/profiles.server";
import { PROFILE_STEP_SCHEMAS } from "~/schemas/profile-steps";
import { runIntent, type Ctx } from "./run.server";

/** One step of Complete your profile: saved, then the next step (the dashboard after the last). */
export function handleProfileStep(request: Request, context: Ctx, userId: string, formData: FormData) {
  const step = wizardStep(formData.get("step"));
  return runIntent(request, context, formData, {
    schema: PROFILE_STEP_SCHEMAS[step - 1],
    invalid: "reply",
    page: () => ({
      kind: "toast",
      to: `/profile-completion?step=${step}`,
      unexpected: { title: "Error updating profile", description: "Please try again." },
    }),
    handle: async (value) => {
      const v = value as Record<string, unknown>;
      if (step === 3) {
        const { make, model, year, color, licensePlate, insuranceInfo } = v as Record<string, string | null>;
        const vehicle = {
          make: make ?? undefined,
          model: model ?? undefined,
          year: year ?? undefined,
          color: color ?? undefined,
          license_plate: licensePlate ?? undefined,
          insurance_info: insuranceInfo ?? undefined,
        };
        await updateOwnProfile(context, userId, { vehicle });
      } else {
        await updateOwnProfile(context, userId, v);
      }
      const next = step < 4 ? `/profile-completion?step=${step + 1}` : "/dashboard";
      const toast = { title: "Profile updated successfully!", description: "Your profile information has been saved." };
      return { to: next, toast };
    },
  });
}
