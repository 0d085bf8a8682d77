import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { wizardStep } from "~/domain/wizard-step";
import { Logo } from "~/components/brand";
import { buttonClass, secondaryButtonClass } from "~/components/forms";
import { OnboardingSteps } from "~/components/onboarding-steps";
import { handleProfileStep } from "~/intents/profile-completion.server";
import { BasicInfoStep, ContactStep, Preferences, ProfileProgress, VehicleStep } from "~/components/profile-steps";
import { getOwnProfile } from "~/models/profiles.server";
import { PROFILE_STEP_SCHEMAS } from "~/schemas/profile-steps";
import { requireUser } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Complete your profile | LoopRide" }];

const STEPS = ["Basic Information", "Contact Details", "Vehicle Information", "Ride Preferences"] as const;
const SCHEMAS = PROFILE_STEP_SCHEMAS;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const stepParam = new URL(request.url).searchParams.get("step");
  const { profile, progress } = await getOwnProfile(context, user.id);
  // Entering an already complete profile goes straight to the dashboard.
  if (!stepParam && progress.status === "complete") throw redirect("/dashboard");
  const step = wizardStep(stepParam);
  return { step, profile, progress };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleProfileStep(request, context, user.id, await request.formData());
}

export default function ProfileCompletion() {
  const { step } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  // One form state per step, as in the onboarding wizard: conform keeps a form's state for the
  // life of the component, so Next from step 3 rendered step 4 with step 3's state (its four
  // selects blank) and Finish then saved the defaults over the saved preferences.
  return <StepForm key={step} lastResult={lastResult} />;
}

function StepForm({ lastResult }: { lastResult: SubmissionResult<string[]> | undefined }) {
  const { step, profile, progress } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const v = profile?.vehicleInfo ?? {};
  const [form, fields] = useForm<Record<string, string>>({
    id: `profile-step-${step}`,
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: SCHEMAS[step - 1] }) as never,
    defaultValue: {
      fullName: profile?.fullName ?? "",
      residentialArea: profile?.residentialArea ?? "",
      workplace: profile?.workplace ?? "",
      bio: profile?.bio ?? "",
      phoneNumber: profile?.phoneNumber ?? "",
      emergencyContact: profile?.emergencyContact ?? "",
      make: v.make ?? "",
      model: v.model ?? "",
      year: v.year ?? "",
      color: v.color ?? "",
      licensePlate: v.license_plate ?? "",
      insuranceInfo: v.insurance_info ?? "",
      maxDetourMinutes: String(profile?.maxDetourMinutes ?? 15),
    },
  });
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <div className="mb-6 flex justify-center">
        <Logo />
      </div>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <ProfileProgress progress={progress} />
        <OnboardingSteps step={step} />
        <h2 className="mt-6 text-lg font-semibold">
          {STEPS[step - 1]}
          {step === 3 ? " (optional)" : ""}
        </h2>
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
          <input type="hidden" name="step" value={step} />
          {step === 1 ? <BasicInfoStep fields={fields} /> : null}
          {step === 2 ? <ContactStep fields={fields} /> : null}
          {step === 3 ? <VehicleStep fields={fields} /> : null}
          {step === 4 ? (
            <Preferences
              profile={profile}
              errors={fields.maxDetourMinutes.errors}
              errorId={fields.maxDetourMinutes.errorId}
            />
          ) : null}
          <div className="flex justify-between gap-3 pt-2">
            {step > 1 ? (
              <Link to={`/profile-completion?step=${step - 1}`} className={secondaryButtonClass}>
                Back
              </Link>
            ) : (
              <Link to="/dashboard" className={secondaryButtonClass}>
                Skip for now
              </Link>
            )}
            <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
              {step < 4 ? "Next" : "Finish"}
            </button>
          </div>
        </Form>
      </div>
    </main>
  );
}
