import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { cardClass, textLinkClass } from "~/components/styles";
import { formatDateTimeShort } from "~/domain/time";
import { getSinkMessage } from "~/models/outbox/transport.server";
import { orRespond } from "~/utils/errors.server";
import { requireDevMailbox } from "~/utils/dev-mailbox.server";

export const meta: MetaFunction = () => [
  { title: "E-mail | Development mailbox" },
  { name: "robots", content: "noindex" },
];

export async function loader({ params, context }: LoaderFunctionArgs) {
  requireDevMailbox(context.env);
  const m = await orRespond(getSinkMessage(context, params.id ?? ""));
  return {
    id: m.id,
    to: m.toAddress,
    subject: m.subject,
    text: m.textBody,
    headers: m.headers,
    createdAt: m.createdAt,
  };
}

/** The text part with its links clickable (as a mail app shows it); everything else is text. */
function Linked({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s<>"]+)/g);
  return (
    <>
      {parts.map((p, i) =>
        i % 2 === 1 ? (
          <a key={i} href={p} className="break-all text-emerald-800 underline dark:text-emerald-300">
            {p}
          </a>
        ) : (
          <Fragment key={i}>{p}</Fragment>
        ),
      )}
    </>
  );
}

export default function DevMailboxMessage() {
  const m = useLoaderData<typeof loader>();
  return (
    <main id="main" className="mx-auto max-w-3xl p-6">
      <p>
        <Link className={textLinkClass} to="/dev/mailbox">
          All e-mails
        </Link>
      </p>
      <h1 className="mt-4 text-2xl font-bold">{m.subject}</h1>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        To {m.to} · {formatDateTimeShort(m.createdAt)} IST
      </p>
      <section className={`${cardClass} mt-4`} aria-label="Text part">
        <pre className="whitespace-pre-wrap font-sans text-sm">
          <Linked text={m.text} />
        </pre>
      </section>
      <p className="mt-4">
        <a className={textLinkClass} href={`/dev/mailbox/${m.id}/html`}>
          View the HTML part
        </a>
      </p>
      <section className="mt-4" aria-label="Headers">
        <h2 className="font-semibold">Headers</h2>
        <dl className="mt-2 text-xs">
          {Object.entries(m.headers).map(([k, v]) => (
            <div key={k} className="flex gap-2">
              <dt className="font-medium">{k}:</dt>
              <dd className="break-all">{v}</dd>
            </div>
          ))}
        </dl>
      </section>
    </main>
  );
}
