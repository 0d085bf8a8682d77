import { Form } from "@remix-run/react";
import type { RESEND_BACK } from "~/schemas/profile";
import { smallPrimaryClass } from "./styles";

/**
 * Asks a member with an unconfirmed address to confirm it: until then no e-mail is sent to
 * them (issue 15), and nothing else on the page would say so (issue 38). Resend posts the
 * profile's own rate-limited "send again" and comes back here with its toast.
 */
export function ConfirmEmailBanner({
  email,
  verified,
  back,
}: {
  email: string | null;
  verified: boolean;
  back: (typeof RESEND_BACK)[number];
}) {
  if (!email || verified) return null;
  return (
    <section
      aria-labelledby="confirm-email-title"
      data-testid="confirm-email-banner"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950"
    >
      <div className="min-w-0">
        <h2 id="confirm-email-title" className="font-semibold">
          Confirm your e-mail to get ride e-mails
        </h2>
        <p className="break-all text-sm">
          Follow the link we sent to {email}. Until then, ride requests, alerts and booking updates are not e-mailed.
        </p>
      </div>
      <Form method="post" action="/dashboard/profile">
        <input type="hidden" name="intent" value="resend-verification" />
        <input type="hidden" name="back" value={back} />
        <button type="submit" className={smallPrimaryClass}>
          Resend
        </button>
      </Form>
    </section>
  );
}
