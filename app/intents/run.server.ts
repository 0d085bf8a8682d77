import { parseWithZod } from "@conform-to/zod";
import { data, redirect, type AppLoadContext } from "@remix-run/cloudflare";
import { ZodDiscriminatedUnion, type z } from "zod";
import type { Audience } from "~/models/context.server";
import { answerError, parseIntent, type FormErrors, type IntentSchema, type Page } from "~/utils/errors.server";
import { publishChange } from "~/utils/fanout.server";
import { redirectWithToast, type Toast } from "~/utils/toast.server";

// The action wing's one runner (ADR 0042). A route hands it the posted form and its intent
// set; the runner parses the intent, runs the handler, answers a model error through the
// one table in app/utils/errors.server.ts, tells the handler's audience, and redirects.
// Handlers never catch a model error and never call publishChange themselves.

export type Ctx = Pick<AppLoadContext, "db" | "env" | "ctx">;

/** What a handler did: where to go with which toast, and whom to tell live. */
export type Done =
  | { to: string; toast?: Toast; audience?: Audience | Audience[]; headers?: HeadersInit }
  /** An answer that is not a redirect (a fetcher's data, or a redirect the handler built). */
  | { answer: unknown; audience?: Audience | Audience[] };

/** The page a post came from, minus what the runner fills in (request, env, reply). */
export type PageOf =
  | Omit<Extract<Page, { kind: "toast" }>, "request" | "env">
  | (Omit<Extract<Page, { kind: "form" }>, "reply"> & {
      reply?: (errors: FormErrors, submission: Submission) => unknown;
    })
  | Extract<Page, { kind: "text" }>
  | Extract<Page, { kind: "page" }>;

/** What the runner needs of a conform submission that failed its schema. */
type Submission = {
  error?: Record<string, string[] | null> | null;
  reply(options?: FormErrors & { hideFields?: string[] }): unknown;
};

/**
 * How a post the schema refuses is answered: `unknown`, a 400 "Unknown action" (hidden
 * fields a person cannot get wrong: a forged form); `reply`, the form's reply with a 400
 * (the form shows its field errors); or a function giving the error toast's page and text.
 */
export type Invalid<I> =
  | "unknown"
  | "reply"
  | ((
      intent: I,
      messages: string[],
      submission: Submission,
    ) => { to: string; toast: Omit<Toast, "type"> } | Promise<unknown> | object);

/** A route's one schema: a union on `intent` (a 400 for any other), or one form's fields. */
type Schema = IntentSchema | z.ZodTypeAny;
type IntentOf<S extends Schema> = z.output<S> extends { intent: infer I } ? I : undefined;

export type Intents<S extends Schema> = {
  schema: S;
  /** The intents this page answers (others are a 400 "Unknown action"); all by default. */
  allowed?: readonly IntentOf<S>[];
  invalid: Invalid<IntentOf<S>>;
  /** The page a refusal is answered on, for this post. */
  page: (value: z.output<S>) => PageOf;
  /** The write; `submission` shapes an answer of its own (a check the schema cannot make). */
  handle: (value: z.output<S>, submission: Submission) => Promise<Done>;
};

/** Every message of a refused submission, once each, in the order the schema found them. */
export const messagesOf = (submission: Submission): string[] => [
  ...new Set(Object.values(submission.error ?? {}).flatMap((m) => m ?? [])),
];

/** Runs one posted intent of a route (see `Intents`); the action's whole answer. */
export async function runIntent<S extends Schema>(
  request: Request,
  context: Ctx,
  formData: FormData,
  intents: Intents<S>,
) {
  const { intent, submission } = isIntentSchema(intents.schema)
    ? parseIntent(formData, intents.schema, intents.allowed as never)
    : { intent: undefined, submission: parseWithZod(formData, { schema: intents.schema }) };
  if (submission.status !== "success") {
    return await invalidAnswer(request, context, intents.invalid, intent as IntentOf<S>, submission);
  }
  const value = submission.value as z.output<S>;
  let done: Done;
  try {
    done = await intents.handle(value, submission);
  } catch (e) {
    const page = intents.page(value);
    const full: Page =
      page.kind === "toast"
        ? { ...page, request, env: context.env }
        : page.kind === "form"
          ? {
              ...page,
              reply: (errors: FormErrors) => (page.reply ? page.reply(errors, submission) : submission.reply(errors)),
            }
          : page;
    // Awaited here, not returned: a returned rejected promise is adopted a microtask later,
    // and the runtime reports it as unhandled in between.
    return (await answerError(e, full)) as never;
  }
  for (const a of [done.audience ?? []].flat()) publishChange(context, a);
  if ("answer" in done) return done.answer as never;
  return done.toast
    ? redirectWithToast(request, context.env, done.to, done.toast, done.headers ? { headers: done.headers } : undefined)
    : redirect(done.to, done.headers ? { headers: done.headers } : undefined);
}

function isIntentSchema(schema: Schema): schema is IntentSchema {
  return schema instanceof ZodDiscriminatedUnion && schema.discriminator === "intent";
}

async function invalidAnswer<I>(
  request: Request,
  context: Ctx,
  invalid: Invalid<I>,
  intent: I,
  submission: Submission,
) {
  if (invalid === "unknown") throw data("Unknown action", { status: 400 });
  if (invalid === "reply") return data(submission.reply(), { status: 400 }) as never;
  const answer = await invalid(intent, messagesOf(submission), submission);
  if (answer && typeof answer === "object" && "toast" in answer && "to" in answer) {
    const { to, toast } = answer as { to: string; toast: Toast };
    return redirectWithToast(request, context.env, to, { ...toast, type: "error" });
  }
  return answer as never;
}
