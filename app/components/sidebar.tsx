import { Form, Link, NavLink } from "@remix-run/react";
import { Avatar } from "./avatar";
import { badgeText } from "./badge-count";
import { Logo } from "./brand";
import { type Badges, useLiveBadges } from "./live-badges";
import { smallPrimaryClass } from "./styles";

type SidebarUser = { fullName: string | null; email: string | null; avatarUrl: string | null; hasCar?: boolean };

// Utilities in app/app.css: this menu is on every signed-in page (ADR 0025).
const linkClass = ({ isActive }: { isActive: boolean }) => (isActive ? "lr-nav lr-nav-on" : "lr-nav lr-nav-off");

function Badge({ count, label, testId }: { count: number; label: string; testId: string }) {
  if (count <= 0) return <span data-testid={testId} data-count="0" className="ml-auto hidden" />;
  return (
    <span
      data-testid={testId}
      data-count={count}
      className="ml-auto rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white"
    >
      {badgeText(count)}
      <span className="sr-only"> {label}</span>
    </span>
  );
}

export function SidebarNav({ user, badges: loaderBadges }: { user: SidebarUser; badges: Badges }) {
  // A live badge frame's counts, while the shell's loader data they replaced is current.
  const badges = useLiveBadges(loaderBadges);
  return (
    <div className="flex h-full flex-col gap-4 p-4">
      <Logo className="sidebar-label" />
      {/* The main call follows the dashboard's (issue 38): a rider without a car finds a ride. */}
      {user.hasCar === false ? (
        <Link to="/dashboard#find-your-commute" className={smallPrimaryClass}>
          Find your commute
        </Link>
      ) : (
        <Link to="/rides/create" className={smallPrimaryClass}>
          Create Ride
        </Link>
      )}
      <nav aria-label="Dashboard" className="flex flex-col gap-1">
        <NavLink to="/dashboard" end className={linkClass}>
          Overview
        </NavLink>
        <NavLink to="/dashboard/rides" className={linkClass}>
          My Rides <Badge count={badges.pendingRequests} label="pending booking requests" testId="badge-my-rides" />
        </NavLink>
        <NavLink to="/rides" end className={linkClass}>
          Find Rides
        </NavLink>
        <NavLink to="/communities" className={linkClass}>
          Communities
        </NavLink>
        {user.hasCar === false ? (
          <NavLink to="/rides/create" className={linkClass}>
            Create Ride
          </NavLink>
        ) : null}
        <NavLink to="/dashboard/messages" className={linkClass}>
          Messages <Badge count={badges.unreadMessages} label="unread messages" testId="badge-messages" />
        </NavLink>
        <NavLink to="/dashboard/profile" className={linkClass}>
          Profile
        </NavLink>
        <NavLink to="/dashboard/settings" className={linkClass}>
          Settings
        </NavLink>
      </nav>
      <div className="mt-auto border-t border-slate-200 pt-4 dark:border-slate-800">
        <div className="flex items-center gap-3">
          <Avatar name={user.fullName} url={user.avatarUrl} size="sm" />
          <div className="min-w-0">
            <p className="truncate text-sm font-medium">{user.fullName ?? "Unknown User"}</p>
            <p className="truncate text-xs text-slate-600 dark:text-slate-400">{user.email}</p>
          </div>
        </div>
        <Form method="post" action="/logout" className="mt-3">
          <button
            type="submit"
            className="w-full rounded-md border border-slate-300 px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-700 dark:hover:bg-slate-800"
          >
            Sign Out
          </button>
        </Form>
      </div>
    </div>
  );
}
