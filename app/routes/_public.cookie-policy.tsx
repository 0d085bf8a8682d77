import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { CONTACT_EMAIL } from "~/components/brand";
import { LegalPage, LegalSection, POLICY_LAST_UPDATED } from "~/components/legal-page";

export const meta: MetaFunction = () => [
  { title: "Cookie Policy | LoopRide" },
  { name: "description", content: "The few essential cookies LoopRide sets, what they hold and how long they last." },
];

// Keep in step with the cookies the app really sets: app/utils/auth.server.ts (session),
// app/utils/toast.server.ts (toast), app/utils/authenticator.server.ts (referral, return
// address, Google sign-in state), app/utils/onboarding-draft.server.ts (onboarding) and
// app/utils/d1-session.server.ts (database bookmark).
const COOKIES: { name: string; purpose: string; duration: string }[] = [
  {
    name: "lr_session (__Host-lr_session over HTTPS)",
    purpose:
      "Keeps you signed in. It holds only a signed, random session identifier: no name, e-mail or other personal details. It is HttpOnly (page scripts cannot read it), SameSite=Lax and, over HTTPS, Secure.",
    duration: "30 days, or until you sign out",
  },
  {
    name: "lr_toast",
    purpose:
      "Carries a one-off confirmation or error message (for example \u201cThanks for subscribing!\u201d) to the next page you see. It is signed, HttpOnly and deleted as soon as the message is shown.",
    duration: "1 minute",
  },
  {
    name: "lr_ref",
    purpose:
      "The signup referral cookie. Set only when you open a sign-up link that contains a referral code; it remembers the code while you sign up (also through Google sign-in), so that you and the friend who invited you receive your referral credits. It is deleted once you have signed up.",
    duration: "Up to 30 days",
  },
  {
    name: "lr_return",
    purpose: "Remembers which page to take you back to after you sign in with Google.",
    duration: "10 minutes",
  },
  {
    name: "lr_oauth",
    purpose:
      "Carries the signed security state of a Google sign-in between LoopRide and Google, to protect it against forgery.",
    duration: "10 minutes",
  },
  {
    name: "lr_onboarding",
    purpose:
      "Keeps the answers you have already given in the onboarding steps (such as your mobile number and car details) until you press Complete Setup, so they survive going Back or reloading. It is signed, HttpOnly and only sent to the onboarding pages.",
    duration: "Up to 24 hours",
  },
  {
    name: "lr_d1",
    purpose:
      "Set after you change something (for example a setting or a booking). It holds a signed database position, no personal details, so the next page you open shows your change even if it is served from a database copy nearer to you. It is HttpOnly and SameSite=Lax.",
    duration: "1 hour",
  },
];

export default function CookiePolicy() {
  return (
    <LegalPage
      title="Cookie Policy"
      lastUpdated={POLICY_LAST_UPDATED}
      intro={
        <p>
          This policy explains which cookies LoopRide sets and why. In short: we use only a few first-party cookies that
          the site needs to work, and no advertising or analytics cookies.
        </p>
      }
    >
      <LegalSection title="What cookies are">
        <p>
          Cookies are small text files that a website asks your browser to store and send back with later requests. They
          let a site remember, for example, that you are signed in.
        </p>
      </LegalSection>

      <LegalSection title="Cookies we use">
        <p>
          All of the cookies below are first-party, strictly necessary cookies set by LoopRide itself. Because the site
          cannot work properly without them, they do not require your consent.
        </p>
        <div className="overflow-x-auto">
          <table className="mt-2 w-full border-collapse text-left text-sm">
            <caption className="sr-only">Cookies set by LoopRide</caption>
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-700">
                <th scope="col" className="py-2 pr-4 font-semibold text-slate-900 dark:text-slate-100">
                  Cookie
                </th>
                <th scope="col" className="py-2 pr-4 font-semibold text-slate-900 dark:text-slate-100">
                  Purpose
                </th>
                <th scope="col" className="py-2 font-semibold text-slate-900 dark:text-slate-100">
                  Duration
                </th>
              </tr>
            </thead>
            <tbody>
              {COOKIES.map((c) => (
                <tr key={c.name} className="border-b border-slate-200 align-top dark:border-slate-800">
                  <th
                    scope="row"
                    className="py-3 pr-4 font-mono text-xs font-semibold text-slate-900 dark:text-slate-100"
                  >
                    {c.name}
                  </th>
                  <td className="py-3 pr-4">{c.purpose}</td>
                  <td className="py-3">{c.duration}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </LegalSection>

      <LegalSection title="What we do not use">
        <ul>
          <li>No third-party advertising cookies. Ads shown on the Free plan do not track you with cookies.</li>
          <li>No analytics or tracking cookies, and no social media pixels.</li>
          <li>No cookies that follow you across other websites.</li>
        </ul>
      </LegalSection>

      <LegalSection title="Managing cookies">
        <p>
          You can delete or block cookies in your browser's settings. If you block the session cookie you will not be
          able to sign in, and confirmation messages may not appear after you submit a form. The rest of the public site
          keeps working.
        </p>
      </LegalSection>

      <LegalSection title="Changes and contact">
        <p>
          If we start using a new cookie we will update this page and the date at the top. For questions, write to{" "}
          <a href={`mailto:${CONTACT_EMAIL}?subject=${encodeURIComponent("Cookie Policy")}`}>{CONTACT_EMAIL}</a>, and
          see our <Link to="/privacy-policy">Privacy Policy</Link> for how we handle personal data.
        </p>
      </LegalSection>
    </LegalPage>
  );
}
