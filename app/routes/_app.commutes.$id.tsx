import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { DriverDays, PatternForms, RegularRiders, RiderBooking } from "~/components/commute-page";
import { OtherLeg, PatternSummary } from "~/components/commute-ui";
import { RouteMap } from "~/components/route-map";
import { CommuteWomen } from "~/components/commute-women";
import { BackLink, RideRoute } from "~/components/ride-ui";
import { formatRating, ratingFromTotals } from "~/domain/rating";
import { istDate } from "~/domain/time";
import { getCommutePage } from "~/models/commutes.server";
import { requireUser } from "~/utils/auth.server";
import { handleCommuteIntent } from "~/intents/commutes.server";
import { orRespond } from "~/utils/errors.server";

export const meta: MetaFunction = () => [{ title: "Commute | LoopRide" }];

// Ids are URL-safe (newId); anything else cannot be a commute, and would not be safe to
// put back into the redirect's Location header.
const commuteId = (params: { id?: string }) => {
  if (!params.id || !/^[A-Za-z0-9_-]{1,64}$/.test(params.id)) throw new Response("Commute not found", { status: 404 });
  return params.id;
};

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const now = Date.now();
  // ?pickup=: the place a weekday search found the rider at (issue 36), offered as the pickup.
  const searched = new URL(request.url).searchParams.get("pickup");
  const page = await orRespond(getCommutePage(context, user.id, commuteId(params), now, searched));
  const { driverRatingCount, driverRatingStars } = page.commute;
  const driverRating = formatRating(ratingFromTotals(driverRatingCount, driverRatingStars));
  return { ...page, driverRating, now, today: istDate(now), searched };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleCommuteIntent(request, context, user.id, commuteId(params), await request.formData());
}

export default function Commute() {
  const { commute, other, driverRating, isDriver, occurrences, requests, bookings, pickups, searched, now, today } =
    useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <BackLink href={isDriver ? "/dashboard/rides" : "/rides"}>Back</BackLink>
        <h1 className="text-2xl font-bold">Commute</h1>
      </div>
      <div className="space-y-1">
        <RideRoute from={commute.fromLocation} to={commute.toLocation} />
        <PatternSummary c={commute} />
        <OtherLeg other={other} />
        <p className="text-sm text-slate-800 dark:text-slate-200">
          Driver: {commute.driverName ?? "Unknown Driver"} · Rating:{" "}
          <span className="font-semibold" data-testid="driver-rating">
            {driverRating}
          </span>
          {commute.communityName ? ` · shared with ${commute.communityName}` : ""}
        </p>
        {commute.notes ? (
          <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800" data-testid="commute-notes">
            <span className="font-semibold">Notes: </span>
            {commute.notes}
          </p>
        ) : null}
      </div>
      <RouteMap
        from={{ name: commute.fromLocation, lat: commute.fromLat, lng: commute.fromLng }}
        to={{ name: commute.toLocation, lat: commute.toLat, lng: commute.toLng }}
        pickup={isDriver ? null : bookings[0]?.pickup}
      />
      <CommuteWomen commute={commute} here={`/commutes/${commute.id}`} />
      {isDriver ? (
        <>
          <RegularRiders requests={requests} bookings={bookings} />
          <DriverDays occurrences={occurrences} requests={requests} now={now} />
          {commute.status === "active" ? <PatternForms commute={commute} today={today} /> : null}
        </>
      ) : (
        <RiderBooking
          commute={commute}
          hasOtherLeg={other?.status === "active"}
          occurrences={occurrences}
          requests={requests}
          bookings={bookings}
          pickups={pickups}
          searched={searched}
          now={now}
          today={today}
        />
      )}
    </div>
  );
}
