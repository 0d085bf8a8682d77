import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { AuthCard } from "~/components/auth";
import { LinkProblem } from "~/components/mail-link";
import { buttonClass, textLinkClass } from "~/components/styles";
import { turnOffEmailNotifications } from "~/models/outbox/queue.server";
import { UNSUBSCRIBE_INVALID } from "~/schemas/account-recovery";
import { readMailToken } from "~/models/outbox/tokens.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Unsubscribe | LoopRide" }];

// The link at the foot of every notification e-mail. Opening it shows one button (a GET
// changes nothing); mail apps use the same URL for RFC 8058 one-click unsubscribe
// (List-Unsubscribe-Post: a POST with List-Unsubscribe=One-Click, answered 200).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const claims = await readMailToken(context.env, token, "unsubscribe");
  return { token, valid: !!claims, done: url.searchParams.get("done") === "1" };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const form = await request.formData();
  const token = url.searchParams.get("token") || String(form.get("token") ?? "");
  const claims = await readMailToken(context.env, token, "unsubscribe");
  if (!claims) return data({ error: UNSUBSCRIBE_INVALID }, { status: 400 });
  // The signed token names the person; only their own setting changes.
  await turnOffEmailNotifications(context, claims.u);
  if (form.get("List-Unsubscribe") === "One-Click")
    return new Response("Unsubscribed", { status: 200, headers: { "Content-Type": "text/plain" } });
  return redirectWithToast(request, context.env, `/unsubscribe?token=${encodeURIComponent(token)}&done=1`, {
    title: "E-mail notifications turned off",
    description: "You will get no more ride e-mails. Account e-mails (password resets) still reach you.",
    type: "success",
  });
}

export default function Unsubscribe() {
  const { token, valid, done } = useLoaderData<typeof loader>();
  if (!valid) {
    return (
      <AuthCard title="Unsubscribe">
        <LinkProblem>{UNSUBSCRIBE_INVALID}</LinkProblem>
      </AuthCard>
    );
  }
  if (done) {
    return (
      <AuthCard title="You are unsubscribed" subtitle="LoopRide will send you no more notification e-mails.">
        <p className="text-center text-sm">
          Changed your mind? Turn them on again in{" "}
          <Link className={textLinkClass} to="/dashboard/settings">
            Settings
          </Link>
          .
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard
      title="Stop notification e-mails?"
      subtitle="Ride requests, decisions, cancellations and reminders will no longer be e-mailed to you."
    >
      <Form method="post" className="space-y-4">
        <input type="hidden" name="token" value={token} />
        <button type="submit" className={`${buttonClass} w-full`}>
          Turn off e-mail notifications
        </button>
      </Form>
    </AuthCard>
  );
}
