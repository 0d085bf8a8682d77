import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FormErrors } from "~/components/forms";
import { cardClass, dangerButtonClass, inputClass, textLinkClass } from "~/components/styles";
import { handleDeleteAccount } from "~/intents/own-data.server";
import { getPasswordHash } from "~/models/own-data.server";
import { deleteAccountSchema } from "~/schemas/own-data";
import { requireUser } from "~/utils/auth.server";

// "Delete my account" (issue 16): closed at once, personal fields erased (see own-data.server.ts).

export const meta: MetaFunction = () => [{ title: "Delete my account | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return { hasPassword: (await getPasswordHash(context, user.id)) !== null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleDeleteAccount(request, context, user.id, await request.formData());
}

export default function DeleteAccountPage() {
  const { hasPassword } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "delete-account",
    lastResult,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: deleteAccountSchema }),
  });
  return (
    <div className="mx-auto max-w-xl space-y-6 px-4 py-6 md:px-0">
      <Link to="/dashboard/settings" className={textLinkClass}>
        Back to Settings
      </Link>
      <h1 className="text-2xl font-bold">Delete my account</h1>
      <section className={`${cardClass} space-y-3`}>
        <p>Your account is closed at once and cannot be recovered:</p>
        <ul className="list-disc space-y-1 pl-5 text-sm">
          <li>your name, e-mail, phone, photo, emergency contact, UPI ID and profile are erased;</li>
          <li>your upcoming rides and seats are cancelled and the people on them are told;</li>
          <li>messages you sent stay with the people you sent them to, shown as from &quot;Deleted user&quot;;</li>
          <li>settled payment records are kept, as the law requires, without your name.</li>
        </ul>
        <p className="text-sm">
          <Link to="/dashboard/my-data" reloadDocument className={textLinkClass}>
            Download my data
          </Link>{" "}
          first if you want a copy.
        </p>
        <Form method="post" {...getFormProps(form)} className="space-y-4">
          <FormErrors errors={form.errors} />
          {hasPassword ? (
            <Field label="Your password" type="password" field={fields.password} autoComplete="current-password" />
          ) : null}
          <div>
            <label htmlFor={fields.confirm.id} className="mb-1 block text-sm font-medium">
              Type DELETE to confirm
            </label>
            <input
              {...getInputProps(fields.confirm, { type: "text", ariaAttributes: true })}
              key={fields.confirm.key}
              autoComplete="off"
              className={inputClass}
            />
            {fields.confirm.errors ? (
              <p id={fields.confirm.errorId} role="alert" className="mt-1 text-sm text-red-700 dark:text-red-400">
                {fields.confirm.errors.join(" ")}
              </p>
            ) : null}
          </div>
          <button type="submit" className={dangerButtonClass}>
            Delete my account
          </button>
        </Form>
      </section>
    </div>
  );
}
