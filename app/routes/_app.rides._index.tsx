import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation } from "@remix-run/react";
import { memo } from "react";
import { DiscoverPagination } from "~/components/discover-pagination";
import { buttonClass, secondaryButtonClass } from "~/components/forms";
import { cardPickupAt, MatchFacts, NearSearchForm } from "~/components/near-search";
import { RideCard, toRideCard, type RideCardData } from "~/components/ride-card";
import { CityMapDefs, MapAttribution } from "~/components/route-map";
import { SavedSearchList, SaveSearchForm } from "~/components/saved-searches";
import { RideFilterForm } from "~/components/ride-filters";
import { RideStats } from "~/components/ride-stats";
import { cardClass } from "~/components/ride-ui";
import { istDate } from "~/domain/time";
import { ratingFromTotals } from "~/domain/rating";
import { discoverFrom, discoverReads, discoverRides, metroEnd } from "~/models/ride-discovery.server";
import { listSavedSearches, savedSearchesRead, toSavedSearchItems } from "~/models/saved-searches.server";
import { discoverFiltersSchema } from "~/schemas/ride-search";
import { parseNearSearch } from "~/utils/near-search.server";
import { requireUser, requireUserWith } from "~/utils/auth.server";
import { handleRideIntent } from "~/intents/rides.server";
import { handleSavedSearchIntent, isSavedSearchIntent } from "~/intents/saved-searches.server";

export const meta: MetaFunction = () => [{ title: "Discover Rides | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const filters = discoverFiltersSchema.parse(Object.fromEntries(url.searchParams));
  // From A to B around a time (when either place is given); a wrong value is a 400 with its message.
  const near = parseNearSearch(url.searchParams);
  const now = Date.now();
  const shown = { filters, today: istDate(now), near: near.form };
  if (!near.form) {
    // The list and the saved searches come in the session's own round trip (ADR 0063).
    const {
      page: [saved, ...rows],
    } = await requireUserWith(
      request,
      context,
      (viewer) => [savedSearchesRead(context.db, viewer), ...discoverReads(context.db, viewer, filters, now)] as const,
    );
    const result = discoverFrom(rows, filters, now);
    const rides = result.rides.map(toRideCard);
    return {
      ...result,
      rides,
      ...shown,
      canSave: false,
      invalidSearch: false,
      savedSearches: toSavedSearchItems(saved),
    };
  }
  const user = await requireUser(request, context);
  if (!near.search) {
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
        ...shown,
        canSave: false,
        invalidSearch: true,
        savedSearches: await listSavedSearches(context, user.id),
      },
      { status: 400 },
    );
  }
  // The saved searches come in the search's own batch: one round trip after the session's.
  const { also, ...result } = await discoverRides(context, user.id, filters, now, near.search, [
    savedSearchesRead(context.db, { userId: user.id }),
  ]);
  return {
    ...result,
    // A weekday search's card links its commute, to book every day at the pickup found (issue 36).
    rides: result.rides.map((r) =>
      near.search?.weekdays && r.commuteId ? { ...toRideCard(r), commuteId: r.commuteId } : toRideCard(r),
    ),
    ...shown,
    // An alert needs two points: "Any metro station" is not saved (ADR 0062).
    canSave: Boolean(!metroEnd(near.search)),
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

export default function DiscoverRides() {
  const { pathname, search } = useLocation();
  return <Discover {...useLoaderData<typeof loader>()} search={search} here={pathname + search} />;
}

// Memoised on the loader data's objects and the address: route discovery's patch, just after
// hydration, re-renders every route component with the same data; the list is then skipped
// instead of rendered a second time (ADR 0061, as the dashboard's body).
const Discover = memo(function Discover(
  props: ReturnType<typeof useLoaderData<typeof loader>> & { search: string; here: string },
) {
  const { rides, hasMore, nextAfter, prevBefore, reachedStart, found, foundMore, stats, filters, today } = props;
  const { near, canSave, invalidSearch, savedSearches, search, here } = props;
  const mapped = rides.some((r) => r.fromLat !== undefined);
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Discover Rides</h1>
        <Link to="/rides/create" className={buttonClass}>
          Create Ride
        </Link>
      </div>

      {stats ? <RideStats stats={stats} /> : null}

      <NearSearchForm form={near ?? { values: {}, errors: {}, options: {} }} today={today} />
      <SavedSearchList items={savedSearches} redirectTo={here} />

      <RideFilterForm filters={filters} today={today} />

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
        <>
          {/* Only a distance search's cards carry points and draw maps (Discover's list would pass 60 KB). */}
          {mapped ? <CityMapDefs /> : null}
          <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
            {rides.map((r) => (
              <RideCard
                key={r.id}
                ride={r}
                rating={ratingFromTotals(r.driverRatingCount, r.driverRatingStars)}
                pickupAt={cardPickupAt(r.match, near?.values.from)}
                matchFacts={
                  r.match && near ? (
                    <MatchFacts
                      match={r.match}
                      from={near.values.from}
                      to={near.values.to}
                      route={[r.fromLocation, ...(r.vias ?? []), r.toLocation]}
                      rideId={r.id}
                      commuteId={r.commuteId}
                    />
                  ) : null
                }
              />
            ))}
          </ul>
          {mapped ? <MapAttribution /> : null}
        </>
      )}

      {canSave && near ? <SaveSearchForm values={near.values} redirectTo={here} /> : null}

      <DiscoverPagination
        search={search}
        page={filters.page}
        reachedStart={reachedStart}
        hasMore={hasMore}
        nextAfter={nextAfter}
        prevBefore={prevBefore}
      />
    </div>
  );
});
