import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { PersonSafety } from "~/components/safety";
import { textLinkClass } from "~/components/styles";
import { handleSafetyIntent } from "~/intents/safety.server";
import { getPersonForSafety } from "~/models/safety.server";
import { REPORT_CONTEXTS } from "~/schemas/safety";
import { requireUser } from "~/utils/auth.server";
import { orRespond } from "~/utils/errors.server";

// Report or block one person (issue 16), reached from a ride, a chat or a profile.

export const meta: MetaFunction = () => [
  { title: "Report or block | LoopRide" },
  { name: "robots", content: "noindex" },
];

const fromOf = (request: Request) => {
  const from = new URL(request.url).searchParams.get("from");
  return (REPORT_CONTEXTS as readonly string[]).includes(from ?? "")
    ? (from as (typeof REPORT_CONTEXTS)[number])
    : "profile";
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const person = await orRespond(getPersonForSafety(context, user.id, params.id ?? ""));
  return { person, from: fromOf(request) };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleSafetyIntent(request, context, user.id, params.id ?? "", await request.formData());
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
