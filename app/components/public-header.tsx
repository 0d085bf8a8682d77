import { Form, Link, NavLink } from "@remix-run/react";
import { Logo } from "./brand";
import { Avatar, initials } from "./avatar";
import { smallPrimaryClass } from "./styles";

type HeaderUser = { fullName: string | null; email: string | null; avatarUrl: string | null } | null;

const NAV = [
  { to: "/how-it-works", label: "How It Works" },
  { to: "/communities", label: "Communities" },
  { to: "/pricing", label: "Pricing" },
  { to: "/support", label: "Support" },
];

const navClass = ({ isActive }: { isActive: boolean }) =>
  `rounded px-2 py-1 text-sm font-medium ${isActive ? "text-emerald-800 dark:text-emerald-300" : "text-slate-700 hover:text-emerald-800 dark:text-slate-300"}`;

// The mobile menu opens with a plain #fragment link and CSS :target, so it works
// without JavaScript; the avatar menu is a <details> element for the same reason.
export function PublicHeader({ user }: { user: HeaderUser }) {
  return (
    <header className="border-b border-slate-200 bg-white/90 dark:border-slate-800 dark:bg-slate-950/90">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4">
        <Logo />
        <nav aria-label="Main" className="hidden items-center gap-4 md:flex">
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to} className={navClass}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="hidden items-center gap-3 md:flex">
          {user ? <SignedInActions user={user} /> : <SignedOutActions />}
        </div>
        <a
          href="#mobile-menu"
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium md:hidden dark:border-slate-700"
        >
          Menu
        </a>
      </div>
      <div
        id="mobile-menu"
        className="hidden border-t border-slate-200 px-4 pb-4 target:block md:!hidden dark:border-slate-800"
      >
        <nav aria-label="Mobile" className="flex flex-col gap-1 pt-2">
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to} className={navClass}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          {user ? <SignedInActions user={user} /> : <SignedOutActions />}
          <a href="#" className="ml-auto text-sm text-slate-600 underline dark:text-slate-300">
            Close menu
          </a>
        </div>
      </div>
    </header>
  );
}

function SignedOutActions() {
  return (
    <>
      <Link
        to="/login"
        className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-800 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-900"
      >
        Sign in
      </Link>
      <Link to="/signup" className={smallPrimaryClass}>
        Sign up
      </Link>
    </>
  );
}

function SignedInActions({ user }: { user: NonNullable<HeaderUser> }) {
  return (
    <>
      <Link to="/rides/create" className={smallPrimaryClass}>
        Create Ride
      </Link>
      <details className="relative">
        {/* Without a photo the avatar shows initials, visible text the name must contain (WCAG 2.5.3, Label in Name). */}
        <summary
          className="flex cursor-pointer list-none items-center gap-2 rounded-full"
          aria-label={user.fullName ? `Account menu, ${initials(user.fullName)} (${user.fullName})` : "Account menu"}
        >
          <Avatar name={user.fullName} url={user.avatarUrl} size="sm" />
        </summary>
        <div className="absolute right-0 z-20 mt-2 w-56 rounded-md border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          <p className="truncate px-2 py-1 text-sm font-medium">{user.fullName ?? "Unknown User"}</p>
          <p className="truncate px-2 pb-2 text-xs text-slate-600 dark:text-slate-400">{user.email}</p>
          <Link to="/dashboard" className="block rounded px-2 py-1 text-sm hover:bg-slate-100 dark:hover:bg-slate-800">
            Dashboard
          </Link>
          <Form method="post" action="/logout">
            <button
              type="submit"
              className="w-full rounded px-2 py-1 text-left text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
            >
              Log out
            </button>
          </Form>
        </div>
      </details>
    </>
  );
}
