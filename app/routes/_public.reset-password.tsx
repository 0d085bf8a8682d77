import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthCard } from "~/components/auth";
import { Field, FormErrors, buttonClass } from "~/components/forms";
import { textLinkClass } from "~/components/styles";
import { revokeAllAccess } from "~/models/access.server";
import { isModelError } from "~/models/errors.server";
import { resetPassword, resetTokenUsable } from "~/models/password-resets.server";
import { RESET_LINK_INVALID, resetPasswordSchema } from "~/schemas/account-recovery";
import { requireSecret } from "~/utils/env.server";
import { hashPassword } from "~/utils/password.server";
import { guardPublicForm } from "~/utils/public-form.server";
import { signInAndRedirect } from "~/utils/sign-in.server";

export const meta: MetaFunction = () => [{ title: "Choose a new password | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, usable: await resetTokenUsable(context, token) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  await guardPublicForm(request, context, formData, "reset-password");
  const submission = parseWithZod(formData, { schema: resetPasswordSchema });
  if (submission.status !== "success") return data(submission.reply({ hideFields: ["password", "confirmPassword"] }), { status: 400 });
  const { token, password } = submission.value;
  try {
    const passwordHash = await hashPassword(password, requireSecret(context.env, "PASSWORD_PEPPER"));
    const { userId } = await resetPassword(context, token, passwordHash);
    // The reset's batch revoked sessions, feed and push subscriptions: close the sockets too
    // (and whatever a request in flight made meanwhile), then sign in afresh here.
    await revokeAllAccess(context, userId);
    return signInAndRedirect(request, context, userId, "/dashboard", {
      toast: { title: "Password changed", description: "You are signed in with your new password. Every other session was signed out.", type: "success" },
    });
  } catch (e) {
    if (isModelError(e)) return data(submission.reply({ hideFields: ["password", "confirmPassword"], formErrors: [e.message] }), { status: 400 });
    throw e;
  }
}

export default function ResetPassword() {
  const { token, usable } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "reset-password",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetPasswordSchema }),
  });
  if (!usable && !lastResult) {
    return (
      <AuthCard title="This link has expired">
        <FormErrors errors={[RESET_LINK_INVALID]} />
        <p className="mt-6 text-center text-sm">
          <Link className={textLinkClass} to="/forgot-password">Ask for a new link</Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" subtitle="After this, every other device signed in to your account is signed out.">
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="token" value={token} />
        <FormErrors errors={form.errors} />
        <Field label="New password" field={fields.password} type="password" autoComplete="new-password" hint="At least 8 characters." />
        <Field label="New password again" field={fields.confirmPassword} type="password" autoComplete="new-password" />
        <button type="submit" className={`${buttonClass} w-full`} disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Saving..." : "Save new password"}
        </button>
      </Form>
      {form.errors?.includes(RESET_LINK_INVALID) ? (
        <p className="mt-6 text-center text-sm">
          <Link className={textLinkClass} to="/forgot-password">Ask for a new link</Link>
        </p>
      ) : null}
    </AuthCard>
  );
}
