import type { AppEnv } from "./env.server";
import { parseWithZod } from "@conform-to/zod";
import { data, type TypedResponse } from "@remix-run/cloudflare";
import type { z } from "zod";
import type { NotFoundPage } from "../components/error-boundary";
import { COMMUNITY_NOT_FOUND } from "../models/community-rows.server";
import { ConflictError, isModelError, NotFoundError } from "../models/errors.server";
import { redirectWithToast, type Toast } from "./toast.server";

// The one path from a model error to a response (ADR 0013). Models throw ForbiddenError /
// NotFoundError / ConflictError; loaders wrap their reads in `orRespond`, actions their
// writes in `orToast` (redirect + toast) or `orFormError` (a conform form shows the error).
// Multi-intent actions read their intent with `parseIntent`.

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
  community: {
    title: COMMUNITY_NOT_FOUND,
    message: "This community may have been removed, or the link is wrong.",
    back: { href: "/communities", label: "Back to Communities" },
  },
} satisfies Record<string, NotFoundPage>;

/** What a NotFoundError becomes: a page's own 404 texts, or a response (e.g. a redirect with a toast). */
export type NotFoundAnswer = NotFoundPage | (() => Promise<Redirect>);
type Redirect = TypedResponse<never>;

/** The response a Forbidden / NotFound (or, in a loader, Conflict) error is thrown as. */
async function refusal(e: unknown, notFound?: NotFoundAnswer): Promise<unknown> {
  if (!isModelError(e)) return e;
  if (e instanceof NotFoundError && notFound) return typeof notFound === "function" ? notFound() : data(notFound, { status: 404 });
  return data(e.message, { status: e.status });
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
    throw await refusal(e, notFound);
  }
}

export type ToastOptions = {
  /** Where the error toast redirects (usually the page the form was on). */
  to: string;
  /** The toast's title for a refusal that has none of its own; "Error" by default. */
  title?: string;
  /** A list page acting on an object named in the form (not the URL): every model error is a toast. */
  toastAll?: boolean;
  notFound?: NotFoundAnswer;
  /** The spec's toast for an unexpected failure (logged); without it the failure is a 500. */
  unexpected?: Toast;
};

/**
 * Actions that answer with a redirect and a toast: runs `work` (which returns the success
 * redirect). A ConflictError (a domain rule refused; the model's batch changed nothing)
 * becomes a redirect to `to` with an error toast; Forbidden / NotFound are thrown as 403 / 404.
 */
export async function orToast<R>(request: Request, env: AppEnv, options: ToastOptions, work: () => Promise<R>): Promise<R | Redirect> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof ConflictError || (options.toastAll && isModelError(e))) {
      return redirectWithToast(request, env, options.to, { title: e.title ?? options.title ?? "Error", description: e.message, type: "error" });
    }
    // Only a failure (an Error), never a thrown response such as a redirect.
    if (!isModelError(e) && e instanceof Error && options.unexpected) {
      console.error(e);
      return redirectWithToast(request, env, options.to, { ...options.unexpected, type: "error" });
    }
    throw await refusal(e, options.notFound);
  }
}

type ReplyOptions = { formErrors?: string[]; fieldErrors?: Record<string, string[]> };
/** A conform submission, or any form answer with the same `reply`. */
type Replyable<T> = { reply(options?: ReplyOptions): T };

/**
 * Actions whose form shows its own errors (conform, also without JavaScript): a model error
 * is returned as the form's reply with the error's status (or `status`): its message next to
 * the error's `field` (with its `title` above the form), else above the form. `unexpected`
 * is the spec's message for a failure that is not a refusal (logged; a 500).
 */
export async function orFormError<R, T>(
  submission: Replyable<T>,
  work: () => Promise<R>,
  options: { status?: number; notFound?: () => Promise<Redirect>; unexpected?: string } = {},
) {
  try {
    return await work();
  } catch (e) {
    if (!isModelError(e)) {
      if (!(e instanceof Error) || !options.unexpected) throw e;
      console.error(e);
      return data(submission.reply({ formErrors: [options.unexpected] }), { status: 500 });
    }
    if (e instanceof NotFoundError && options.notFound) return options.notFound();
    const reply = e.field
      ? submission.reply({ ...(e.title ? { formErrors: [e.title] } : {}), fieldErrors: { [e.field]: [e.message] } })
      : submission.reply({ formErrors: [e.message] });
    return data(reply, { status: options.status ?? e.status });
  }
}

type IntentSchema = z.ZodDiscriminatedUnion<"intent", z.ZodDiscriminatedUnionOption<"intent">[]>;

/**
 * Multi-intent actions: the form's `intent` must be one of the schema's (and, if given, one
 * of `allowed`), else a thrown 400 "Unknown action" (nothing runs). Returns the intent and
 * the conform submission of the whole form against that intent's branch.
 */
export function parseIntent<S extends IntentSchema>(formData: FormData, schema: S, allowed?: readonly z.output<S>["intent"][]) {
  const intent = formData.get("intent");
  if (typeof intent !== "string" || !schema.optionsMap.has(intent) || (allowed && !allowed.includes(intent))) {
    throw data("Unknown action", { status: 400 });
  }
  return { intent: intent as z.output<S>["intent"], submission: parseWithZod(formData, { schema }) };
}
