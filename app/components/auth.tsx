import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { Logo } from "./brand";

export function AuthCard({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  return (
    <div className="mx-auto my-10 w-full max-w-md px-4">
      <div className="rounded-2xl border border-slate-200 bg-white p-8 shadow-sm dark:border-slate-800 dark:bg-slate-900">
        <div className="mb-6 flex flex-col items-center text-center">
          <Logo />
          <h1 className="mt-4 text-2xl font-bold">{title}</h1>
          {subtitle ? <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{subtitle}</p> : null}
        </div>
        {children}
      </div>
    </div>
  );
}

/** Google sign-in is a form POST (no GET starts an OAuth flow); disabled with a reason when not configured. */
export function GoogleButton({ enabled, label, redirectTo }: { enabled: boolean; label: string; redirectTo?: string }) {
  if (!enabled) {
    return (
      <div>
        <button
          type="button"
          disabled
          aria-describedby="google-unavailable"
          className="flex w-full cursor-not-allowed items-center justify-center gap-2 rounded-md border border-slate-300 px-4 py-2 font-medium text-slate-600 opacity-70 dark:border-slate-700 dark:text-slate-400"
        >
          <GoogleMark /> {label}
        </button>
        <p id="google-unavailable" className="mt-1 text-center text-xs text-slate-600 dark:text-slate-400">
          Google sign-in is not configured on this server.
        </p>
      </div>
    );
  }
  return (
    <Form method="post" action="/auth/google" reloadDocument>
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <button
        type="submit"
        className="flex w-full items-center justify-center gap-2 rounded-md border border-slate-400 px-4 py-2 font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800"
      >
        <GoogleMark /> {label}
      </button>
    </Form>
  );
}

function GoogleMark() {
  return (
    <svg aria-hidden="true" viewBox="0 0 48 48" className="h-5 w-5">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3 0 5.8 1.1 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
      />
      <path
        fill="#FF3D00"
        d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3 0 5.8 1.1 7.9 3l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
      />
    </svg>
  );
}
