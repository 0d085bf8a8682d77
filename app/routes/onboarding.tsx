import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { wizardStep } from "~/domain/wizard-step";
import { Logo } from "~/components/brand";
import { buttonClass, secondaryButtonClass } from "~/components/forms";
import {
  CarStep,
  HomeStep,
  OnboardingReview,
  OnboardingSteps,
  PhoneStep,
  ReferralStep,
} from "~/components/onboarding-steps";
import { hasRedeemedReferral } from "~/models/referrals.server";
import { resolvePlace } from "~/models/places.server";
import { normalizeIndianMobile } from "~/domain/phone";
import {
  carAndHomeStepSchema,
  onboardingIntentSchema,
  phoneStepSchema,
  referralStepSchema,
} from "~/schemas/onboarding";
import { MOBILE_INPUT_MAX } from "~/schemas/phone";
import { needsOnboarding, requireUser } from "~/utils/auth.server";
import { parseIntent } from "~/utils/errors.server";
import { completeOnboardingFlow } from "~/intents/onboarding.server";
import { readDraft, writeDraft, type OnboardingDraft } from "~/utils/onboarding-draft.server";

export const meta: MetaFunction = () => [{ title: "Set up your profile | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context, { allowIncomplete: true });
  if (!needsOnboarding(user)) throw redirect("/dashboard");
  const step = wizardStep(new URL(request.url).searchParams.get("step"));
  const [draft, redeemed] = await Promise.all([
    readDraft(request, context.env, user.id),
    hasRedeemedReferral(context, user.id),
  ]);
  return { step, draft: { ...draft, phone: draft.phone ?? user.phoneNumber ?? "" }, redeemed };
}

const SCHEMAS = { 1: phoneStepSchema, 2: carAndHomeStepSchema(resolvePlace), 3: referralStepSchema } as const;

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context, { allowIncomplete: true });
  // Like the page: an onboarded user has nothing to set up here (and must not re-save
  // their phone through this lighter form, which skips the profile's validation).
  if (!needsOnboarding(user)) throw redirect("/dashboard");
  const formData = await request.formData();
  const step = wizardStep(formData.get("step"));
  const { intent } = parseIntent(formData, onboardingIntentSchema);
  const draft = await readDraft(request, context.env, user.id);

  if (intent === "complete") return completeOnboardingFlow(request, context, user, draft);
  if (step === 4) return redirect(`/onboarding?step=${intent === "back" ? 3 : 4}`);

  const submission = parseWithZod(formData, { schema: SCHEMAS[step as 1 | 2 | 3] });
  // Back keeps what was typed (valid or not) so nothing is lost; Next requires it valid.
  const next: OnboardingDraft = { ...draft };
  // The draft keeps the normalised 10 digits ("98765 43210" is 9876543210), or what was
  // typed when it is not a valid mobile yet (never a cut-off prefix of it).
  if (step === 1) {
    const typed = String(formData.get("phone") ?? "")
      .trim()
      .slice(0, MOBILE_INPUT_MAX);
    next.phone = normalizeIndianMobile(typed) ?? typed;
  }
  if (step === 2) {
    const hasCar = formData.get("hasCar");
    next.hasCar = hasCar === "yes" || hasCar === "no" ? hasCar : undefined;
    next.carType = String(formData.get("carType") ?? "") || undefined;
    const home = String(formData.get("homeLocality") ?? "")
      .trim()
      .slice(0, 100);
    next.homeLocality = (home && resolvePlace(home).place?.name) || home || undefined;
  }
  if (step === 3)
    next.referralCode = String(formData.get("referralCode") ?? "")
      .trim()
      .toUpperCase()
      .slice(0, 20);
  const headers = { "Set-Cookie": await writeDraft(request, context.env, next) };
  if (intent === "back") return redirect(`/onboarding?step=${Math.max(1, step - 1)}`, { headers });
  if (submission.status !== "success") {
    // A locality not on the list: its "did you mean" names, to pick without JavaScript.
    const homeOptions = next.homeLocality ? (resolvePlace(next.homeLocality).suggestions ?? []).map((p) => p.name) : [];
    return data({ ...submission.reply(), homeOptions }, { status: 400, headers });
  }
  return redirect(`/onboarding?step=${step + 1}`, { headers });
}

export default function Onboarding() {
  const { step, draft, redeemed } = useLoaderData<typeof loader>();
  return (
    <main className="mx-auto max-w-xl px-4 py-10">
      <div className="mb-6 flex justify-center">
        <Logo />
      </div>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <h1 className="text-2xl font-bold">Set up your LoopRide profile</h1>
        <OnboardingSteps step={step} />
        {/* One form state per step: conform keeps a form's state for the life of the component,
            so a step shown again after Back (client-side navigation) showed the state left by
            the step before instead of the saved answers, and Next then overwrote them. */}
        <StepForm key={step} step={step} draft={draft} redeemed={redeemed} />
      </div>
    </main>
  );
}

type LoaderData = ReturnType<typeof useLoaderData<typeof loader>>;

function StepForm({ step, draft, redeemed }: LoaderData) {
  const actionData = useActionData<typeof action>();
  const lastResult = actionData && "status" in actionData ? (actionData as SubmissionResult<string[]>) : undefined;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const [form, fields] = useForm<Record<string, string>>({
    id: `onboarding-${step}`,
    lastResult,
    shouldValidate: "onSubmit",
  });
  return (
    <Form method="post" {...getFormProps(form)} noValidate className="mt-6 space-y-5">
      <input type="hidden" name="step" value={step} />
      {/* Enter in a field submits with the form's first submit button: without this one that
          was Back (disabled on step 1, so Enter did nothing; on step 3 it went back). */}
      {step < 4 ? (
        <button
          type="submit"
          name="intent"
          value="next"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
          disabled={busy}
        >
          Next
        </button>
      ) : null}
      {step === 1 ? <PhoneStep field={fields.phone} draft={draft.phone} /> : null}
      {step === 2 ? (
        <>
          <CarStep hasCar={fields.hasCar} carType={fields.carType} draft={draft} />
          <HomeStep
            field={fields.homeLocality}
            draft={draft.homeLocality}
            options={(actionData as { homeOptions?: string[] } | undefined)?.homeOptions ?? []}
          />
        </>
      ) : null}
      {step === 3 ? <ReferralStep field={fields.referralCode} draft={draft.referralCode} redeemed={redeemed} /> : null}
      {step === 4 ? <OnboardingReview draft={draft} /> : null}
      <div className="flex justify-between gap-3 pt-2">
        <button
          type="submit"
          name="intent"
          value="back"
          formNoValidate
          className={secondaryButtonClass}
          disabled={step === 1 || busy}
        >
          Back
        </button>
        {step < 4 ? (
          <button type="submit" name="intent" value="next" className={buttonClass} disabled={busy}>
            Next
          </button>
        ) : (
          <button type="submit" name="intent" value="complete" className={buttonClass} disabled={busy}>
            {busy ? "Completing..." : "Complete Setup"}
          </button>
        )}
      </div>
    </Form>
  );
}
