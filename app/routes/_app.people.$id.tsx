import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { PersonSafety } from "~/components/safety";
import { textLinkClass } from "~/components/styles";
import { blockUser, getPersonForSafety, reportUser, unblockUser } from "~/models/safety.server";
import { REPORT_CONTEXTS, safetyActionSchema } from "~/schemas/safety";
import { requireUser, safeRedirect } from "~/utils/auth.server";
import { orRespond, orToast, parseIntent } from "~/utils/errors.server";
import { publishChange } from "~/utils/fanout.server";
import { redirectWithToast } from "~/utils/toast.server";

// Report or block one person (issue 16), reached from a ride, a chat or a profile.

export const meta: MetaFunction = () => [{ title: "Report or block | LoopRide" }, { name: "robots", content: "noindex" }];

const fromOf = (request: Request) => {
  const from = new URL(request.url).searchParams.get("from");
  return (REPORT_CONTEXTS as readonly string[]).includes(from ?? "") ? (from as (typeof REPORT_CONTEXTS)[number]) : "profile";
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const person = await orRespond(getPersonForSafety(context, user.id, params.id ?? ""));
  return { person, from: fromOf(request) };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const personId = params.id ?? "";
  const { submission } = parseIntent(await request.formData(), safetyActionSchema);
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  const input = submission.value;
  // The id comes from the URL, decoded: encode it again for the Location header.
  const here = `/people/${encodeURIComponent(personId)}`;
  return orToast(request, context.env, { to: here, title: "Nothing changed" }, async () => {
    switch (input.intent) {
      case "report": {
        const r = await reportUser(context, user.id, personId, input);
        publishChange(context, r.audience);
        return redirectWithToast(request, context.env, here, { title: "Report sent", description: "The admins of the communities you share will review it." });
      }
      case "block": {
        const r = await blockUser(context, user.id, personId);
        publishChange(context, r.audience);
        return redirectWithToast(request, context.env, safeRedirect(input.redirectTo, here), { title: "Blocked", description: "You will no longer see each other's rides or messages." });
      }
      case "unblock": {
        await unblockUser(context, user.id, personId);
        return redirectWithToast(request, context.env, safeRedirect(input.redirectTo, here), { title: "Unblocked" });
      }
    }
  });
}

export default function PersonPage() {
  const { person, from } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-xl space-y-6 px-4 py-6 md:px-0">
      <Link to="/dashboard" className={textLinkClass}>
        Back to Dashboard
      </Link>
      <h1 className="text-2xl font-bold">{person.fullName ?? "Unknown User"}</h1>
      <PersonSafety person={person} from={from} lastResult={lastResult} />
    </div>
  );
}
