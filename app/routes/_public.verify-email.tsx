import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth";
import { LinkProblem } from "~/components/mail-link";
import { buttonClass, textLinkClass } from "~/components/styles";
import { handleVerifyEmail } from "~/intents/account-recovery.server";
import { VERIFY_LINK_INVALID } from "~/schemas/account-recovery";
import { readMailToken } from "~/models/outbox/tokens.server";

export const meta: MetaFunction = () => [{ title: "Confirm your e-mail | LoopRide" }];

// The link in the verification e-mail opens this page; the button POSTs (a GET never
// changes anything, and mail scanners that open links confirm nothing).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const claims = await readMailToken(context.env, token, "verify-email");
  return { token, email: claims?.e ?? null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return handleVerifyEmail(request, context, await request.formData());
}

export default function VerifyEmail() {
  const { token, email } = useLoaderData<typeof loader>();
  if (!email) {
    return (
      <AuthCard title="Confirm your e-mail">
        <LinkProblem>{VERIFY_LINK_INVALID}</LinkProblem>
        <p className="mt-6 text-center text-sm">
          <Link className={textLinkClass} to="/login">
            Sign in
          </Link>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Confirm your e-mail" subtitle={`Is ${email} your e-mail address?`}>
      <Form method="post" className="space-y-4">
        <input type="hidden" name="token" value={token} />
        <button type="submit" className={`${buttonClass} w-full`}>
          Yes, confirm my e-mail
        </button>
      </Form>
    </AuthCard>
  );
}
