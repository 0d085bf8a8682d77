import { Form } from "@remix-run/react";
import { formatDateTimeShort } from "~/domain/time";
import { FieldErrors } from "./forms";
import { inputClass, mutedTextClass, panelClass, smallButtonClass, smallPrimaryClass } from "./styles";
import { VerifiedBadge } from "./verified-badge";

type State = {
  code: { email: string; expiresAt: number; triesLeft: number } | null;
  verified: { email: string; domain: string } | null;
};

/**
 * Issue 16, item 1: joining (or earning the badge in) a community that joins by a verified work
 * e-mail. Two plain forms: the address (a code is e-mailed to it) and the code. The address is
 * shown to its owner only.
 */
export function WorkEmailJoin({
  domain,
  state,
  membership,
  errors = {},
}: {
  domain: string;
  state: State;
  membership: string;
  errors?: Record<string, string[] | null>;
}) {
  if (state.verified) {
    return (
      <section aria-labelledby="work-email" className={`${panelClass} space-y-2`} data-testid="work-email">
        <h2 id="work-email" className="text-lg font-semibold">
          Work e-mail
        </h2>
        <VerifiedBadge badge={state.verified.domain} />
        <p className={`text-sm ${mutedTextClass}`}>
          You verified <span className="font-medium">{state.verified.email}</span>. Only you see this address; others
          see the badge.
        </p>
      </section>
    );
  }
  if (membership === "rejected") return null;
  return (
    <section aria-labelledby="work-email" className={`${panelClass} space-y-4`} data-testid="work-email">
      <h2 id="work-email" className="text-lg font-semibold">
        {membership === "approved" ? "Verify your work e-mail" : "Join with your work e-mail"}
      </h2>
      <p className={`text-sm ${mutedTextClass}`}>
        This community is for people with an address at @{domain}. We e-mail a 6-digit code to your work address; enter
        it here within 10 minutes to
        {membership === "approved" ? " get the verified badge." : " join at once."}
      </p>
      <Form method="post" className="flex flex-wrap items-end gap-2">
        <div className="min-w-64 flex-1">
          <label htmlFor="work-email-address" className="block text-sm font-medium">
            Your work e-mail (@{domain})
          </label>
          <input
            id="work-email-address"
            name="email"
            type="email"
            required
            autoComplete="email"
            placeholder={`name@${domain}`}
            defaultValue={state.code?.email}
            className={`${inputClass} mt-1`}
            aria-invalid={errors.email?.length ? true : undefined}
            aria-describedby="work-email-address-error"
          />
          <FieldErrors id="work-email-address-error" errors={errors.email ?? undefined} />
        </div>
        <button
          type="submit"
          name="intent"
          value="work-email-code"
          className={state.code ? smallButtonClass : smallPrimaryClass}
        >
          {state.code ? "Send a new code" : "Send code"}
        </button>
      </Form>
      {state.code ? (
        <Form method="post" className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor="work-email-code" className="block text-sm font-medium">
              Code sent to {state.code.email}
            </label>
            <input
              id="work-email-code"
              name="code"
              required
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              className={`${inputClass} mt-1 w-36`}
              aria-invalid={errors.code?.length ? true : undefined}
              aria-describedby="work-email-code-hint work-email-code-error"
            />
            <FieldErrors id="work-email-code-error" errors={errors.code ?? undefined} />
            <p id="work-email-code-hint" className={`mt-1 text-xs ${mutedTextClass}`}>
              Valid until {formatDateTimeShort(state.code.expiresAt)} IST; {state.code.triesLeft}{" "}
              {state.code.triesLeft === 1 ? "try" : "tries"} left.
            </p>
          </div>
          <button type="submit" name="intent" value="work-email-verify" className={smallPrimaryClass}>
            Verify and join
          </button>
        </Form>
      ) : null}
    </section>
  );
}
