import { Link } from "@remix-run/react";
import { buttonClass } from "./styles";

export function NotFound({ backHref = "/" }: { backHref?: string }) {
  return (
    <main className="mx-auto flex min-h-[70vh] max-w-xl flex-col items-center justify-center gap-4 p-8 text-center">
      <p className="text-6xl font-extrabold text-emerald-700 dark:text-emerald-400">404</p>
      <h1 className="text-2xl font-bold">Page Not Found</h1>
      <p className="text-slate-600 dark:text-slate-300">
        The page you are looking for doesn't exist or has been moved.
      </p>
      <div className="flex gap-3">
        {/* Without JavaScript "Go Back" follows the page the visitor came from. */}
        <a
          href={backHref}
          onClick={(e) => {
            if (window.history.length > 1) {
              e.preventDefault();
              window.history.back();
            }
          }}
          className="rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-50 dark:border-slate-700 dark:hover:bg-slate-900"
        >
          Go Back
        </a>
        <Link to="/" className={buttonClass}>
          Return Home
        </Link>
      </div>
    </main>
  );
}
