import type { ReactNode } from "react";

// The pages e-mail links open (confirm an address, unsubscribe) have one button and no
// client-validated form: they stay off the conform chunk (app/components/forms.tsx), so
// importing them does not split the shared form chunk for every other page.

/** Why a link did not work (the same look as a form's errors). */
export function LinkProblem({ children }: { children: ReactNode }) {
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <p>{children}</p>
    </div>
  );
}
