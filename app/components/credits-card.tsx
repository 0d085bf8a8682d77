import {
  CREDITS_TODAY_TEXT,
  NEW_USER_BONUS,
  REFERRAL_HOLD_TEXT,
  REFERRAL_OVER_LIMIT_TEXT,
  REFERRALS_CREDITED_PER_DAY,
  REFERRER_BONUS,
} from "~/domain/referral";
import { formatDateTimeShort, formatMonthDay } from "~/domain/time";
import type { ReferralMade } from "~/models/referrals.server";
import { panelClass } from "./styles";

type Credits = {
  referralCode: string | null;
  credits: number;
  totalEarned: number;
  history: { id: string; amount: number; type: string; description: string; createdAt: number }[];
  referrals: ReferralMade[];
};

/** Why a referral is where it is, in the referrer's words. */
function referralState(r: ReferralMade) {
  if (r.state === "credited") return `Credited: +${r.amount} credits on ${formatMonthDay(r.at)}.`;
  if (r.state === "over-limit") return REFERRAL_OVER_LIMIT_TEXT;
  // No hold left: the next step they take (or the confirmation link) credits it.
  return r.holds.map((h) => REFERRAL_HOLD_TEXT[h]).join(" ") || "Waiting to be credited.";
}

export function CreditsCard({ credits, origin }: { credits: Credits; origin: string }) {
  const link = credits.referralCode ? `${origin}/signup?ref=${credits.referralCode}` : null;
  return (
    <section aria-labelledby="credits" className={panelClass}>
      <h2 id="credits" className="text-lg font-semibold">
        Referral credits
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        {`Invite a friend: they get ${NEW_USER_BONUS} credits when they sign up with your code, and you get ${REFERRER_BONUS} once they have confirmed their e-mail and set up their profile (at most ${REFERRALS_CREDITED_PER_DAY} friends a day).`}
      </p>
      <p className="mt-2 text-sm font-medium" data-testid="credits-today">
        {CREDITS_TODAY_TEXT}
      </p>
      <dl className="mt-4 grid gap-4 sm:grid-cols-3">
        <div>
          <dt className="text-sm text-slate-700 dark:text-slate-300">Your code</dt>
          <dd className="font-mono text-xl font-bold" data-testid="referral-code">
            {credits.referralCode ?? "—"}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700 dark:text-slate-300">Balance</dt>
          <dd className="text-xl font-bold" data-testid="credit-balance">
            {credits.credits} credits
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-700 dark:text-slate-300">Total earned</dt>
          <dd className="text-xl font-bold">{credits.totalEarned} credits</dd>
        </div>
      </dl>
      {link ? (
        <div className="mt-4">
          <label htmlFor="share-link" className="text-sm font-medium">
            Share link
          </label>
          <input
            id="share-link"
            readOnly
            value={link}
            className="mt-1 block w-full rounded-md border border-slate-400 bg-slate-50 px-3 py-2 font-mono text-sm dark:border-slate-600 dark:bg-slate-900"
          />
        </div>
      ) : null}
      <h3 className="mt-6 font-semibold">Your referrals</h3>
      {credits.referrals.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">No one has used your code yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800" data-testid="referrals-made">
          {credits.referrals.map((r) => (
            <li key={r.id} className="py-2 text-sm" data-testid="referral">
              <p>
                <span className="font-medium">{r.name}</span>
                <span className="text-slate-600 dark:text-slate-400">{` · joined ${formatMonthDay(r.joinedAt)} · `}</span>
                <span className="font-medium">{r.state === "pending" ? "Pending" : "Completed"}</span>
              </p>
              <p className="text-slate-700 dark:text-slate-300" data-testid="referral-state">
                {referralState(r)}
              </p>
            </li>
          ))}
        </ul>
      )}
      <h3 className="mt-6 font-semibold">History</h3>
      {credits.history.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">No credits yet.</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800" data-testid="credit-history">
          {credits.history.map((t) => (
            <li key={t.id} className="flex justify-between py-2 text-sm">
              <span>
                {t.description}{" "}
                <span className="text-slate-600 dark:text-slate-400">· {formatDateTimeShort(t.createdAt)}</span>
              </span>
              <span className="font-semibold text-emerald-800 dark:text-emerald-300">
                {t.type === "earned" ? "+" : "−"}
                {t.amount}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
