import { Link } from "@remix-run/react";
import { CONTACT_EMAIL, Logo } from "./brand";

export function PublicFooter() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 md:grid-cols-4">
        <div className="md:col-span-2">
          <Logo />
          <p className="mt-3 max-w-sm text-sm text-slate-700 dark:text-slate-300">
            Sustainable carpooling for Bengaluru's communities. LoopRide only connects community members; it does not
            provide transport. Payments are settled between members.
          </p>
        </div>
        <nav aria-label="Quick links">
          <h2 className="text-sm font-semibold">Quick links</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <Link className="hover:underline" to="/how-it-works">
                How It Works
              </Link>
            </li>
            <li>
              <Link className="hover:underline" to="/communities">
                Communities
              </Link>
            </li>
            <li>
              <Link className="hover:underline" to="/pricing">
                Pricing
              </Link>
            </li>
            <li>
              <Link className="hover:underline" to="/support">
                Support
              </Link>
            </li>
          </ul>
        </nav>
        <div>
          <h2 className="text-sm font-semibold">Contact</h2>
          <p className="mt-3 text-sm">
            <a className="hover:underline" href={`mailto:${CONTACT_EMAIL}`}>
              {CONTACT_EMAIL}
            </a>
          </p>
          <h2 className="mt-6 text-sm font-semibold">Legal</h2>
          <ul className="mt-3 space-y-2 text-sm">
            <li>
              <Link className="hover:underline" to="/privacy-policy">
                Privacy Policy
              </Link>
            </li>
            <li>
              <Link className="hover:underline" to="/terms-of-service">
                Terms of Service
              </Link>
            </li>
            <li>
              <Link className="hover:underline" to="/cookie-policy">
                Cookie Policy
              </Link>
            </li>
          </ul>
        </div>
      </div>
      <p className="border-t border-slate-200 py-4 text-center text-xs text-slate-600 dark:border-slate-800 dark:text-slate-400">
        © {new Date().getUTCFullYear()} LoopRide · Made for Bengaluru commuters
      </p>
    </footer>
  );
}
