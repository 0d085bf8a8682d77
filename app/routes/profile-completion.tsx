import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Logo } from "~/components/brand";
import { Field, FieldErrors, TextareaField, buttonClass, inputClass, secondaryButtonClass } from "~/components/forms";
import { OnboardingSteps } from "~/components/onboarding-steps";
import { STATUS_LABEL } from "~/domain/profile-score";
import { getOwnProfile, updateOwnProfile } from "~/models/profiles.server";
import { MOBILE_INPUT_MAX } from "~/schemas/phone";
import { basicInfoSchema, contactSchema, preferencesSchema, vehicleSchema } from "~/schemas/profile";
import { requireUser } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Complete your profile | LoopRide" }];

const STEPS = ["Basic Information", "Contact Details", "Vehicle Information", "Ride Preferences"] as const;
const SCHEMAS = [basicInfoSchema, contactSchema, vehicleSchema, preferencesSchema] as const;

/** The step from the URL or the form: a whole number 1-4, anything else is step 1 ("1.5" had no schema: a 500). */
function stepOf(value: FormDataEntryValue | string | null): 1 | 2 | 3 | 4 {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 4 ? (n as 1 | 2 | 3 | 4) : 1;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const stepParam = new URL(request.url).searchParams.get("step");
  const { profile, progress } = await getOwnProfile(context, user.id);
  // Entering an already complete profile goes straight to the dashboard.
  if (!stepParam && progress.status === "complete") throw redirect("/dashboard");
  const step = stepOf(stepParam);
  return { step, profile, progress };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const formData = await request.formData();
  const step = stepOf(formData.get("step"));
  const submission = parseWithZod(formData, { schema: SCHEMAS[step - 1] });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const v = submission.value as Record<string, unknown>;
    if (step === 3) {
      const { make, model, year, color, licensePlate, insuranceInfo } = v as Record<string, string | null>;
      await updateOwnProfile(context, user.id, {
        vehicle: { make: make ?? undefined, model: model ?? undefined, year: year ?? undefined, color: color ?? undefined, license_plate: licensePlate ?? undefined, insurance_info: insuranceInfo ?? undefined },
      });
    } else {
      await updateOwnProfile(context, user.id, v);
    }
  } catch (e) {
    console.error(e);
    return redirectWithToast(request, context.env, `/profile-completion?step=${step}`, { title: "Error updating profile", description: "Please try again.", type: "error" });
  }
  const next = step < 4 ? `/profile-completion?step=${step + 1}` : "/dashboard";
  return redirectWithToast(request, context.env, next, { title: "Profile updated successfully!", description: "Your profile information has been saved." });
}

export default function ProfileCompletion() {
  const { step, profile, progress } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
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
  const badgeTone = progress.status === "complete" ? "bg-emerald-700" : progress.status === "basic" ? "bg-amber-700" : "bg-slate-600";
  return (
    <main className="mx-auto max-w-2xl px-4 py-10">
      <div className="mb-6 flex justify-center"><Logo /></div>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <div className="flex items-center justify-between gap-3">
          <h1 className="text-2xl font-bold">Complete your profile</h1>
          <span data-testid="profile-status" className={`rounded-full px-3 py-1 text-sm font-semibold text-white ${badgeTone}`}>
            {STATUS_LABEL[progress.status] ?? "Incomplete"}
          </span>
        </div>
        <div className="mt-4">
          <p className="text-sm font-medium">Profile {progress.score}% complete</p>
          <div className="mt-1 h-2 rounded-full bg-slate-200 dark:bg-slate-800" role="progressbar" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress.score} aria-label="Profile completion">
            <div className="h-2 rounded-full bg-emerald-700" style={{ width: `${progress.score}%` }} />
          </div>
          {progress.hints.length ? (
            <ul className="mt-2 list-inside list-disc text-sm text-slate-700 dark:text-slate-300">
              {progress.hints.map((h) => <li key={h}>{h}</li>)}
            </ul>
          ) : null}
        </div>
        <OnboardingSteps step={step} />
        <h2 className="mt-6 text-lg font-semibold">{STEPS[step - 1]}{step === 3 ? " (optional)" : ""}</h2>
        <Form method="post" {...getFormProps(form)} className="mt-4 space-y-4">
          <input type="hidden" name="step" value={step} />
          {step === 1 ? (
            <>
              <Field label="Full name" field={fields.fullName} required autoComplete="name" />
              <Field label="Residential area" field={fields.residentialArea} required placeholder="e.g. HSR Layout" />
              <Field label="Workplace" field={fields.workplace} required placeholder="e.g. RMZ Ecospace" />
              <TextareaField label="Bio" field={fields.bio} rows={4} maxLength={500} />
            </>
          ) : null}
          {step === 2 ? (
            <>
              <Field label="Phone number" field={fields.phoneNumber} type="tel" required maxLength={MOBILE_INPUT_MAX} autoComplete="tel-national" />
              <Field label="Emergency contact" field={fields.emergencyContact} required placeholder="Name and phone number" />
            </>
          ) : null}
          {step === 3 ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Make" field={fields.make} placeholder="e.g. Maruti Suzuki" />
              <Field label="Model" field={fields.model} placeholder="e.g. Swift" />
              <Field label="Year" field={fields.year} inputMode="numeric" maxLength={4} />
              <Field label="Colour" field={fields.color} />
              <Field label="Licence plate" field={fields.licensePlate} placeholder="KA 01 AB 1234" />
              <Field label="Insurance information" field={fields.insuranceInfo} />
            </div>
          ) : null}
          {step === 4 ? <Preferences profile={profile} errors={fields.maxDetourMinutes.errors} errorId={fields.maxDetourMinutes.errorId} /> : null}
          <div className="flex justify-between gap-3 pt-2">
            {step > 1 ? (
              <Link to={`/profile-completion?step=${step - 1}`} className={secondaryButtonClass}>Back</Link>
            ) : (
              <Link to="/dashboard" className={secondaryButtonClass}>Skip for now</Link>
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

type Prefs = { smokingAllowed: boolean; petsAllowed: boolean; musicPreference: string; conversationPreference: string; maxDetourMinutes: number; genderPreference: string } | null;

function Preferences({ profile, errors, errorId }: { profile: Prefs; errors?: string[]; errorId: string }) {
  const select = (name: string, label: string, value: string, options: [string, string][]) => (
    <div>
      <label htmlFor={name} className="mb-1 block text-sm font-medium">{label}</label>
      <select id={name} name={name} defaultValue={value} className={inputClass}>
        {options.map(([v, l]) => <option key={v} value={v}>{l}</option>)}
      </select>
    </div>
  );
  return (
    <div className="space-y-4">
      <label className="flex items-center gap-2">
        <input type="checkbox" name="smokingAllowed" defaultChecked={profile?.smokingAllowed} className="h-4 w-4" /> Smoking allowed
      </label>
      <label className="flex items-center gap-2">
        <input type="checkbox" name="petsAllowed" defaultChecked={profile?.petsAllowed} className="h-4 w-4" /> Pets allowed
      </label>
      {select("musicPreference", "Music", profile?.musicPreference ?? "moderate", [["quiet", "Quiet"], ["low", "Low"], ["moderate", "Moderate"], ["high", "High"]])}
      {select("conversationPreference", "Conversation", profile?.conversationPreference ?? "casual", [["quiet", "Quiet"], ["casual", "Casual"], ["talkative", "Talkative"]])}
      <div>
        <label htmlFor="maxDetourMinutes" className="mb-1 block text-sm font-medium">Maximum detour (minutes)</label>
        <input id="maxDetourMinutes" name="maxDetourMinutes" type="number" min={0} max={60} defaultValue={profile?.maxDetourMinutes ?? 15} className={inputClass} aria-invalid={errors ? true : undefined} aria-describedby={errors ? errorId : undefined} />
        <FieldErrors id={errorId} errors={errors} />
      </div>
      {select("genderPreference", "Co-passenger gender preference", profile?.genderPreference ?? "any", [["any", "Any"], ["female", "Female only"], ["male", "Male only"]])}
    </div>
  );
}
