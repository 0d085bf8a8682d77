import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Avatar } from "~/components/avatar";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/forms";
import {
  cardClass,
  dangerButtonClass,
  IntentButton,
  RidePrice,
  RideRoute,
  RideWhen,
  SaveButton,
  ShareButton,
  shareText,
  smallPrimaryClass,
  StatusBadge,
} from "~/components/ride-ui";
import { formatRupees } from "~/domain/money";
import { CANCEL_REASON_MAX, CANCEL_WINDOW_MS, capitalise, costPerSeatPaise, NOTES_MAX } from "~/domain/rides";
import { formatDateTimeShort } from "~/domain/time";
import { formatRating } from "~/domain/rating";
import { ratingSummaries } from "~/models/ratings.server";
import { getRideDetail } from "~/models/rides.server";
import { requireUser } from "~/utils/auth.server";
import { handleRideIntent } from "~/utils/ride-actions.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && "ride" in data && data.ride ? `${data.ride.fromLocation} → ${data.ride.toLocation} | LoopRide` : "Ride | LoopRide" },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const detail = await getRideDetail(context, user.id, params.id ?? "");
  if (!detail) return data({ ride: null } as const, { status: 404 });
  const ratings = await ratingSummaries(context, [detail.ride.driverId]);
  return { ...detail, driverRating: formatRating(ratings[detail.ride.driverId]), now: Date.now() };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleRideIntent(request, context, user.id, await request.formData(), {
    allowed: ["accept", "reject", "cancel-request", "cancel-ride", "save", "unsave"],
    fallback: `/rides/${encodeURIComponent(params.id ?? "")}`,
  });
}

export default function RideDetail() {
  const loaded = useLoaderData<typeof loader>();
  if (!loaded.ride || !("isDriver" in loaded)) {
    return (
      <div className={`${cardClass} mx-auto max-w-xl text-center`}>
        <h1 className="text-2xl font-bold">Ride Not Found</h1>
        <p className="mt-2 text-slate-700 dark:text-slate-300">This ride does not exist or has been removed.</p>
        <Link to="/dashboard/my-rides" className={`${buttonClass} mt-4`}>Back to My Rides</Link>
      </div>
    );
  }
  const { ride, isDriver, requests, myRequest, saved, now, driverRating } = loaded;
  const available = ride.seats - ride.bookedSeats;
  const upcoming = ride.status === "active" && ride.departsAt > now;
  const here = `/rides/${ride.id}`;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <Link to="/rides" className="text-sm font-medium text-emerald-800 underline dark:text-emerald-300">Back to rides</Link>
      <section className={`${cardClass} flex items-center gap-4`} aria-label="Driver">
        <Avatar name={ride.driverName} url={ride.driverAvatarUrl} size="lg" />
        <div>
          <p className="text-xl font-bold">{ride.driverName ?? "Unknown Driver"}</p>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Driver · Rating: <span className="font-semibold" data-testid="driver-rating">{driverRating}</span>
            {ride.vehicleType ? ` · ${capitalise(ride.vehicleType)} car` : ""}
          </p>
          {ride.communityName ? <p className="text-sm text-slate-700 dark:text-slate-300">Shared with {ride.communityName}</p> : null}
        </div>
        <div className="ml-auto">
          <StatusBadge status={ride.status}>{ride.status === "active" ? `${available} seats available` : capitalise(ride.status)}</StatusBadge>
        </div>
      </section>

      <section className={`${cardClass} space-y-3`} aria-labelledby="ride-details">
        <h1 id="ride-details" className="text-2xl font-bold">
          <RideRoute from={ride.fromLocation} to={ride.toLocation} />
        </h1>
        <dl className="grid gap-3 text-sm sm:grid-cols-2">
          <div><dt className="text-slate-700 dark:text-slate-300">When</dt><dd className="font-medium"><RideWhen date={ride.date} time={ride.time} /></dd></div>
          <div><dt className="text-slate-700 dark:text-slate-300">Seats</dt><dd className="font-medium">{ride.bookedSeats} of {ride.seats} booked</dd></div>
          <div><dt className="text-slate-700 dark:text-slate-300">Trip cost</dt><dd className="font-medium">{formatRupees(ride.tripCostPaise)} for the whole trip</dd></div>
          {ride.distanceKm ? <div><dt className="text-slate-700 dark:text-slate-300">Distance</dt><dd className="font-medium">About {ride.distanceKm} km</dd></div> : null}
        </dl>
        <RidePrice tripCostPaise={ride.tripCostPaise} seats={ride.seats} bookedSeats={ride.bookedSeats} />
        {ride.notes ? <p className="rounded-md bg-slate-50 p-3 text-sm dark:bg-slate-800"><span className="font-semibold">Notes: </span>{ride.notes}</p> : null}
        <div className="flex flex-wrap gap-2">
          <SaveButton rideId={ride.id} saved={saved} redirectTo={here} />
          <ShareButton text={shareText(ride)} path={here} />
          {!isDriver ? <Link to={`/dashboard/messages?to=${ride.driverId}`} className={secondaryButtonClass}>Contact Driver</Link> : null}
        </div>
      </section>

      {!isDriver ? (
        <section className={cardClass} aria-labelledby="join">
          {myRequest?.status === "pending" ? (
            <div className="space-y-3">
              <h2 id="join" className="text-lg font-semibold">Request Pending</h2>
              <p className="text-slate-700 dark:text-slate-300">
                You asked for {myRequest.seats} seat{myRequest.seats === 1 ? "" : "s"}. The driver will respond soon.
              </p>
              <div className="flex flex-wrap gap-2">
                <Link to={`/booking-confirmation/${myRequest.id}`} className={secondaryButtonClass}>View booking</Link>
                <IntentButton intent="cancel-request" fields={{ requestId: myRequest.id, redirectTo: here }} className={dangerButtonClass}>Cancel</IntentButton>
              </div>
            </div>
          ) : myRequest?.status === "accepted" ? (
            <div className="space-y-3">
              <h2 id="join" className="text-lg font-semibold">Your seat is confirmed</h2>
              <p className="text-slate-700 dark:text-slate-300">
                {myRequest.seats} seat{myRequest.seats === 1 ? "" : "s"} booked. Seats can be cancelled up to 2 hours before departure.
              </p>
              <div className="flex flex-wrap gap-2">
                <Link to={`/booking-confirmation/${myRequest.id}`} className={secondaryButtonClass}>View booking</Link>
                <IntentButton intent="cancel-request" fields={{ requestId: myRequest.id, redirectTo: here }} className={dangerButtonClass}>Cancel my seat</IntentButton>
              </div>
            </div>
          ) : upcoming && available > 0 ? (
            <Form method="post" action={`/rides/${ride.id}/book`} className="space-y-4">
              {/* The booking route answers this form with the ride page's own toast. */}
              <input type="hidden" name="source" value="ride" />
              <h2 id="join" className="text-lg font-semibold">Request to join</h2>
              <div>
                <label htmlFor="join-seats" className="mb-1 block text-sm font-medium">Seats</label>
                <select id="join-seats" name="seats" defaultValue="1" className={inputClass}>
                  {Array.from({ length: available }, (_, i) => i + 1).map((n) => (
                    <option key={n} value={n}>{n} seat{n === 1 ? "" : "s"} · {formatRupees(costPerSeatPaise(ride.tripCostPaise, ride.seats) * n)}</option>
                  ))}
                </select>
              </div>
              <div>
                <label htmlFor="join-notes" className="mb-1 block text-sm font-medium">Message to the driver (optional)</label>
                <textarea id="join-notes" name="notes" rows={3} maxLength={NOTES_MAX} className={inputClass} placeholder="Where you'd like to be picked up..." />
              </div>
              {ride.communityId ? (
                // The per-seat figures above are what a rider owes unless the community split
                // applies, whose equal shares depend on who rides: say so before booking.
                <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="split-note">
                  {`Community ride: if the driver and every rider are members of ${ride.communityName ?? "its community"}, the trip cost of ${formatRupees(ride.tripCostPaise)} is split equally among the driver and the riders instead of per seat; the cost breakdown after the ride shows each share.`}
                </p>
              ) : null}
              <button type="submit" className={buttonClass}>Request to Join</button>
            </Form>
          ) : (
            <p id="join" className="text-slate-800 dark:text-slate-200">
              {ride.status !== "active" ? `This ride is ${ride.status}.` : !upcoming ? "This ride has already departed." : "This ride is full."}
            </p>
          )}
        </section>
      ) : (
        <>
          <section className={cardClass} aria-labelledby="requests">
            <h2 id="requests" className="text-lg font-semibold">Ride requests</h2>
            {requests.length === 0 ? (
              <p className="mt-2 text-slate-700 dark:text-slate-300">No requests yet.</p>
            ) : (
              <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
                {requests.map((r) => (
                  <li key={r.id} className="flex flex-wrap items-center gap-3 py-3" data-testid="ride-request">
                    <Avatar name={r.riderName} url={r.riderAvatarUrl} size="sm" />
                    <div className="min-w-0 flex-1">
                      <p className="font-medium">{r.riderName ?? "Unknown User"}</p>
                      <p className="text-sm text-slate-700 dark:text-slate-300">
                        {r.seats} seat{r.seats === 1 ? "" : "s"} · {formatDateTimeShort(r.createdAt)}
                      </p>
                      {r.notes ? <p className="text-sm"><span className="font-semibold">Message: </span>{r.notes}</p> : null}
                    </div>
                    <StatusBadge status={r.status} />
                    {r.status === "pending" && ride.status === "active" ? (
                      <div className="flex gap-2">
                        <IntentButton intent="accept" fields={{ requestId: r.id, redirectTo: here }} className={smallPrimaryClass}>Accept</IntentButton>
                        <IntentButton intent="reject" fields={{ requestId: r.id, redirectTo: here }} className={dangerButtonClass}>Reject</IntentButton>
                      </div>
                    ) : null}
                  </li>
                ))}
              </ul>
            )}
          </section>
          {ride.status === "active" ? (
            <section className={`${cardClass} space-y-3`} aria-labelledby="manage-ride">
              <h2 id="manage-ride" className="text-lg font-semibold">Complete Ride</h2>
              <p className="text-sm text-slate-700 dark:text-slate-300">
                After the trip, complete the ride to see the cost breakdown. Costs and payments are calculated automatically from community membership and splitting rules.
              </p>
              <div className="flex flex-wrap gap-2">
                {ride.bookedSeats > 0 ? (
                  <Link to={`/rides/${ride.id}/completion`} className={buttonClass}>Complete Ride</Link>
                ) : (
                  <p className="text-sm text-slate-700 dark:text-slate-300">A ride can be completed once at least one seat is booked.</p>
                )}
              </div>
              <CancelRideForm rideId={ride.id} redirectTo={here} late={ride.departsAt - now < CANCEL_WINDOW_MS} />
            </section>
          ) : null}
        </>
      )}
    </div>
  );
}

/**
 * The driver's Cancel Ride: a plain form. Within 2 hours of departure a reason is required
 * (the server checks it too) and goes to every rider in their notification.
 */
function CancelRideForm({ rideId, redirectTo, late }: { rideId: string; redirectTo: string; late: boolean }) {
  return (
    <Form method="post" preventScrollReset className="space-y-2 border-t border-slate-200 pt-3 dark:border-slate-800" data-testid="cancel-ride-form">
      <input type="hidden" name="rideId" value={rideId} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label htmlFor="cancel-reason" className="block text-sm font-medium">
        {late ? "Reason for cancelling (required within 2 hours of departure)" : "Reason for cancelling (optional)"}
      </label>
      {late ? (
        <p className="text-sm text-red-800 dark:text-red-300" id="cancel-reason-hint">
          This ride leaves in less than 2 hours. Your riders will be told at once, with your reason, and the cancellation is recorded as late.
        </p>
      ) : null}
      <textarea
        id="cancel-reason"
        name="reason"
        rows={2}
        maxLength={CANCEL_REASON_MAX}
        required={late}
        aria-describedby={late ? "cancel-reason-hint" : undefined}
        className={inputClass}
        placeholder="e.g. Car broke down on the way"
      />
      <button type="submit" name="intent" value="cancel-ride" className={dangerButtonClass}>Cancel Ride</button>
    </Form>
  );
}
