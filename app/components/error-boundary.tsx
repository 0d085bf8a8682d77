import { isRouteErrorResponse, Link, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { NotFound } from "./not-found";
import { buttonClass } from "./styles";

/** A page's own not-found texts, sent as the body of its 404 (`NOT_FOUND` in app/utils/errors.server.ts). */
export type NotFoundPage = { title: string; message: string; back: { href: string; label: string } };

function isNotFoundPage(v: unknown): v is NotFoundPage {
  const p = v as NotFoundPage | null;
  return (
    typeof p?.title === "string" &&
    typeof p.message === "string" &&
    typeof p.back?.href === "string" &&
    typeof p.back.label === "string"
  );
}

/**
 * The one error boundary every route shares (root, and each page with its own not-found
 * texts, so that those render inside the signed-in layout).
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  // The root loader's same-site page the visitor came from (app/utils/back-link.server.ts).
  const root = useRouteLoaderData<{ back?: string }>("root");
  if (isRouteErrorResponse(error) && error.status === 404) {
    if (!isNotFoundPage(error.data)) return <NotFound backHref={root?.back} />;
    const page = error.data;
    return (
      <div className="mx-auto flex max-w-xl flex-col items-center gap-4 p-8 text-center">
        <h1 className="text-2xl font-bold">{page.title}</h1>
        <p className="text-slate-700 dark:text-slate-300">{page.message}</p>
        <Link
          to={page.back.href}
          className="rounded-md bg-emerald-700 px-4 py-2 font-medium text-white hover:bg-emerald-800"
        >
          {page.back.label}
        </Link>
      </div>
    );
  }
  let title = "Something went wrong";
  // Every write is one D1 batch (all or nothing), so a failure leaves nothing half-saved.
  let message = "We couldn't complete that just now, and nothing was changed. Please try again.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 403) {
      title = "Access denied";
      message = typeof error.data === "string" && error.data ? error.data : "You don't have permission to do that.";
    } else if (error.status === 429) {
      title = "Too many attempts";
      message = typeof error.data === "string" && error.data ? error.data : "Please wait a minute and try again.";
    } else if (error.status < 500 && typeof error.data === "string" && error.data) {
      message = error.data;
    }
  } else if (typeof console !== "undefined") {
    console.error(error);
  }
  return (
    <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-2xl font-bold">{title}</h1>
      <p className="text-slate-600 dark:text-slate-300">{message}</p>
      <Link to="/" className={buttonClass}>
        Return Home
      </Link>
    </main>
  );
}
