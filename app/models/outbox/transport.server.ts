import { desc, eq } from "drizzle-orm";
import { mailSink } from "../../../db/schema";
import { newId } from "../../domain/ids";
import type { AppEnv } from "../../utils/env.server";
import type { ModelCtx } from "../context.server";
import type { Db } from "../db.server";
import { NotFoundError } from "../errors.server";

// Where a rendered e-mail goes (docs/decisions/0018-outbox-and-email.md).
// - "resend" (production): Resend's HTTP API, https://resend.com/docs/api-reference/emails/send-email,
//   with the outbox key as its Idempotency-Key, so a retry after a lost answer is one e-mail.
// - "sink" (npm start, tests, browser journeys): the message as the API would receive it,
//   stored in D1 (mail_sink) for the development mailbox. The same rendering and the same
//   outbox path run up to this point; only the network call differs.

export type OutgoingMail = {
  key: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
};

/** A failure worth retrying (network, 5xx, 429) or not (a refused address, a bad request). */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly permanent = false,
  ) {
    super(message);
  }
}

export type MailTransport = { name: string; send(mail: OutgoingMail): Promise<void> };

export const RESEND_ENDPOINT = "https://api.resend.com/emails";

export function resendTransport(env: AppEnv, fetcher: typeof fetch = fetch): MailTransport {
  return {
    name: "resend",
    async send(mail) {
      if (!env.RESEND_API_KEY || !env.MAIL_FROM)
        throw new TransportError("RESEND_API_KEY and MAIL_FROM must be set to send e-mail");
      let res: Response;
      try {
        res = await fetcher(RESEND_ENDPOINT, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${env.RESEND_API_KEY}`,
            "Content-Type": "application/json",
            "Idempotency-Key": mail.key.slice(0, 256),
          },
          body: JSON.stringify({
            from: env.MAIL_FROM,
            to: [mail.to],
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
            headers: mail.headers,
          }),
        });
      } catch (e) {
        throw new TransportError(`network: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (res.ok) return;
      const detail = (await res.text().catch(() => "")).slice(0, 300);
      throw new TransportError(
        `resend ${res.status}: ${detail}`,
        res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429,
      );
    },
  };
}

export function sinkTransport(db: Db): MailTransport {
  return { name: "sink", send: (mail) => storeInSink({ db }, mail) };
}

/** The transport this deployment uses: MAIL_TRANSPORT=sink locally, Resend otherwise. */
export function mailTransport(env: AppEnv, db: Db): MailTransport {
  return env.MAIL_TRANSPORT === "sink" ? sinkTransport(db) : resendTransport(env);
}

// ---------------------------------------------------------------- the local sink and its mailbox

/** Stores a rendered message; the same key twice stores it once (a redelivery is not a new e-mail). */
export async function storeInSink({ db }: ModelCtx, m: OutgoingMail, now = Date.now()) {
  await db
    .insert(mailSink)
    .values({
      id: newId(),
      idempotencyKey: m.key,
      toAddress: m.to,
      subject: m.subject,
      textBody: m.text,
      htmlBody: m.html,
      headers: m.headers,
      createdAt: now,
    })
    .onConflictDoNothing({ target: mailSink.idempotencyKey });
}

/** The development mailbox's list, newest first. Only reachable with DEV_MAILBOX=1 (routes check). */
export async function listSink({ db }: ModelCtx, limit = 100) {
  return db
    .select({ id: mailSink.id, to: mailSink.toAddress, subject: mailSink.subject, createdAt: mailSink.createdAt })
    .from(mailSink)
    .orderBy(desc(mailSink.createdAt))
    .limit(limit);
}

export async function getSinkMessage({ db }: ModelCtx, id: string) {
  const row = await db.select().from(mailSink).where(eq(mailSink.id, id)).get();
  if (!row) throw new NotFoundError("Message not found");
  return row;
}
