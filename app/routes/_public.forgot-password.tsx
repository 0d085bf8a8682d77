import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { handleForgotPassword } from "~/intents/public-forms.server";
import { AuthCard } from "~/components/auth";
import { Field, FormErrors, buttonClass } from "~/components/forms";
import { HoneypotField } from "~/components/honeypot";
import { textLinkClass } from "~/components/styles";
import { forgotPasswordSchema } from "~/schemas/account-recovery";
import { guardPublicForm } from "~/utils/public-form.server";
import { redirectSignedIn } from "~/utils/sign-in.server";

export const meta: MetaFunction = () => [{ title: "Forgot password | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await redirectSignedIn(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const { isBot } = await guardPublicForm(request, context, formData, "forgot-password");
  return handleForgotPassword(request, context, formData, isBot);
}

export default function ForgotPassword() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "forgot-password",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: forgotPasswordSchema }),
  });
  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter the e-mail address of your account and we will send you a link to choose a new one."
    >
      <Form method="post" {...getFormProps(form)} className="relative space-y-4">
        <HoneypotField />
        <FormErrors errors={form.errors} />
        <Field label="E-mail address" field={fields.email} type="email" autoComplete="email" />
        <button type="submit" className={`${buttonClass} w-full`} disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Sending..." : "Send reset link"}
        </button>
      </Form>
      <p className="mt-6 text-center text-sm">
        Signed up with a mobile number only? Please contact{" "}
        <Link className={textLinkClass} to="/support">
          Support
        </Link>
        .
      </p>
      <p className="mt-2 text-center text-sm">
        <Link className={textLinkClass} to="/login">
          Back to sign in
        </Link>
      </p>
    </AuthCard>
  );
}
