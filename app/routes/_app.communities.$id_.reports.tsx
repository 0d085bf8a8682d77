import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { cardClass, textLinkClass } from "~/components/styles";
import { formatDateTimeShort } from "~/domain/time";
import { listCommunityReports } from "~/models/safety.server";
import { requireUser } from "~/utils/auth.server";
import { orRespond } from "~/utils/errors.server";

// A community's reports (issue 16): what its members reported about each other, for its admins.

export const meta: MetaFunction = () => [{ title: "Reports | LoopRide" }, { name: "robots", content: "noindex" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return await orRespond(listCommunityReports(context, user.id, params.id ?? ""));
}

export default function CommunityReportsPage() {
  const { community, reports } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl space-y-6 px-4 py-6 md:px-0">
      <Link to={`/communities/${community.id}`} className={textLinkClass}>
        Back to {community.name}
      </Link>
      <h1 className="text-2xl font-bold">Reports in {community.name}</h1>
      {reports.length === 0 ? (
        <p className="text-slate-700 dark:text-slate-300">No member of this community has reported another.</p>
      ) : (
        <ul className="space-y-4">
          {reports.map((r) => (
            <li key={r.id} className={cardClass} data-testid="report">
              <p className="font-semibold">
                {`${r.reporterName ?? "A member"} reported ${r.reportedName ?? "a member"}`}
              </p>
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {`${r.reasonLabel} · from a ${r.context} · ${formatDateTimeShort(r.createdAt)}`}
              </p>
              {r.details ? <p className="mt-2 whitespace-pre-line">{r.details}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
