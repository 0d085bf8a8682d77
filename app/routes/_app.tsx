import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Outlet, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { memo } from "react";
import { badgeText } from "~/components/badge-count";
import { LiveUserUpdates } from "~/components/live";
import { PublicFooter } from "~/components/public-footer";
import { PublicHeader } from "~/components/public-header";
import { SidebarNav } from "~/components/sidebar";
import type { RootLoader } from "~/root";
import { getShellBadges, getUser } from "~/utils/auth.server";

// The dashboard shell. Each child route guards itself (the community list is open to
// visitors, who get the public header instead of the sidebar).
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getUser(request, context);
  return { badges: user ? await getShellBadges(request, context, user) : null };
}

// Skipped while the user and the badges are the same objects: route discovery's patch after
// hydration re-renders every route component with unchanged data (ADR 0061).
const Sidebar = memo(SidebarNav);

export default function DashboardLayout() {
  // No page changes the counts while loading (a GET never writes), so the shell's own read is current.
  const { badges } = useLoaderData<typeof loader>();
  const root = useRouteLoaderData<RootLoader>("root");
  const user = root?.user;
  if (!user || !badges) {
    return (
      <div className="flex min-h-screen flex-col">
        <PublicHeader user={null} />
        <main id="main" className="flex-1">
          <Outlet />
        </main>
        <PublicFooter />
      </div>
    );
  }
  return (
    <div className="min-h-screen md:flex">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      {/* Desktop: collapsible with a checkbox (no JavaScript needed). */}
      <input type="checkbox" id="sidebar-collapse" className="peer sr-only" aria-label="Collapse sidebar" />
      {/* One sidebar, rendered once (issue 40: it was two copies, 3 KB each): a column on a wide
          screen; on a phone a slide-over opened by the Menu link's #fragment (CSS :target) and
          closed by another. app/app.css, "The shell's sidebar". */}
      <aside id="mobile-sidebar" className="lr-sidebar">
        <a href="#" aria-label="Close menu" className="lr-sidebar-backdrop" />
        <div className="lr-sidebar-panel">
          <a href="#" className="lr-sidebar-close">
            Close
          </a>
          <Sidebar user={user} badges={badges} />
        </div>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-14 items-center gap-3 border-b border-slate-200 px-4 dark:border-slate-800">
          <a
            href="#mobile-sidebar"
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium md:hidden dark:border-slate-700"
          >
            Menu
          </a>
          <label
            htmlFor="sidebar-collapse"
            className="hidden cursor-pointer rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium md:inline-block dark:border-slate-700"
          >
            Toggle sidebar
          </label>
          <a
            href="/dashboard#notifications"
            className="ml-auto rounded-md px-2 py-1 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800"
          >
            Notifications
            {badges.unreadNotifications > 0 ? (
              <span
                data-testid="badge-notifications"
                className="ml-1 rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white"
              >
                {badgeText(badges.unreadNotifications)}
              </span>
            ) : null}
          </a>
        </header>
        <main id="main" className="flex-1 p-4 md:p-8">
          <Outlet />
        </main>
      </div>
      <LiveUserUpdates />
    </div>
  );
}
