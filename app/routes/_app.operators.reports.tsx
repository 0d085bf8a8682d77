import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import {
  cardClass,
  dangerButtonClass,
  secondaryButtonClass,
  smallButtonClass,
  textLinkClass,
} from "~/components/styles";
import { formatDateTimeShort } from "~/domain/time";
import { handleOperatorIntent } from "~/intents/operators.server";
import { listOperatorQueue } from "~/models/operator-reports.server";
import { requireUser } from "~/utils/auth.server";
import { orRespond } from "~/utils/errors.server";

// LoopRide's operators' queue (issue 37, item 7): reports no community admin can read, and
// the urgent ones. Operators only (OPERATOR_EMAILS); anyone else gets a 404.

export const meta: MetaFunction = () => [
  { title: "Operators' queue | LoopRide" },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return orRespond(listOperatorQueue(context, user.id));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleOperatorIntent(request, context, user.id, await request.formData());
}

const ACTIONS = [
  { intent: "warn", label: "Warn", className: secondaryButtonClass },
  { intent: "suspend", label: "Suspend account", className: dangerButtonClass },
  { intent: "close", label: "Close", className: smallButtonClass },
] as const;

export default function OperatorQueuePage() {
  const { reports, suspended } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <h1 className="text-2xl font-bold">Operators' queue</h1>
      <p className="text-slate-700 dark:text-slate-300">
        Reports about people who share no community with an admin, and every report of harassment, threats or unsafe
        driving. Oldest first.
      </p>
      {reports.length === 0 ? (
        <p className="text-slate-700 dark:text-slate-300">No open reports.</p>
      ) : (
        <ul className="space-y-4">
          {reports.map((r) => (
            <li key={r.id} className={`${cardClass} space-y-2`} data-testid="operator-report">
              <p className="font-semibold">
                <Link to={`/people/${r.reporterId}`} className={textLinkClass}>
                  {r.reporterName ?? "A member"}
                </Link>
                {" reported "}
                <Link to={`/people/${r.reportedId}`} className={textLinkClass}>
                  {r.reportedName ?? "a member"}
                </Link>
              </p>
              <p className="text-sm text-slate-700 dark:text-slate-300">
                {`${r.reasonLabel} · from a ${r.context} · ${formatDateTimeShort(r.createdAt)}`}
              </p>
              <p className="text-sm">{r.shared ? `Communities they share: ${r.shared}` : "They share no community."}</p>
              {r.reportedSuspendedAt ? (
                <p className="text-sm font-medium">{`Suspended since ${formatDateTimeShort(r.reportedSuspendedAt)}.`}</p>
              ) : null}
              {r.details ? <p className="whitespace-pre-line">{r.details}</p> : null}
              <div className="flex flex-wrap gap-2">
                {ACTIONS.map((a) => (
                  <Form method="post" key={a.intent}>
                    <input type="hidden" name="reportId" value={r.id} />
                    <button type="submit" name="intent" value={a.intent} className={a.className}>
                      {a.label}
                    </button>
                  </Form>
                ))}
              </div>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="suspended-heading" className="space-y-3">
        <h2 id="suspended-heading" className="text-xl font-bold">
          Suspended accounts
        </h2>
        {suspended.length === 0 ? (
          <p className="text-slate-700 dark:text-slate-300">No account is suspended.</p>
        ) : (
          <ul className="space-y-3">
            {suspended.map((u) => (
              <li
                key={u.id}
                className={`${cardClass} flex flex-wrap items-center justify-between gap-3`}
                data-testid="suspended-account"
              >
                <div>
                  <Link to={`/people/${u.id}`} className={`${textLinkClass} font-semibold`}>
                    {u.name ?? "A member"}
                  </Link>
                  <p className="text-sm text-slate-700 dark:text-slate-300">
                    {`Suspended since ${formatDateTimeShort(u.suspendedAt)}${u.by ? ` by ${u.by}` : ""}.`}
                  </p>
                </div>
                <Form method="post">
                  <input type="hidden" name="userId" value={u.id} />
                  <button type="submit" name="intent" value="lift" className={secondaryButtonClass}>
                    Lift suspension
                  </button>
                </Form>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
