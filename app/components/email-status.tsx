import { Form } from "@remix-run/react";
import { smallButtonClass } from "./styles";

/** The account's e-mail with its verified badge, or a button to send the confirmation link again. */
export function EmailStatus({ email, verified }: { email: string | null; verified: boolean }) {
  if (!email) return null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="break-all">{email}</span>
      {verified ? (
        <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100">
          ✓ Verified
        </span>
      ) : (
        <>
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100">
            Not verified
          </span>
          <Form method="post">
            <input type="hidden" name="intent" value="resend-verification" />
            <button type="submit" className={smallButtonClass}>
              Send the confirmation link again
            </button>
          </Form>
        </>
      )}
    </div>
  );
}
