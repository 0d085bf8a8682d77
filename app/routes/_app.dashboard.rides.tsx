import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { badgeText } from "~/components/badge-count";
import { buttonClass, secondaryButtonClass } from "~/components/forms";
import { CommuteCards } from "~/components/commute-ui";
import { BookedRideList, CreatedRideList, Empty, ManageBookings } from "~/components/my-rides";
import { usePoll } from "~/components/ride-ui";
import { driverCommutesFrom, driverCommutesQueries } from "~/models/commutes.server";
import { istDate } from "~/domain/time";
import { getMyRides, manageBookingsFrom, manageBookingsRead } from "~/models/my-rides.server";
import { myRidesQuerySchema } from "~/schemas/ride-search";
import { requireUser, requireUserWith } from "~/utils/auth.server";
import { handleRideIntent } from "~/intents/rides.server";

export const meta: MetaFunction = () => [{ title: "My Rides | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const query = myRidesQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const now = Date.now();
  // The IST date the weeks are counted from ("This week", "Next week").
  const page = { query, created: [], booked: [], moreCursor: null, commutes: [], today: istDate(now) };
  if (query.tab === "manage") {
    // Manage Bookings' one read comes in the session's own round trip (ADR 0069).
    const {
      page: [rows],
    } = await requireUserWith(request, context, (viewer) => [manageBookingsRead(context.db, viewer, now)] as const);
    return { ...page, ...manageBookingsFrom(rows, query, now) };
  }
  const user = await requireUser(request, context);
  // Created Rides shows the driver's commutes too, read in the same batch.
  const created = query.tab === "created";
  const {
    created: rides,
    booked,
    requests,
    counts,
    moreCursor,
    also,
  } = await getMyRides(context, user.id, query, now, created ? driverCommutesQueries(context.db, user.id) : []);
  return {
    ...page,
    created: rides,
    booked,
    requests,
    counts,
    moreCursor,
    commutes: created ? driverCommutesFrom(also) : [],
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleRideIntent(request, context, user.id, await request.formData(), {
    allowed: ["accept", "reject", "cancel-request"],
    fallback: "/dashboard/rides?tab=manage",
  });
}

const TABS = [
  { key: "created", label: "Created Rides" },
  { key: "booked", label: "Booked Rides" },
  { key: "manage", label: "Manage Bookings" },
] as const;

export default function MyRides() {
  const { query, created, booked, requests, counts, moreCursor, commutes, today } = useLoaderData<typeof loader>();
  const location = useLocation();
  const revalidator = useRevalidator();
  // Other tabs do not load the requests; the shell's (capped) badge count serves there.
  const shell = useRouteLoaderData<{ badges: { pendingRequests: number } | null }>("routes/_app");
  const pendingBadge = query.tab === "manage" ? counts.pending : (shell?.badges?.pendingRequests ?? 0);
  usePoll(10_000, query.tab === "manage", revalidator.revalidate, revalidator.state);
  const here = location.pathname + location.search;
  const base = location.pathname;
  const manageHref = (status: string) =>
    `${base}?tab=manage${status !== "all" ? `&status=${status}` : ""}${query.q ? `&q=${encodeURIComponent(query.q)}` : ""}`;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">My Rides</h1>
        <div className="flex flex-wrap gap-2">
          <Link to="/dashboard/settle-up" className={secondaryButtonClass}>
            Weekly settle-up
          </Link>
          <Link to="/commutes/new" className={secondaryButtonClass}>
            Publish a Commute
          </Link>
          <Link to="/rides/create" className={buttonClass}>
            Create New Ride
          </Link>
        </div>
      </div>
      <nav aria-label="My Rides tabs" className="flex gap-1 border-b border-slate-200 dark:border-slate-800">
        {TABS.map((t) => (
          <Link
            key={t.key}
            to={`${base}?tab=${t.key}`}
            aria-current={query.tab === t.key ? "page" : undefined}
            className={`-mb-px border-b-2 px-4 py-2 text-sm font-semibold ${
              query.tab === t.key
                ? "border-emerald-700 text-emerald-900 dark:border-emerald-400 dark:text-emerald-200"
                : "border-transparent text-slate-700 hover:text-slate-950 dark:text-slate-300 dark:hover:text-white"
            }`}
          >
            {t.label}
            {t.key === "manage" && pendingBadge > 0 ? (
              <span className="ml-2 rounded-full bg-red-700 px-2 py-0.5 text-xs text-white">
                {badgeText(pendingBadge)}
              </span>
            ) : null}
          </Link>
        ))}
      </nav>

      {query.tab === "created" ? <CommuteCards commutes={commutes} /> : null}

      {query.tab === "created" ? (
        created.length === 0 && commutes.length === 0 ? (
          <Empty title="You haven't created any rides yet">
            <Link to="/rides/create" className={`${buttonClass} mt-4`}>
              Create Your First Ride
            </Link>
          </Empty>
        ) : (
          <CreatedRideList
            rides={created}
            today={today}
            manageHref={`${base}?tab=manage`}
            moreHref={moreCursor ? `${base}?tab=created&after=${moreCursor}` : null}
          />
        )
      ) : null}

      {query.tab === "booked" ? (
        booked.length === 0 ? (
          <Empty title="You haven't booked any rides yet">
            <Link to="/rides" className={`${buttonClass} mt-4`}>
              Find Rides to Book
            </Link>
          </Empty>
        ) : (
          <BookedRideList
            bookings={booked}
            today={today}
            redirectTo={here}
            moreHref={moreCursor ? `${base}?tab=booked&after=${moreCursor}` : null}
          />
        )
      ) : null}

      {query.tab === "manage" ? (
        <ManageBookings
          query={query}
          requests={requests}
          counts={counts}
          here={here}
          manageHref={manageHref}
          moreHref={moreCursor ? `${manageHref(query.status)}&after=${moreCursor}` : null}
        />
      ) : null}
    </div>
  );
}
