import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth";
import { LinkProblem } from "~/components/mail-link";
import { buttonClass, textLinkClass } from "~/components/styles";
import { isModelError } from "~/models/errors.server";
import { verifyEmail } from "~/models/password-resets.server";
import { completeReferral } from "~/models/referrals.server";
import { mailTokenSchema, VERIFY_LINK_INVALID } from "~/schemas/account-recovery";
import { getUser } from "~/utils/auth.server";
import { readMailToken } from "~/utils/mail/tokens.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Confirm your e-mail | LoopRide" }];

// The link in the verification e-mail opens this page; the button POSTs (a GET never
// changes anything, and mail scanners that open links confirm nothing).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const claims = await readMailToken(context.env, token, "verify-email");
  return { token, email: claims?.e ?? null };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const parsed = mailTokenSchema.safeParse(Object.fromEntries(await request.formData()));
  const claims = parsed.success ? await readMailToken(context.env, parsed.data.token, "verify-email") : null;
  if (!claims?.e) return data({ error: VERIFY_LINK_INVALID }, { status: 400 });
  try {
    const { onboarded } = await verifyEmail(context, claims.u, claims.e);
    // A referral waits for a verified address (ADR 0003); onboarding credits it otherwise.
    if (onboarded) await completeReferral(context, claims.u);
  } catch (e) {
    if (isModelError(e)) return data({ error: e.message }, { status: 400 });
    throw e;
  }
  const signedIn = await getUser(request, context);
  return redirectWithToast(request, context.env, signedIn ? "/dashboard/profile" : "/login", {
    title: "E-mail confirmed",
    description: "Thank you. Ride updates can now reach you by e-mail.",
    type: "success",
  });
}

export default function VerifyEmail() {
  const { token, email } = useLoaderData<typeof loader>();
  if (!email) {
    return (
      <AuthCard title="Confirm your e-mail">
        <LinkProblem>{VERIFY_LINK_INVALID}</LinkProblem>
        <p className="mt-6 text-center text-sm"><Link className={textLinkClass} to="/login">Sign in</Link></p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Confirm your e-mail" subtitle={`Is ${email} your e-mail address?`}>
      <Form method="post" className="space-y-4">
        <input type="hidden" name="token" value={token} />
        <button type="submit" className={`${buttonClass} w-full`}>Yes, confirm my e-mail</button>
      </Form>
    </AuthCard>
  );
}
