import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthCard, GoogleButton } from "~/components/auth";
import { Field, FormErrors, buttonClass } from "~/components/forms";
import { HoneypotField } from "~/components/honeypot";
import { CREDENTIALS_INVALID, loginSchema, parseIdentifier, PROVE_PASSWORD_MESSAGE } from "~/schemas/auth";
import { recordSignInFailure, redirectSignedIn, signInAndRedirect, signInGate } from "~/utils/sign-in.server";
import {
  AuthorizationError,
  getAuthenticator,
  googleConfigured,
  googleLinkCookie,
  readPendingGoogleLink,
} from "~/utils/authenticator.server";
import { linkGoogleAfterPasswordSignIn } from "~/models/accounts.server";
import { guardPublicForm, RATE_LIMIT_MESSAGE } from "~/utils/public-form.server";

export const meta: MetaFunction = () => [{ title: "Sign in | LoopRide" }];

// Only the callback's own messages are shown; anything else in ?error= is ignored.
const CALLBACK_ERRORS = new Set(["Unable to authenticate", "No user session found", PROVE_PASSWORD_MESSAGE]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectSignedIn(request, context);
  const url = new URL(request.url);
  const error = url.searchParams.get("error");
  return {
    googleEnabled: googleConfigured(context.env),
    redirectTo: url.searchParams.get("redirectTo") ?? "",
    error: error && CALLBACK_ERRORS.has(error) ? error : null,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.clone().formData();
  const { isBot } = await guardPublicForm(request, context, formData, "signin");
  const submission = parseWithZod(formData, { schema: loginSchema });
  if (submission.status !== "success" || isBot) {
    return data(
      submission.reply({ hideFields: ["password"], ...(isBot ? { formErrors: [CREDENTIALS_INVALID] } : {}) }),
      { status: 400 },
    );
  }
  // Per-account limit too (see sign-in.server.ts), on the identifier as the lookup reads it.
  const identifier = parseIdentifier(submission.value.identifier)!;
  const gate = await signInGate(request, context, identifier);
  if (gate.accountLocked && gate.addressFailedBefore) throw data(RATE_LIMIT_MESSAGE, { status: 429 });
  try {
    const result = await getAuthenticator(request, context).authenticator.authenticate("form", request, {
      throwOnError: true,
    });
    if (result.via !== "password") throw new AuthorizationError(CREDENTIALS_INVALID);
    // A Google identity that waited for this account's password (auth.callback.tsx) is
    // linked now, and the e-mail counts as verified.
    const pending = await readPendingGoogleLink(request, context.env);
    const link = googleLinkCookie(request, context.env);
    const linked = pending ? await linkGoogleAfterPasswordSignIn(context, result.userId, pending) : false;
    return signInAndRedirect(request, context, result.userId, submission.value.redirectTo, {
      setCookies: link.present(request) ? [await link.clear()] : [],
      toast: linked
        ? { title: "Google sign-in linked", description: "You can now sign in with Google too.", type: "success" }
        : undefined,
    });
  } catch (e) {
    if (e instanceof AuthorizationError) {
      const { accountLocked } = await recordSignInFailure(request, context, identifier);
      if (accountLocked) throw data(RATE_LIMIT_MESSAGE, { status: 429 });
      return data(submission.reply({ hideFields: ["password"], formErrors: [CREDENTIALS_INVALID] }), { status: 400 });
    }
    throw e;
  }
}

export default function Login() {
  const { googleEnabled, redirectTo, error } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });
  return (
    <AuthCard title="Welcome back" subtitle="Sign in to find and share rides in your communities.">
      {error ? <FormErrors errors={[error]} /> : null}
      <GoogleButton enabled={googleEnabled} label="Sign in with Google" redirectTo={redirectTo} />
      <div className="my-4 flex items-center gap-3 text-sm text-slate-600 dark:text-slate-400">
        <span className="h-px flex-1 bg-slate-300 dark:bg-slate-700" /> or{" "}
        <span className="h-px flex-1 bg-slate-300 dark:bg-slate-700" />
      </div>
      <Form method="post" {...getFormProps(form)} className="relative space-y-4">
        <HoneypotField />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <FormErrors errors={form.errors} />
        <Field label="E-mail or mobile number" field={fields.identifier} autoComplete="username" />
        <Field
          label="Password"
          field={fields.password}
          type="password"
          autoComplete="current-password"
          clearOn={lastResult}
        />
        <p className="text-right text-sm">
          <Link className="font-medium text-emerald-800 underline dark:text-emerald-300" to="/forgot-password">
            Forgot password?
          </Link>
        </p>
        <button type="submit" className={`${buttonClass} w-full`} disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Signing in..." : "Sign in"}
        </button>
      </Form>
      <p className="mt-6 text-center text-sm">
        New to LoopRide?{" "}
        <Link className="font-medium text-emerald-800 underline dark:text-emerald-300" to="/signup">
          Create an account
        </Link>
      </p>
      <p className="mt-2 text-center text-xs text-slate-600 dark:text-slate-400">
        Need help?{" "}
        <Link className="underline" to="/support">
          Support
        </Link>{" "}
        ·{" "}
        <Link className="underline" to="/terms-of-service">
          Terms of Service
        </Link>{" "}
        ·{" "}
        <Link className="underline" to="/privacy-policy">
          Privacy Policy
        </Link>
      </p>
    </AuthCard>
  );
}
