import { Link } from "@remix-run/react";

export const CONTACT_EMAIL = "support@loopride.in";

export function Logo({ className = "" }: { className?: string }) {
  return (
    <Link
      to="/"
      className={`flex items-center gap-2 text-lg font-bold text-emerald-800 dark:text-emerald-300 ${className}`}
    >
      <svg aria-hidden="true" viewBox="0 0 32 32" className="h-7 w-7">
        <rect width="32" height="32" rx="8" fill="#047857" />
        <path d="M9 20a7 7 0 1 1 14 0" fill="none" stroke="#fff" strokeWidth="3" strokeLinecap="round" />
        <circle cx="11" cy="22" r="2.5" fill="#fff" />
        <circle cx="21" cy="22" r="2.5" fill="#fff" />
      </svg>
      LoopRide
    </Link>
  );
}
