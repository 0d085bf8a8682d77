import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { cardClass, textLinkClass } from "~/components/styles";
import { formatDateTimeShort } from "~/domain/time";
import { listSink } from "~/models/outbox/transport.server";
import { requireDevMailbox } from "~/utils/dev-mailbox.server";

export const meta: MetaFunction = () => [
  { title: "Development mailbox | LoopRide" },
  { name: "robots", content: "noindex" },
];

export async function loader({ context }: LoaderFunctionArgs) {
  requireDevMailbox(context.env);
  return { messages: await listSink(context) };
}

export default function DevMailbox() {
  const { messages } = useLoaderData<typeof loader>();
  return (
    <main id="main" className="mx-auto max-w-3xl p-6">
      <h1 className="text-2xl font-bold">Development mailbox</h1>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Every e-mail LoopRide sent with MAIL_TRANSPORT=sink, newest first. Shown only with DEV_MAILBOX=1; never in
        production.
      </p>
      {messages.length === 0 ? <p className="mt-6">No e-mails yet.</p> : null}
      <ul className="mt-6 space-y-3">
        {messages.map((m) => (
          <li key={m.id} className={cardClass}>
            <Link className={textLinkClass} to={`/dev/mailbox/${m.id}`}>
              {m.subject}
            </Link>
            <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
              To {m.to} · {formatDateTimeShort(m.createdAt)} IST
            </p>
          </li>
        ))}
      </ul>
    </main>
  );
}
