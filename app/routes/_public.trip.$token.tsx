import { type HeadersFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData, useParams } from "@remix-run/react";
import { Avatar } from "~/components/avatar";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { cardClass, RideRoute, RideWhen } from "~/components/ride-ui";
import { RouteMap } from "~/components/route-map";
import { formatTime, istTime } from "~/domain/time";
import { TRIP_STAGE_LABEL, tripStage } from "~/domain/trip";
import { getSharedTrip } from "~/models/trip-shares.server";
import { orRespond } from "~/utils/errors.server";

// Share my trip (issue 37): the page someone without an account follows. Its URL is the
// secret, so it is never indexed, never sent on as a referrer, never cached; it reloads
// itself every minute (no JavaScript needed) to show the trip's status.

const SECRET_PAGE = {
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex, nofollow",
  "Cache-Control": "private, no-store",
};

export const headers: HeadersFunction = () => SECRET_PAGE;

export const meta: MetaFunction = () => [
  { title: "A shared trip | LoopRide" },
  { name: "robots", content: "noindex, nofollow" },
  { name: "referrer", content: "no-referrer" },
  { httpEquiv: "refresh", content: "60" },
];

export async function loader({ params, context }: LoaderFunctionArgs) {
  const trip = await orRespond(getSharedTrip(context, params.token ?? ""), {
    title: "This link does not work",
    message: "It may have been revoked, or the trip ended more than an hour ago.",
    back: { href: "/", label: "Go to LoopRide" },
  });
  return { trip, now: Date.now() };
}

const at = (ms: number) => formatTime(istTime(ms));

export default function SharedTrip() {
  const { trip } = useLoaderData<typeof loader>();
  const { token } = useParams();
  const stage = trip.cancelled ? null : tripStage(trip.tripStartedAt, trip.tripEndedAt);
  const { model, colour, registration } = trip.car;
  return (
    <div className="mx-auto max-w-2xl space-y-6 px-4 py-8">
      <section className={`${cardClass} space-y-3`} aria-labelledby="shared-trip">
        <p className="text-sm text-slate-700 dark:text-slate-300">Someone shared this LoopRide trip with you.</p>
        <h1 id="shared-trip" className="text-2xl font-bold">
          <RideRoute from={trip.fromLocation} to={trip.toLocation} />
        </h1>
        <p className="text-lg font-semibold" data-testid="shared-trip-status" role="status">
          {trip.cancelled ? "This ride was cancelled" : TRIP_STAGE_LABEL[stage!]}
        </p>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-700 dark:text-slate-300">Planned</dt>
            <dd className="font-medium">
              <RideWhen date={trip.date} time={trip.time} /> IST
            </dd>
          </div>
          {trip.tripStartedAt ? (
            <div>
              <dt className="text-slate-700 dark:text-slate-300">Started</dt>
              <dd className="font-medium">{at(trip.tripStartedAt)} IST</dd>
            </div>
          ) : null}
          {trip.sharedByRider && trip.sharerPickedUpAt ? (
            <div>
              <dt className="text-slate-700 dark:text-slate-300">Picked up</dt>
              <dd className="font-medium">{at(trip.sharerPickedUpAt)} IST</dd>
            </div>
          ) : null}
          {trip.sharedByRider && trip.sharerDroppedAt ? (
            <div>
              <dt className="text-slate-700 dark:text-slate-300">Dropped</dt>
              <dd className="font-medium">{at(trip.sharerDroppedAt)} IST</dd>
            </div>
          ) : null}
          {trip.tripEndedAt ? (
            <div>
              <dt className="text-slate-700 dark:text-slate-300">Ended</dt>
              <dd className="font-medium">{at(trip.tripEndedAt)} IST</dd>
            </div>
          ) : null}
        </dl>
        {trip.route.from && trip.route.to ? (
          <RouteMap from={trip.route.from} to={trip.route.to} vias={trip.route.vias} />
        ) : null}
      </section>
      <section className={`${cardClass} space-y-3`} aria-labelledby="shared-driver">
        <h2 id="shared-driver" className="text-lg font-semibold">
          Driver and car
        </h2>
        <div className="flex items-center gap-3">
          <Avatar name={trip.driverFirstName} url={trip.hasPhoto ? `/trip-photo/${token}` : null} size="lg" />
          <p className="font-medium" data-testid="shared-driver-name">
            {trip.driverFirstName}
          </p>
        </div>
        {model || colour || registration ? (
          <dl className="grid gap-2 text-sm sm:grid-cols-3">
            {model ? <Fact term="Car" value={model} /> : null}
            {colour ? <Fact term="Colour" value={colour} /> : null}
            {registration ? <Fact term="Registration" value={registration} /> : null}
          </dl>
        ) : (
          <p className="text-sm text-slate-700 dark:text-slate-300">The driver has not added their car's details.</p>
        )}
      </section>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        This page updates every minute and stops working an hour after the trip ends. LoopRide is not an emergency
        service and nobody watches trips: in an emergency, call{" "}
        <a href="tel:112" className="font-semibold underline">
          112
        </a>
        .
      </p>
    </div>
  );
}

function Fact({ term, value }: { term: string; value: string }) {
  return (
    <div>
      <dt className="text-slate-700 dark:text-slate-300">{term}</dt>
      <dd className="font-medium">{value}</dd>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
