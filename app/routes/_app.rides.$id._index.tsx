import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { CalendarLink } from "~/components/calendar-link";
import { PickupOrder } from "~/components/pickup-select";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { secondaryButtonClass } from "~/components/forms";
import { textLinkClass } from "~/components/styles";
import { CompleteRideSection, DriverCard, JoinPanel, RideRequests, WomenSeats } from "~/components/ride-detail";
import { cardClass, RidePrice, RideRoute, RideWhen, SaveButton, ShareButton, shareText } from "~/components/ride-ui";
import { formatRupees } from "~/domain/money";
import { CANCEL_WINDOW_MS, COMPLETE_EARLY_MS, requestsClosedReason } from "~/domain/rides";
import { formatRating, ratingFromTotals } from "~/domain/rating";
import { formatTime, istTime } from "~/domain/time";
import { getRideDetail } from "~/models/rides.server";
import { reliabilityFrom, rideDriverReliabilityQueries } from "~/models/reliability.server";
import { ReliabilityRecord } from "~/components/reliability";
import { RouteMap } from "~/components/route-map";
import { requireUser } from "~/utils/auth.server";
import { NOT_FOUND, orRespond } from "~/utils/errors.server";
import { handleRideIntent } from "~/intents/rides.server";
import { TripDayPanel } from "~/components/trip-day";
import { TRIP_DAY_READS, tripDayFrom, tripDayQueries } from "~/models/trip.server";
import { siteOrigin, tripShareCookie, tripShareUrl } from "~/utils/trip-share.server";
import { DayContacts } from "~/components/day-contacts";
import { dayContactsFrom, rideContactsQuery } from "~/models/ride-contacts.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data ? `${data.ride.fromLocation} → ${data.ride.toLocation} | LoopRide` : "Ride | LoopRide" },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  // Issue 16: the driver's reliability record beside the stars, read in the ride's own batch
  // (the stars are totals on the driver's profile).
  const id = params.id ?? "";
  const now = Date.now();
  // Issue 37: the trip on the day (status, pickup code, share links) and the day's contacts
  // (numbers, the car) in the same batch. The statements are built once per isolate (ADR 0069).
  const { also, ...detail } = await orRespond(
    getRideDetail(context, user.id, id, now, {
      key: "ride-page",
      make: (v) => [
        ...tripDayQueries(context, v.viewerId, v.rideId, v.now, v.today),
        rideContactsQuery(context.db, v.viewerId, v.rideId, v.now),
        ...rideDriverReliabilityQueries(context.db, v.rideId),
      ],
    }),
    NOT_FOUND.ride,
  );
  const driverRating = formatRating(ratingFromTotals(detail.ride.driverRatingCount, detail.ride.driverRatingStars));
  const trip = tripDayFrom(also.slice(0, TRIP_DAY_READS), user.id);
  const dayContacts = dayContactsFrom(also[TRIP_DAY_READS]);
  const made = await tripShareCookie(request, context.env).parse(request);
  const link =
    made && trip.shares.some((s) => s.id === made.shareId)
      ? tripShareUrl(siteOrigin(request, context.env), made.token)
      : null;
  const reliability = reliabilityFrom(also.slice(TRIP_DAY_READS + 1));
  return { ...detail, driverRating, reliability, trip, link, dayContacts, now };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleRideIntent(request, context, user.id, await request.formData(), {
    allowed: ["accept", "reject", "cancel-request", "cancel-ride", "save", "unsave", "women-lock"],
    fallback: `/rides/${encodeURIComponent(params.id ?? "")}`,
  });
}

export default function RideDetail() {
  const loaded = useLoaderData<typeof loader>();
  const { ride, isDriver, requests, myRequest, saved, now, driverRating, canLockToWomen, reliability, joinRefusal } =
    loaded;
  const { trip, link, dayContacts } = loaded;
  const available = ride.seats - ride.bookedSeats;
  // Why requests on this ride can no longer change (completed, cancelled, departed), shown instead of the buttons.
  const closedReason = requestsClosedReason(ride, now);
  const tooEarlyToComplete = now < ride.departsAt - COMPLETE_EARLY_MS;
  const here = `/rides/${ride.id}`;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <Link to="/rides" className={textLinkClass}>
        Back to rides
      </Link>
      <TripDayPanel rideId={ride.id} isDriver={isDriver} trip={trip} link={link} summary={shareText(ride)} />
      <DriverCard ride={ride} available={available} driverRating={driverRating} isDriver={isDriver} />
      <ReliabilityRecord
        record={reliability}
        title={isDriver ? "Your reliability record" : "Driver's reliability record"}
      />

      <section className={`${cardClass} space-y-3`} aria-labelledby="ride-details">
        <h1 id="ride-details" className="text-2xl font-bold">
          <RideRoute from={ride.fromLocation} to={ride.toLocation} />
        </h1>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-700 dark:text-slate-300">When</dt>
            <dd className="font-medium">
              <RideWhen date={ride.date} time={ride.time} />
            </dd>
          </div>
          <div>
            <dt className="text-slate-700 dark:text-slate-300">Seats</dt>
            <dd className="font-medium">
              {ride.bookedSeats} of {ride.seats} booked
            </dd>
          </div>
          <div>
            <dt className="text-slate-700 dark:text-slate-300">Trip cost</dt>
            <dd className="font-medium">{formatRupees(ride.tripCostPaise)} for the whole trip</dd>
          </div>
          {ride.distanceKm ? (
            <div>
              <dt className="text-slate-700 dark:text-slate-300">Distance</dt>
              <dd className="font-medium">About {ride.distanceKm} km</dd>
            </div>
          ) : null}
        </dl>
        <RidePrice
          tripCostPaise={ride.tripCostPaise}
          seats={ride.seats}
          bookedSeats={ride.bookedSeats}
          pricingMode={ride.pricingMode}
          fairSeatPaise={ride.fairSeatPaise}
        />
        {ride.notes ? (
          <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800">
            <span className="font-semibold">Notes: </span>
            {ride.notes}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <SaveButton rideId={ride.id} saved={saved} redirectTo={here} />
          <ShareButton text={shareText(ride)} path={here} />
          {!isDriver ? (
            <Link to={`/dashboard/messages?to=${ride.driverId}&ride=${ride.id}`} className={secondaryButtonClass}>
              Contact Driver
            </Link>
          ) : null}
          {isDriver || myRequest ? <CalendarLink rideId={ride.id} /> : null}
        </div>
        <RouteMap
          from={{ name: ride.fromLocation, lat: ride.fromLat, lng: ride.fromLng }}
          to={{ name: ride.toLocation, lat: ride.toLat, lng: ride.toLng }}
          vias={loaded.map.vias}
          pickup={loaded.map.pickup && { ...loaded.map.pickup, time: formatTime(istTime(loaded.map.pickup.at)) }}
        />
      </section>

      <DayContacts contacts={dayContacts} rideId={ride.id} />
      <WomenSeats ride={ride} canLock={canLockToWomen} here={here} />
      {!isDriver ? (
        <JoinPanel
          ride={ride}
          myRequest={myRequest}
          available={available}
          refusal={joinRefusal}
          closedReason={closedReason}
          here={here}
        />
      ) : (
        <>
          <PickupOrder pickups={loaded.pickups} />
          <RideRequests requests={requests} closedReason={closedReason} here={here} />
          {ride.status === "active" ? (
            <CompleteRideSection
              ride={ride}
              tooEarly={tooEarlyToComplete}
              late={ride.departsAt - now < CANCEL_WINDOW_MS}
              here={here}
            />
          ) : null}
        </>
      )}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
