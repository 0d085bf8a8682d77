import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthCard, GoogleButton } from "~/components/auth";
import { Field, FormErrors, buttonClass } from "~/components/forms";
import { HoneypotField } from "~/components/honeypot";
import { normalizeReferralCode } from "~/domain/referral";
import { createPasswordAccount } from "~/models/accounts.server";
import { parseIdentifier, signupSchema } from "~/schemas/auth";
import { startUserSession } from "~/utils/auth.server";
import { orFormError } from "~/utils/errors.server";
import { googleConfigured, referralCookie } from "~/utils/authenticator.server";
import { requireSecret } from "~/utils/env.server";
import { hashPassword } from "~/utils/password.server";
import { hitRateLimit, identifierLimitKey } from "~/models/rate-limits.server";
import { guardPublicForm, RATE_LIMIT_MESSAGE, signupAddressHash } from "~/utils/public-form.server";
import { accountKey, redirectSignedIn } from "~/utils/sign-in.server";
import { redirectWithToast } from "~/utils/toast.server";
import { welcomeNewUser } from "~/utils/welcome.server";
import { kickOutbox } from "~/utils/outbox.server";

export const meta: MetaFunction = () => [{ title: "Sign up | LoopRide" }];

const SIGNUP_PER_IDENTIFIER = 5;
const SIGNUP_IDENTIFIER_WINDOW_MS = 15 * 60_000;

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
  const submission = parseWithZod(formData, { schema: signupSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password"] }), { status: 400 });
  if (isBot) return redirect("/");
  const { fullName, identifier, password, referralCode } = submission.value;
  const parsed = parseIdentifier(identifier)!;
  // "An account with this e-mail already exists" tells whether an address is registered.
  // Until sign-up can answer by e-mail (issue 15), each identifier may be tried a few times
  // per 15 minutes, counted the same whether it exists or not (docs/SECURITY.md).
  const identifierKey = await identifierLimitKey(context.env, "signup-identifier", accountKey(parsed));
  const perIdentifier = await hitRateLimit(context, identifierKey, SIGNUP_PER_IDENTIFIER, SIGNUP_IDENTIFIER_WINDOW_MS);
  if (!perIdentifier.allowed) throw data(RATE_LIMIT_MESSAGE, { status: 429 });
  // A taken e-mail or mobile is shown on the identifier field (400, the password not sent back).
  const form = { reply: (o?: { fieldErrors?: Record<string, string[]> }) => submission.reply({ ...o, hideFields: ["password"] }) };
  return orFormError(
    form,
    async () => {
      const passwordHash = await hashPassword(password, requireSecret(context.env, "PASSWORD_PEPPER"));
      const { id: userId } = await createPasswordAccount(context, { fullName, identifier: parsed, passwordHash, signupAddressHash: await signupAddressHash(request, context.env) });
      kickOutbox(context);
      const toast = await welcomeNewUser(context, userId, referralCode);
      const { cookie } = await startUserSession(request, context, userId);
      const headers = new Headers();
      headers.append("Set-Cookie", cookie);
      headers.append("Set-Cookie", await referralCookie(request).clear());
      return redirectWithToast(request, context.env, "/onboarding", toast, { headers });
    },
    { status: 400 },
  );
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
        <span className="h-px flex-1 bg-slate-300 dark:bg-slate-700" /> or <span className="h-px flex-1 bg-slate-300 dark:bg-slate-700" />
      </div>
      <Form method="post" {...getFormProps(form)} className="relative space-y-4">
        <HoneypotField />
        <FormErrors errors={form.errors} />
        <Field label="Full name" field={fields.fullName} autoComplete="name" />
        <Field label="E-mail or mobile number" field={fields.identifier} autoComplete="username" />
        <Field label="Password" field={fields.password} type="password" autoComplete="new-password" hint="At least 8 characters, not a common password." clearOn={lastResult} />
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
              Code from your invite link. <Link to="/signup?ref=" className="underline">Remove code</Link>
            </p>
          ) : null}
        </div>
        <button type="submit" className={`${buttonClass} w-full`} disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Creating account..." : "Sign up"}
        </button>
      </Form>
      <p className="mt-6 text-center text-sm">
        Already have an account? <Link className="font-medium text-emerald-800 underline dark:text-emerald-300" to="/login">Sign in</Link>
      </p>
      <p className="mt-2 text-center text-xs text-slate-600 dark:text-slate-400">
        By signing up you agree to the <Link className="underline" to="/terms-of-service">Terms of Service</Link> and the{" "}
        <Link className="underline" to="/privacy-policy">Privacy Policy</Link>.
      </p>
    </AuthCard>
  );
}
