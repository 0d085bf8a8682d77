import { Form } from "@remix-run/react";
import { dangerButtonClass, smallButtonClass } from "./styles";

// The Settings parts of issue 16, apart from the report form (safety.tsx): Settings then does not
// load conform and zod for a form it does not show.

/** Settings: the people the user blocked, each with an Unblock button. */
export function BlockedList({ people }: { people: { id: string; fullName: string | null }[] }) {
  return (
    <section aria-labelledby="group-blocked" className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <h2 id="group-blocked" className="text-lg font-semibold">
        Blocked people
      </h2>
      {people.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">You have not blocked anyone.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
          {people.map((p) => (
            <li key={p.id} className="flex items-center justify-between gap-4 py-3">
              <span className="font-medium">{p.fullName ?? "Unknown User"}</span>
              <Form method="post" action={`/people/${p.id}`}>
                <input type="hidden" name="intent" value="unblock" />
                <input type="hidden" name="redirectTo" value="/dashboard/settings" />
                <button type="submit" className={smallButtonClass}>
                  Unblock<span className="sr-only"> {p.fullName}</span>
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Settings: the person's own data (issue 16): download it, or delete the account. */
export function OwnDataSection() {
  return (
    <section aria-labelledby="group-data" className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <h2 id="group-data" className="text-lg font-semibold">
        Your data
      </h2>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        A copy of everything LoopRide stores about you, or closing your account for good. See the privacy policy for
        what each does.
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        <a href="/dashboard/my-data" download className={smallButtonClass} data-testid="download-my-data">
          Download my data
        </a>
        <a href="/dashboard/delete-account" className={dangerButtonClass}>
          Delete my account
        </a>
      </div>
    </section>
  );
}

/** The form value of "Sign out everywhere" (the Settings action tells it from a setting toggle by it). */
export const SIGN_OUT_EVERYWHERE = "sign-out-everywhere";

/**
 * Settings: ends every session, the calendar feed, push on every browser and every open tab
 * (issue 34): for a lost phone, or someone else once signed in. A plain form: works without JS.
 */
export function SignOutEverywhere() {
  return (
    <section aria-labelledby="group-sessions" className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <h2 id="group-sessions" className="text-lg font-semibold">
        Sign out everywhere
      </h2>
      <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
        Signs you out on every device, this one included, and turns off your calendar feed URL and push notifications on
        every browser. Use it if you lost a device or someone else may be signed in as you.
      </p>
      <Form method="post" className="mt-3">
        <input type="hidden" name="intent" value={SIGN_OUT_EVERYWHERE} />
        <button type="submit" className={dangerButtonClass} data-testid="sign-out-everywhere">
          Sign out everywhere
        </button>
      </Form>
    </section>
  );
}
