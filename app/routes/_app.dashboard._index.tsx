import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { handleNotificationIntent } from "~/intents/notifications.server";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { memo } from "react";
import { ConfirmEmailBanner } from "~/components/confirm-email-banner";
import { DashboardStats } from "~/components/dashboard-stats";
import { NextRides } from "~/components/next-rides";
import { NotificationsPanel } from "~/components/notifications-panel";
import { SavingsChart } from "~/components/savings-chart";
import { capitalise } from "~/domain/dashboard";
import { STATUS_LABEL } from "~/domain/profile-score";
import { relativeDate } from "~/domain/time";
import { parseCursor } from "~/domain/cursor";
import { dashboardFrom, dashboardReads } from "~/models/dashboard.server";
import { firstStepsFrom, firstStepsReads } from "~/models/first-steps.server";
import { FindYourCommute } from "~/components/find-your-commute";
import { ownProfileFrom, ownProfileRead } from "~/models/profiles.server";
import { requireUser, requireUserWith } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Dashboard | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const now = Date.now();
  // "Older notifications" (ADR 0025); an unreadable cursor is the newest page. The dashboard
  // and the profile's completion are read in the session's own round trip (ADR 0063).
  const before = parseCursor(new URL(request.url).searchParams.get("before"));
  const {
    user,
    page: [profileRows, ...rows],
    then: [nearby],
  } = await requireUserWith(
    request,
    context,
    (viewer) => [ownProfileRead(context.db, viewer), ...dashboardReads(context.db, viewer, now, before)] as const,
    // A rider without a car is led to finding a ride (issue 38): communities near home, which
    // needs the user's home, so it comes next (riders without a car only).
    { then: (user) => firstStepsReads(context.db, user) },
  );
  const dashboard = dashboardFrom(rows, now);
  const { profile, progress } = ownProfileFrom(profileRows);
  return {
    firstName: user.fullName?.trim().split(/\s+/)[0] || "User",
    progress,
    commute: firstStepsFrom(user, profile, nearby, now),
    // From the session's own read: the banner costs no round trip.
    email: { address: user.email, verified: user.emailVerified },
    now,
    ...dashboard,
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleNotificationIntent(request, context, user.id, await request.formData());
}

const STATUS_TONE: Record<string, string> = {
  completed: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-200",
  cancelled: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
};

export default function DashboardOverview() {
  // The unread count is the shell's badge (one capped count per page, not two).
  const unread =
    useRouteLoaderData<{ badges: { unreadNotifications: number } | null }>("routes/_app")?.badges
      ?.unreadNotifications ?? 0;
  return <Overview {...useLoaderData<typeof loader>()} unreadNotifications={unread} />;
}

// Memoised on the loader data's objects: route discovery's patch, just after hydration, re-renders
// every route component with the same data; the page's body is then skipped (ADR 0061).
const Overview = memo(function Overview(
  props: ReturnType<typeof useLoaderData<typeof loader>> & { unreadNotifications: number },
) {
  const { firstName, email, progress, nextRides, stats, recentRides, savings, notifications } = props;
  const { olderNotifications, now, commute, unreadNotifications } = props;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <h1 className="text-2xl font-bold">{`Welcome back, ${firstName}`}</h1>
      <ConfirmEmailBanner email={email.address} verified={email.verified} back="/dashboard" />
      <NextRides rides={nextRides} now={now} />
      {commute && recentRides.length === 0 && nextRides.length === 0 ? <FindYourCommute {...commute} /> : null}
      {progress.status !== "complete" ? (
        <section
          aria-labelledby="profile-progress"
          className="rounded-xl border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950"
        >
          <h2 id="profile-progress" className="font-semibold">
            Your profile is {progress.score}% complete ({STATUS_LABEL[progress.status]})
          </h2>
          <ul className="mt-2 list-inside list-disc text-sm">
            {progress.hints.map((h) => (
              <li key={h}>{h}</li>
            ))}
          </ul>
          <Link
            to="/profile-completion"
            className="mt-3 inline-block text-sm font-semibold text-emerald-800 underline dark:text-emerald-300"
          >
            Complete your profile
          </Link>
        </section>
      ) : null}

      <DashboardStats stats={stats} />

      <div className="grid gap-6 lg:grid-cols-2">
        <section
          aria-labelledby="recent-title"
          className="rounded-xl border border-slate-200 p-4 dark:border-slate-800"
        >
          <div className="flex items-center justify-between gap-2">
            <h2 id="recent-title" className="text-lg font-semibold">
              Recent Rides
            </h2>
            <Link
              to="/dashboard/my-rides"
              className="rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-900"
            >
              View All Rides
            </Link>
          </div>
          {recentRides.length === 0 && nextRides.length > 0 ? (
            <p className="py-8 text-center text-slate-700 dark:text-slate-300">No past rides yet</p>
          ) : recentRides.length === 0 ? (
            <div className="py-8 text-center">
              <p className="text-slate-700 dark:text-slate-300">No rides yet</p>
              <Link
                to={commute ? "#find-your-commute" : "/rides/create"}
                className="mt-2 inline-block font-semibold text-emerald-800 underline dark:text-emerald-300"
              >
                {commute ? "Find your commute" : "Create your first ride"}
              </Link>
            </div>
          ) : (
            <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-800" data-testid="recent-rides">
              {recentRides.map((r) => (
                <li key={r.id} className="flex items-start justify-between gap-3 py-3" data-testid="recent-ride">
                  <div className="min-w-0">
                    <p className="font-semibold">
                      <Link to={`/rides/${r.id}`} className="hover:underline">
                        {r.toLocation}
                      </Link>
                    </p>
                    <p className="text-sm text-slate-700 dark:text-slate-300">
                      {r.fromLocation} → {r.toLocation}
                    </p>
                    <p className="text-xs text-slate-600 dark:text-slate-400">
                      {relativeDate(r.date, now)} · {r.bookedSeats} {r.bookedSeats === 1 ? "seat" : "seats"} booked
                      {r.role === "rider" ? " (your seats)" : ""}
                    </p>
                    {r.driver ? (
                      <Link
                        to={`/dashboard/messages?to=${r.driver.id}`}
                        className="text-sm font-medium text-emerald-800 underline dark:text-emerald-300"
                      >
                        {`Message ${r.driver.fullName ?? "Unknown Driver"}`}
                      </Link>
                    ) : null}
                  </div>
                  <span
                    className={`shrink-0 rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_TONE[r.status] ?? "bg-blue-100 text-blue-900 dark:bg-blue-950 dark:text-blue-200"}`}
                  >
                    {capitalise(r.status)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <SavingsChart weeks={savings} />
        <Link to="/dashboard/settle-up" className="lr-link">
          Weekly settle-up
        </Link>
      </div>

      <NotificationsPanel
        notifications={notifications}
        unread={unreadNotifications}
        now={now}
        olderHref={olderNotifications ? `/dashboard?before=${olderNotifications}#notifications` : null}
      />
    </div>
  );
});
