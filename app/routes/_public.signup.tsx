import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect } from "react";
import { AuthCard, GoogleButton } from "~/components/auth";
import { Field, FormErrors, buttonClass } from "~/components/forms";
import { HoneypotField } from "~/components/honeypot";
import { normalizeReferralCode } from "~/domain/referral";
import { handleSignup } from "~/intents/signup.server";
import { signupSchema } from "~/schemas/auth";
import { googleConfigured, referralCookie } from "~/utils/authenticator.server";
import { guardPublicForm } from "~/utils/public-form.server";
import { redirectSignedIn } from "~/utils/sign-in.server";

export const meta: MetaFunction = () => [{ title: "Sign up | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectSignedIn(request, context);
  const url = new URL(request.url);
  const cookie = referralCookie(request);
  const googleEnabled = googleConfigured(context.env);
  // ?ref=CODE pre-fills and remembers the code (through Google sign-up too); ?ref= forgets it.
  if (url.searchParams.has("ref")) {
    const ref = normalizeReferralCode(url.searchParams.get("ref")).slice(0, 20);
    const headers = { "Set-Cookie": ref ? await cookie.serialize(ref) : await cookie.clear() };
    return data({ referralCode: ref, lockedReferral: Boolean(ref), googleEnabled }, { headers });
  }
  const parsed = await cookie.parse(request);
  const remembered = typeof parsed === "string" ? parsed.slice(0, 20) : "";
  return { referralCode: remembered, lockedReferral: Boolean(remembered), googleEnabled };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const { isBot } = await guardPublicForm(request, context, formData, "signup");
  return handleSignup(request, context, formData, isBot);
}

const BENEFITS = [
  { title: "Eco-friendly", body: "Fewer cars on Bengaluru's roads, less CO2." },
  { title: "Save money", body: "Split fuel costs fairly in rupees." },
  { title: "Meet people", body: "Ride with neighbours and colleagues." },
];

export default function Signup() {
  const { referralCode, lockedReferral, googleEnabled } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "signup",
    lastResult,
    defaultValue: { referralCode },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signupSchema }),
  });
  // "Remove code" (or another invite link) loads the page again client-side: conform keeps its
  // state for the life of the form, so the old code stayed in the field and was submitted.
  const codeName = fields.referralCode.name;
  useEffect(() => {
    form.update({ name: codeName, value: referralCode });
  }, [referralCode]);
  return (
    <AuthCard title="Create your account" subtitle="Join LoopRide and start sharing rides in Bengaluru.">
      <ul className="mb-6 grid grid-cols-3 gap-2 text-center text-xs">
        {BENEFITS.map((b) => (
          <li key={b.title} className="rounded-lg bg-emerald-50 p-2 dark:bg-emerald-950">
            <p className="font-semibold text-emerald-900 dark:text-emerald-200">{b.title}</p>
            <p className="mt-1 text-slate-700 dark:text-slate-300">{b.body}</p>
          </li>
        ))}
      </ul>
      <GoogleButton enabled={googleEnabled} label="Sign up with Google" />
      <div className="my-4 flex items-center gap-3 text-sm text-slate-600 dark:text-slate-400">
        <span className="h-px flex-1 bg-slate-300 dark:bg-slate-700" /> or{" "}
        <span className="h-px flex-1 bg-slate-300 dark:bg-slate-700" />
      </div>
      <Form method="post" {...getFormProps(form)} className="relative space-y-4">
        <HoneypotField />
        <FormErrors errors={form.errors} />
        <Field label="Full name" field={fields.fullName} autoComplete="name" />
        <Field label="E-mail or mobile number" field={fields.identifier} autoComplete="username" />
        <Field
          label="Password"
          field={fields.password}
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters, not a common password."
          clearOn={lastResult}
        />
        <div>
          <Field
            label="Referral code (optional)"
            field={fields.referralCode}
            readOnly={lockedReferral}
            placeholder="LRXXXXXX"
            autoComplete="off"
          />
          {lockedReferral ? (
            <p className="mt-1 text-xs text-slate-700 dark:text-slate-300">
              Code from your invite link.{" "}
              <Link to="/signup?ref=" className="underline">
                Remove code
              </Link>
            </p>
          ) : null}
        </div>
        <button type="submit" className={`${buttonClass} w-full`} disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Creating account..." : "Sign up"}
        </button>
      </Form>
      <p className="mt-6 text-center text-sm">
        Already have an account?{" "}
        <Link className="font-medium text-emerald-800 underline dark:text-emerald-300" to="/login">
          Sign in
        </Link>
      </p>
      <p className="mt-2 text-center text-xs text-slate-600 dark:text-slate-400">
        By signing up you agree to the{" "}
        <Link className="underline" to="/terms-of-service">
          Terms of Service
        </Link>{" "}
        and the{" "}
        <Link className="underline" to="/privacy-policy">
          Privacy Policy
        </Link>
        .
      </p>
    </AuthCard>
  );
}
