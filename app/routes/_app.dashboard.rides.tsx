import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useLocation, useRevalidator, useRouteLoaderData } from "@remix-run/react";
import { badgeText } from "~/components/badge-count";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/forms";
import { BookedRideList, CreatedRideList, Empty, RequestCard } from "~/components/my-rides";
import { cardClass, smallButtonClass, usePoll } from "~/components/ride-ui";
import { getMyRides } from "~/models/rides.server";
import { myRidesQuerySchema } from "~/schemas/rides";
import { requireUser } from "~/utils/auth.server";
import { handleRideIntent } from "~/utils/ride-actions.server";

export const meta: MetaFunction = () => [{ title: "My Rides | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const query = myRidesQuerySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const { created, booked, requests, counts } = await getMyRides(context, user.id, query);
  return { query, created, booked, requests, counts };
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

const FILTERS = [
  { key: "all", label: "All" },
  { key: "pending", label: "Pending" },
  { key: "accepted", label: "Accepted" },
  { key: "rejected", label: "Rejected" },
] as const;

const EMPTY_TEXT: Record<string, string> = {
  all: "Requests from passengers for your active rides will appear here.",
  pending: "There are no pending requests right now.",
  accepted: "You haven't accepted any requests yet.",
  rejected: "You haven't rejected any requests.",
};

export default function MyRides() {
  const { query, created, booked, requests, counts } = useLoaderData<typeof loader>();
  const location = useLocation();
  const revalidator = useRevalidator();
  // Other tabs do not load the requests; the shell's (capped) badge count serves there.
  const shell = useRouteLoaderData<{ badges: { pendingRequests: number } | null }>("routes/_app");
  const pendingBadge = query.tab === "manage" ? counts.pending : (shell?.badges?.pendingRequests ?? 0);
  usePoll(10_000, query.tab === "manage", revalidator.revalidate, revalidator.state);
  const here = location.pathname + location.search;
  const base = location.pathname;
  const manageHref = (status: string) => `${base}?tab=manage${status !== "all" ? `&status=${status}` : ""}${query.q ? `&q=${encodeURIComponent(query.q)}` : ""}`;
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">My Rides</h1>
        <Link to="/rides/create" className={buttonClass}>Create New Ride</Link>
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
              <span className="ml-2 rounded-full bg-red-700 px-2 py-0.5 text-xs text-white">{badgeText(pendingBadge)}</span>
            ) : null}
          </Link>
        ))}
      </nav>

      {query.tab === "created" ? (
        created.length === 0 ? (
          <Empty title="You haven't created any rides yet">
            <Link to="/rides/create" className={`${buttonClass} mt-4`}>Create Your First Ride</Link>
          </Empty>
        ) : (
          <CreatedRideList rides={created} manageHref={`${base}?tab=manage`} />
        )
      ) : null}

      {query.tab === "booked" ? (
        booked.length === 0 ? (
          <Empty title="You haven't booked any rides yet">
            <Link to="/rides" className={`${buttonClass} mt-4`}>Find Rides to Book</Link>
          </Empty>
        ) : (
          <BookedRideList bookings={booked} redirectTo={here} />
        )
      ) : null}

      {query.tab === "manage" ? (
        <div className="space-y-4">
          <div className="flex flex-wrap items-center gap-2">
            <Link to={here} className={smallButtonClass} reloadDocument={false}>Refresh</Link>
            <span className="rounded-full bg-amber-100 px-3 py-1 text-sm font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-50">Pending {counts.pending}</span>
            <span className="rounded-full bg-emerald-100 px-3 py-1 text-sm font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-50">Accepted {counts.accepted}</span>
          </div>
          <Form method="get" className="flex gap-2" role="search">
            <input type="hidden" name="tab" value="manage" />
            {query.status !== "all" ? <input type="hidden" name="status" value={query.status} /> : null}
            <label htmlFor="manage-q" className="sr-only">Search requests</label>
            <input id="manage-q" name="q" type="search" defaultValue={query.q} placeholder="Search by passenger name or location..." className={inputClass} />
            <button type="submit" className={secondaryButtonClass}>Search</button>
          </Form>
          <nav aria-label="Filter requests" className="flex flex-wrap gap-2">
            {FILTERS.map((f) => (
              <Link
                key={f.key}
                to={manageHref(f.key)}
                aria-current={query.status === f.key ? "page" : undefined}
                className={`rounded-full border px-3 py-1 text-sm font-medium ${
                  query.status === f.key
                    ? "border-emerald-700 bg-emerald-700 text-white"
                    : "border-slate-400 text-slate-800 hover:bg-slate-50 dark:border-slate-600 dark:text-slate-100 dark:hover:bg-slate-800"
                }`}
              >
                {f.label}
              </Link>
            ))}
          </nav>
          {counts.activeRides === 0 ? (
            <Empty title="No active rides found">
              <p className="mt-1 text-slate-700 dark:text-slate-300">Create a ride to start receiving booking requests.</p>
              <Link to="/rides/create" className={`${buttonClass} mt-4`}>Create a Ride</Link>
            </Empty>
          ) : requests.length === 0 ? (
            <Empty title="No requests found">
              <p className="mt-1 text-slate-700 dark:text-slate-300">{query.q ? "No requests match your search." : EMPTY_TEXT[query.status]}</p>
            </Empty>
          ) : (
            <ul className="space-y-3">
              {requests.map((r) => (
                <RequestCard key={r.id} r={r} redirectTo={here} />
              ))}
            </ul>
          )}
          <section aria-label="Summary" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {[
              ["Active Rides", counts.activeRides],
              ["Pending Requests", counts.pending],
              ["Accepted", counts.accepted],
              ["Rejected", counts.rejected],
            ].map(([label, n]) => (
              <div key={label} className={`${cardClass} text-center`}>
                <p className="text-2xl font-bold">{n}</p>
                <p className="text-sm text-slate-700 dark:text-slate-300">{label}</p>
              </div>
            ))}
          </section>
        </div>
      ) : null}
    </div>
  );
}
