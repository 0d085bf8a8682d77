import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { useState } from "react";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/forms";
import { MatchFacts, NearSearchForm } from "~/components/near-search";
import { RideCard, toRideCard, type RideCardData } from "~/components/ride-card";
import { SavedSearchList, SaveSearchForm } from "~/components/saved-searches";
import { cardClass } from "~/components/ride-ui";
import { CO2_KG_PER_SEAT, MAX_COST_SLIDER } from "~/domain/rides";
import { istDate } from "~/domain/time";
import { ratingFromTotals } from "~/domain/rating";
import { discoverRides } from "~/models/ride-discovery.server";
import { listSavedSearches, savedSearchesQuery, toSavedSearchItems } from "~/models/saved-searches.server";
import { discoverFiltersSchema } from "~/schemas/ride-search";
import { parseNearSearch } from "~/utils/near-search.server";
import { requireUser } from "~/utils/auth.server";
import { handleRideIntent } from "~/intents/rides.server";
import { handleSavedSearchIntent, isSavedSearchIntent } from "~/intents/saved-searches.server";

export const meta: MetaFunction = () => [{ title: "Discover Rides | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const url = new URL(request.url);
  const filters = discoverFiltersSchema.parse(Object.fromEntries(url.searchParams));
  // From A to B around a time (when either place is given); a wrong value is a 400 with its message.
  const near = parseNearSearch(url.searchParams);
  if (near.form && !near.search) {
    return data(
      {
        rides: [] as RideCardData[],
        hasMore: false,
        nextAfter: null,
        prevBefore: null,
        reachedStart: false,
        found: 0,
        foundMore: false,
        stats: null,
        filters,
        today: istDate(),
        near: near.form,
        canSave: false,
        invalidSearch: true,
        savedSearches: await listSavedSearches(context, user.id),
      },
      { status: 400 },
    );
  }
  // The saved searches come in Discover's own batch: one round trip after the session's.
  const { also, ...result } = await discoverRides(context, user.id, filters, Date.now(), near.search, [
    savedSearchesQuery(context.db, user.id),
  ]);
  return {
    ...result,
    rides: result.rides.map(toRideCard),
    filters,
    today: istDate(),
    near: near.form,
    canSave: Boolean(near.search),
    invalidSearch: false,
    savedSearches: toSavedSearchItems(also[0]),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const formData = await request.formData();
  if (isSavedSearchIntent(formData)) return handleSavedSearchIntent(request, context, user.id, formData, "/rides");
  return handleRideIntent(request, context, user.id, formData, { allowed: ["save", "unsave"], fallback: "/rides" });
}

/**
 * A page's link: "Next page" carries the last ride shown (`after`), "Previous page" the first
 * (`before`); page 1 and a page number alone count from the start (ADR 0038).
 */
function pageHref(search: string, page: number, cursor: { after?: string | null; before?: string | null } = {}) {
  const params = new URLSearchParams(search);
  if (page <= 1) params.delete("page");
  else params.set("page", String(page));
  for (const key of ["after", "before"] as const) {
    const value = page > 1 ? cursor[key] : null;
    if (value) params.set(key, value);
    else params.delete(key);
  }
  const qs = params.toString();
  return qs ? `/rides?${qs}` : "/rides";
}

export default function DiscoverRides() {
  const {
    rides,
    hasMore,
    nextAfter,
    prevBefore,
    reachedStart,
    found,
    foundMore,
    stats,
    filters,
    today,
    near,
    canSave,
    invalidSearch,
    savedSearches,
  } = useLoaderData<typeof loader>();
  const location = useLocation();
  const [maxCost, setMaxCost] = useState(filters.maxCost);
  const here = location.pathname + location.search;
  const filtersOpen = filters.maxCost < 50 || filters.community || filters.women || Boolean(filters.date);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Discover Rides</h1>
        <Link to="/rides/create" className={buttonClass}>
          Create Ride
        </Link>
      </div>

      {stats ? (
        <section aria-label="Ride stats" className="grid gap-3 rounded-xl bg-emerald-800 p-5 text-white sm:grid-cols-3">
          <div>
            <p className="text-3xl font-bold" data-testid="stat-rides">
              {stats.rides}
            </p>
            <p className="text-sm text-emerald-50">public rides available</p>
          </div>
          <div>
            <p className="text-3xl font-bold" data-testid="stat-seats">
              {stats.seatsOpen}
            </p>
            <p className="text-sm text-emerald-50">seats open on public rides</p>
          </div>
          <div>
            <p
              className="text-3xl font-bold"
              data-testid="stat-co2"
            >{`${(stats.bookedSeats * CO2_KG_PER_SEAT).toLocaleString("en-IN")} kg`}</p>
            <p className="text-sm text-emerald-50">CO2 saved by shared seats on public rides</p>
          </div>
        </section>
      ) : null}

      <NearSearchForm form={near ?? { values: {}, errors: {}, options: {} }} today={today} />
      <SavedSearchList items={savedSearches} redirectTo={here} />

      <Form method="get" action="/rides" className={`${cardClass} space-y-4`} role="search">
        <label htmlFor="q" className="-mb-2 block text-sm font-medium">
          Search rides
        </label>
        <div className="flex gap-2">
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={filters.q}
            placeholder="Search by place, e.g. Koramangala"
            className={inputClass}
          />
          <button type="submit" className={buttonClass}>
            Search
          </button>
        </div>
        <details open={filtersOpen || undefined} className="group">
          <summary className="cursor-pointer select-none text-sm font-semibold text-emerald-800 dark:text-emerald-300">
            Filters
          </summary>
          <div className="mt-3 grid gap-4 sm:grid-cols-3">
            <div>
              <label htmlFor="maxCost" className="mb-1 block text-sm font-medium">
                Max cost per seat: <output htmlFor="maxCost">{maxCost >= 50 ? "Any" : `₹${maxCost}`}</output>
              </label>
              <input
                id="maxCost"
                name="maxCost"
                type="range"
                min={MAX_COST_SLIDER.min}
                max={MAX_COST_SLIDER.max}
                step={MAX_COST_SLIDER.step}
                defaultValue={filters.maxCost}
                onChange={(e) => setMaxCost(Number(e.currentTarget.value))}
                className="w-full accent-emerald-700"
              />
              <p className="text-xs text-slate-700 dark:text-slate-300">₹5 to ₹50; ₹50 means any price.</p>
            </div>
            <div className="flex items-center gap-2 pt-6">
              <input
                id="community"
                name="community"
                type="checkbox"
                value="1"
                defaultChecked={filters.community}
                className="h-4 w-4 accent-emerald-700"
              />
              <label htmlFor="community" className="text-sm font-medium">
                Community rides only
              </label>
            </div>
            <div className="flex items-center gap-2 pt-6">
              <input
                id="women"
                name="women"
                type="checkbox"
                value="1"
                defaultChecked={filters.women}
                className="h-4 w-4 accent-emerald-700"
              />
              <label htmlFor="women" className="text-sm font-medium">
                Women-only rides
              </label>
            </div>
            <div>
              <label htmlFor="date" className="mb-1 block text-sm font-medium">
                Date
              </label>
              <input id="date" name="date" type="date" min={today} defaultValue={filters.date} className={inputClass} />
            </div>
          </div>
          <div className="mt-3 flex gap-2">
            <button type="submit" className={buttonClass}>
              Apply filters
            </button>
            <Link to="/rides" className={secondaryButtonClass}>
              Reset
            </Link>
          </div>
        </details>
      </Form>

      {/* A search with a mistake in it was not run: "0 rides found" would say there are none. */}
      <p className="font-medium" role="status" data-testid="rides-found">
        {invalidSearch
          ? "Correct the search above to see rides."
          : `${found}${foundMore ? "+" : ""} ${found === 1 ? "ride" : "rides"} found`}
      </p>

      {invalidSearch ? (
        <Link to="/rides" className={secondaryButtonClass}>
          Clear Search
        </Link>
      ) : rides.length === 0 ? (
        <div className={`${cardClass} text-center`}>
          <h2 className="text-lg font-semibold">No rides found</h2>
          <p className="mt-1 text-slate-700 dark:text-slate-300">Try another place or loosen the filters.</p>
          <Link to="/rides" className={`${secondaryButtonClass} mt-4`}>
            Clear Search
          </Link>
        </div>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
          {rides.map((r) => (
            <RideCard
              key={r.id}
              ride={r}
              redirectTo={here}
              rating={ratingFromTotals(r.driverRatingCount, r.driverRatingStars)}
              matchFacts={
                r.match && near ? <MatchFacts match={r.match} from={near.values.from} to={near.values.to} /> : null
              }
            />
          ))}
        </ul>
      )}

      {canSave && near ? <SaveSearchForm values={near.values} redirectTo={here} /> : null}

      {(filters.page > 1 && !reachedStart) || hasMore ? (
        <nav aria-label="Pagination" className="flex justify-between">
          {filters.page > 1 && !reachedStart ? (
            <Link
              to={pageHref(location.search, filters.page - 1, { before: prevBefore })}
              className={secondaryButtonClass}
              data-testid="previous-page"
            >
              Previous page
            </Link>
          ) : (
            <span />
          )}
          {hasMore ? (
            <Link
              to={pageHref(location.search, filters.page + 1, { after: nextAfter })}
              className={secondaryButtonClass}
              data-testid="next-page"
            >
              Next page
            </Link>
          ) : null}
        </nav>
      ) : null}
    </div>
  );
}
