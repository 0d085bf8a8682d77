import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { CommunityCard } from "~/components/community-card";
import { CreateCommunityDialog } from "~/components/community-form";
import { inputClass, secondaryButtonClass } from "~/components/forms";
import { handleMembershipIntent } from "~/intents/community-membership.server";
import { listCommunities } from "~/models/communities.server";
import { communityListQuerySchema } from "~/schemas/communities";
import { getUser, requireUser } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Communities | LoopRide" }];

const TABS = [
  { type: null, label: "All Communities" },
  { type: "residential", label: "Residential" },
  { type: "workplace", label: "Workplace" },
  { type: "interest", label: "Interest" },
] as const;

function readQuery(url: URL) {
  return communityListQuerySchema.parse({
    q: url.searchParams.get("q") ?? "",
    type: url.searchParams.get("type") || null,
    page: url.searchParams.get("page") ?? 1,
  });
}

function listHref(q: string, type: string | null, page = 1) {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  if (type) params.set("type", type);
  if (page > 1) params.set("page", String(page));
  const s = params.toString();
  return s ? `/communities?${s}` : "/communities";
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getUser(request, context);
  const query = readQuery(new URL(request.url));
  // A failed read is not "no communities": it reaches the boundary below, in the app's layout.
  const { communities, hasMore } = await listCommunities(context, user?.id ?? null, query);
  return { ...query, communities, hasMore, signedIn: Boolean(user) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const back = listHref(readQuery(url).q, readQuery(url).type, readQuery(url).page);
  const user = await getUser(request, context);
  if (!user) {
    return redirectWithToast(request, context.env, `/login?redirectTo=${encodeURIComponent(back)}`, {
      title: "Authentication Required",
      description: "Please sign in to join communities.",
      type: "info",
    });
  }
  // Not only signed in: an unfinished onboarding is sent there first.
  await requireUser(request, context);
  return handleMembershipIntent(request, context, user.id, await request.formData(), back);
}

/**
 * A failed read in the spec's words, inside the app's layout. The page's writes answer through
 * app/intents (a redirect with a toast), so what reaches here is a read that did not happen.
 */
export function ErrorBoundary() {
  return (
    <p role="alert" className="mx-auto max-w-6xl p-6 text-red-800 dark:text-red-300">
      Failed to load communities. Please try again.
    </p>
  );
}

export default function CommunitiesPage() {
  const { q, type, page, communities, hasMore, signedIn } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-6 md:px-0">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold">Communities</h1>
          <p className="text-slate-700 dark:text-slate-300">
            Join your neighbourhood, workplace or interest group to find ride partners.
          </p>
        </div>
        <CreateCommunityDialog signedIn={signedIn} />
      </div>

      <Form method="get" role="search" className="flex flex-wrap items-end gap-3">
        {type ? <input type="hidden" name="type" value={type} /> : null}
        <div className="min-w-60 flex-1">
          <label htmlFor="community-search" className="mb-1 block text-sm font-medium">
            Search communities
          </label>
          <input
            id="community-search"
            type="search"
            name="q"
            defaultValue={q}
            maxLength={100}
            placeholder="Search by name"
            className={inputClass}
          />
        </div>
        <button type="submit" className={secondaryButtonClass}>
          Search
        </button>
      </Form>

      <nav aria-label="Filter by type">
        <ul className="flex flex-wrap gap-2 border-b border-slate-200 dark:border-slate-800">
          {TABS.map((t) => {
            const active = (type ?? null) === t.type;
            return (
              <li key={t.label}>
                <Link
                  to={listHref(q, t.type)}
                  aria-current={active ? "page" : undefined}
                  className={`-mb-px inline-block border-b-2 px-3 py-2 text-sm font-medium ${
                    active
                      ? "border-emerald-700 text-emerald-900 dark:border-emerald-400 dark:text-emerald-200"
                      : "border-transparent text-slate-700 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white"
                  }`}
                >
                  {t.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>

      {communities.length === 0 ? (
        <div className="rounded-xl border border-dashed border-slate-300 p-8 text-center dark:border-slate-700">
          <p className="font-semibold">No communities found</p>
          <p className="text-slate-700 dark:text-slate-300">
            {q ? "Try a different search, or create the community yourself." : "Be the first to create one."}
          </p>
        </div>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {communities.map((c) => (
            <CommunityCard key={c.id} community={c} />
          ))}
        </ul>
      )}

      {page > 1 || hasMore ? (
        <nav aria-label="Pages" className="flex justify-between">
          {page > 1 ? (
            <Link to={listHref(q, type, page - 1)} className={secondaryButtonClass}>
              Previous page
            </Link>
          ) : (
            <span />
          )}
          {hasMore ? (
            <Link to={listHref(q, type, page + 1)} className={secondaryButtonClass}>
              Next page
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
