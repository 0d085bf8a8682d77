import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { NotFound } from "./not-found";
import { buttonClass } from "./styles";

/** The one error boundary every route shares. */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
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
