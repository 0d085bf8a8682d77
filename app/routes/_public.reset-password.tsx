import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthCard } from "~/components/auth";
import { Field, FormErrors, buttonClass } from "~/components/forms";
import { textLinkClass } from "~/components/styles";
import { handleResetPassword } from "~/intents/account-recovery.server";
import { resetTokenUsable } from "~/models/password-resets.server";
import { RESET_LINK_INVALID, resetPasswordSchema } from "~/schemas/account-recovery";
import { guardPublicForm } from "~/utils/public-form.server";

export const meta: MetaFunction = () => [{ title: "Choose a new password | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, usable: await resetTokenUsable(context, token) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  await guardPublicForm(request, context, formData, "reset-password");
  return handleResetPassword(request, context, formData);
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
          <Link className={textLinkClass} to="/forgot-password">
            Ask for a new link
          </Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Choose a new password"
      subtitle="After this, every other device signed in to your account is signed out."
    >
      <Form method="post" {...getFormProps(form)} className="space-y-4">
        <input type="hidden" name="token" value={token} />
        <FormErrors errors={form.errors} />
        <Field
          label="New password"
          field={fields.password}
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters."
        />
        <Field label="New password again" field={fields.confirmPassword} type="password" autoComplete="new-password" />
        <button type="submit" className={`${buttonClass} w-full`} disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Saving..." : "Save new password"}
        </button>
      </Form>
      {form.errors?.includes(RESET_LINK_INVALID) ? (
        <p className="mt-6 text-center text-sm">
          <Link className={textLinkClass} to="/forgot-password">
            Ask for a new link
          </Link>
        </p>
      ) : null}
    </AuthCard>
  );
}
