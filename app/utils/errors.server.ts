import { parseWithZod } from "@conform-to/zod";
import { data, type TypedResponse } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { NotFoundPage } from "../components/error-boundary";
import { COMMUNITY_NOT_FOUND } from "../models/community-rows.server";
import { ConflictError, isModelError, NotFoundError, type ModelError } from "../models/errors.server";
import { redirectWithToast, type Toast } from "./toast.server";

// The one path from a model error to a response (ADR 0013, 0042). Models throw
// ForbiddenError / NotFoundError / ConflictError; `answerError` looks them up in one table
// by the kind of page. Loaders wrap their reads in `orRespond`; actions go through the
// runner in app/intents/run.server.ts, which reads the intent with `parseIntent`.

/** The pages with their own not-found texts (the spec's); the shared error boundary renders them. */
export const NOT_FOUND = {
  ride: {
    title: "Ride Not Found",
    message: "This ride does not exist or has been removed.",
    back: { href: "/dashboard/my-rides", label: "Back to My Rides" },
  },
  completion: {
    title: "Ride Not Found",
    message: "This ride does not exist or has been removed.",
    back: { href: "/dashboard/rides", label: "Back to Rides" },
  },
  booking: {
    title: "Booking not found",
    message: "This booking does not exist, or it is not yours to see.",
    back: { href: "/rides", label: "Back to Rides" },
  },
  statement: {
    title: "Statement not found",
    message: "This week's statement does not exist, or it is not yours to see.",
    back: { href: "/dashboard/settle-up", label: "Back to Settle-up" },
  },
  community: {
    title: COMMUNITY_NOT_FOUND,
    message: "This community may have been removed, or the link is wrong.",
    back: { href: "/communities", label: "Back to Communities" },
  },
} satisfies Record<string, NotFoundPage>;

/** What a NotFoundError becomes: a page's own 404 texts, or a response (e.g. a redirect with a toast). */
export type NotFoundAnswer = NotFoundPage | (() => Promise<Redirect>);
type Redirect = TypedResponse<never>;

/** The errors a form shows: one line above it, and messages by field. */
export type FormErrors = { formErrors?: string[]; fieldErrors?: Record<string, string[]> };

/**
 * The kinds of page an error is answered on. `page`: a loader (the shared error boundary
 * renders a thrown response). `toast`: a form post answered by a redirect and a toast.
 * `form`: a form that shows its own errors (`reply` shapes them; a conform reply by
 * default). `text`: a resource route (plain text and a status).
 */
export type Page =
  | { kind: "page"; notFound?: NotFoundAnswer }
  | {
      kind: "toast";
      request: Request;
      env: Env;
      /** Where the error toast redirects (usually the page the form was on). */
      to: string;
      /** The toast's title for a refusal that has none of its own; "Error" by default. */
      title?: string;
      /** A list page acting on an object named in the form (not the URL): every model error is a toast. */
      toastAll?: boolean;
      notFound?: NotFoundAnswer;
      /** The spec's toast for an unexpected failure (logged); without it the failure is a 500. */
      unexpected?: Toast;
    }
  | {
      kind: "form";
      reply: (errors: FormErrors) => unknown;
      /** The status of a refusal (the error's own by default). */
      status?: number;
      notFound?: () => Promise<Redirect>;
      /** The spec's message for a failure that is not a refusal (logged; a 500). */
      unexpected?: string;
    }
  | {
      kind: "text";
      /** The body of a 404 when the route names its own (the model's message otherwise). */
      notFound?: string;
      headers?: Record<string, string>;
    };

/** A thrown 4xx carrying the model's message (the error boundary, or a resource route, shows it). */
const refused = (e: ModelError) => data(e.message, { status: e.status });

/** A resource route: a real Response, so the status survives (Remix v2 without single fetch). */
function plainText(page: Extract<Page, { kind: "text" }>, message: string, status: number) {
  const headers = { "Content-Type": "text/plain; charset=utf-8", ...page.headers };
  return new Response(message, { status, headers });
}

async function notFoundAnswer(answer: NotFoundAnswer) {
  return typeof answer === "function" ? answer() : data(answer, { status: 404 });
}

function formAnswer(page: Extract<Page, { kind: "form" }>, e: ModelError) {
  const errors: FormErrors = e.field
    ? { ...(e.title ? { formErrors: [e.title] } : {}), fieldErrors: { [e.field]: [e.message] } }
    : { formErrors: [e.message] };
  const reply = page.reply(errors);
  // The page the message is about rides along with the reply (conform's keeps only its own keys).
  const withLink = e.link && reply && typeof reply === "object" ? { ...reply, link: e.link } : reply;
  return data(withLink, { status: page.status ?? e.status });
}

async function toastAnswer(page: Extract<Page, { kind: "toast" }>, e: ModelError) {
  const toast = { title: e.title ?? page.title ?? "Error", description: e.message, type: "error" as const };
  return redirectWithToast(page.request, page.env, page.to, toast);
}

/**
 * THE table (ADR 0013, 0042): what each model error becomes on each kind of page. `return`
 * answers the post; `throw` ends the request with that response (the error boundary).
 */
const TABLE = {
  page: {
    notFound: (p, e) => ({ throw: p.notFound ? notFoundAnswer(p.notFound) : refused(e) }),
    forbidden: (_, e) => ({ throw: refused(e) }),
    conflict: (_, e) => ({ throw: refused(e) }),
  },
  toast: {
    notFound: (p, e) =>
      p.toastAll ? { return: toastAnswer(p, e) } : { throw: p.notFound ? notFoundAnswer(p.notFound) : refused(e) },
    forbidden: (p, e) => (p.toastAll ? { return: toastAnswer(p, e) } : { throw: refused(e) }),
    conflict: (p, e) => ({ return: toastAnswer(p, e) }),
  },
  form: {
    notFound: (p, e) => ({ return: p.notFound ? p.notFound() : formAnswer(p, e) }),
    forbidden: (p, e) => ({ return: formAnswer(p, e) }),
    conflict: (p, e) => ({ return: formAnswer(p, e) }),
  },
  text: {
    notFound: (p, e) => ({ throw: plainText(p, p.notFound ?? e.message, e.status) }),
    forbidden: (p, e) => ({ throw: plainText(p, e.message, e.status) }),
    conflict: (p, e) => ({ throw: plainText(p, e.message, e.status) }),
  },
} satisfies {
  [K in Page["kind"]]: Record<ErrorKind, (page: Extract<Page, { kind: K }>, e: ModelError) => Answer>;
};

type ErrorKind = "notFound" | "forbidden" | "conflict";
type Answer = { return: unknown } | { throw: unknown };

const kindOf = (e: ModelError): ErrorKind =>
  e instanceof NotFoundError ? "notFound" : e instanceof ConflictError ? "conflict" : "forbidden";

/**
 * The one path from a failure to a response. A model error is looked up in the table; any
 * other Error is the page's `unexpected` answer (logged) if it has one, else rethrown (a
 * 500). A thrown Response (a redirect) passes through untouched.
 */
export async function answerError(e: unknown, page: Page): Promise<unknown> {
  if (!isModelError(e)) {
    if (e instanceof Error && page.kind === "toast" && page.unexpected) {
      console.error(e);
      return redirectWithToast(page.request, page.env, page.to, { ...page.unexpected, type: "error" });
    }
    if (e instanceof Error && page.kind === "form" && page.unexpected) {
      console.error(e);
      return data(page.reply({ formErrors: [page.unexpected] }), { status: 500 });
    }
    throw e;
  }
  const row = TABLE[page.kind] as Record<ErrorKind, (p: Page, e: ModelError) => Answer>;
  const answer = row[kindOf(e)](page, e);
  if ("throw" in answer) throw await answer.throw;
  return answer.return;
}

/**
 * Loaders: runs a model read. A model error is thrown as a 403 / 404 / 409 response carrying
 * its message (or, for a NotFoundError, the page's own not-found texts), which the shared
 * error boundary renders.
 */
export async function orRespond<T>(work: Promise<T>, notFound?: NotFoundAnswer): Promise<T> {
  try {
    return await work;
  } catch (e) {
    // On a loader's page every answer is thrown.
    return (await answerError(e, { kind: "page", notFound })) as never;
  }
}

/** Resource routes (an .ics file): a model error is a plain-text response with its status. */
export async function orText<T>(
  work: Promise<T>,
  page: Omit<Extract<Page, { kind: "text" }>, "kind"> = {},
): Promise<T> {
  try {
    return await work;
  } catch (e) {
    return (await answerError(e, { kind: "text", ...page })) as never;
  }
}

export type IntentSchema = z.ZodDiscriminatedUnion<"intent", z.ZodDiscriminatedUnionOption<"intent">[]>;

/**
 * Multi-intent actions: the form's `intent` must be one of the schema's (and, if given, one
 * of `allowed`), else a thrown 400 "Unknown action" (nothing runs). Returns the intent and
 * the conform submission of the whole form against that intent's branch.
 */
export function parseIntent<S extends IntentSchema>(
  formData: FormData,
  schema: S,
  allowed?: readonly z.output<S>["intent"][],
) {
  const intent = formData.get("intent");
  if (typeof intent !== "string" || !schema.optionsMap.has(intent) || (allowed && !allowed.includes(intent))) {
    throw data("Unknown action", { status: 400 });
  }
  return { intent: intent as z.output<S>["intent"], submission: parseWithZod(formData, { schema }) };
}
