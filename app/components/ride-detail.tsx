import { Form, Link } from "@remix-run/react";
import { SafetyLink } from "./safety-link";
import { smallButtonClass } from "./styles";
import type { ReactNode } from "react";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/forms";
import { RequestCard } from "~/components/request-card";
import { VerifiedBadge } from "~/components/verified-badge";
import { cardClass, dangerButtonClass, IntentButton, StatusBadge } from "~/components/ride-ui";
import { mutedTextClass } from "~/components/styles";
import { Avatar } from "~/components/avatar";
import { formatRupees } from "~/domain/money";
import { CANCEL_REASON_MAX, capitalise, NOTES_MAX, TOO_EARLY_TO_COMPLETE } from "~/domain/rides";
import type { getRideDetail } from "~/models/rides.server";
import { mayShareEqually, shownMaxPaise, shownPriceText } from "~/domain/cost-split";

// The panels of the ride page (/rides/:id): the rider's join panel, and the driver's
// requests list, Complete Ride section and Cancel Ride form.

type Detail = NonNullable<Awaited<ReturnType<typeof getRideDetail>>>;
type Ride = Detail["ride"];

/** Who drives, their rating and car, the community the ride is shared with, and the seats left. */
export function DriverCard({
  ride,
  available,
  driverRating,
  isDriver,
}: {
  ride: Ride;
  available: number;
  driverRating: string;
  isDriver?: boolean;
}) {
  return (
    <section className={`${cardClass} flex items-center gap-4`} aria-label="Driver">
      <Avatar name={ride.driverName} url={ride.driverAvatarUrl} size="lg" />
      <div>
        <p className="text-xl font-bold">{ride.driverName ?? "Unknown Driver"}</p>
        <VerifiedBadge badge={ride.driverVerified} />
        <p className={`text-sm ${mutedTextClass}`}>
          {"Driver · Rating: "}
          <span className="font-semibold" data-testid="driver-rating">
            {driverRating}
          </span>
          {ride.vehicleType ? ` · ${capitalise(ride.vehicleType)} car` : ""}
        </p>
        {ride.communityName ? <p className={`text-sm ${mutedTextClass}`}>Shared with {ride.communityName}</p> : null}
        {/* Each link on a line of its own: inline, the two ran together ("see every dayReport or block"). */}
        {ride.commuteId ? (
          <p>
            <Link
              to={`/commutes/${ride.commuteId}`}
              className="text-sm font-medium text-emerald-800 underline dark:text-emerald-300"
            >
              A recurring commute: see every day
            </Link>
          </p>
        ) : null}
        {isDriver ? null : (
          <p>
            <SafetyLink personId={ride.driverId} from="ride" name={ride.driverName} />
          </p>
        )}
      </div>
      <div className="ml-auto">
        <StatusBadge status={ride.status}>
          {ride.status === "active"
            ? `${available} seat${available === 1 ? "" : "s"} available`
            : capitalise(ride.status)}
        </StatusBadge>
      </div>
    </section>
  );
}

/** The rider's side: their pending or accepted request, the join form, or why they cannot join. */
export function JoinPanel({
  ride,
  myRequest,
  available,
  refusal,
  closedReason,
  here,
}: {
  ride: Ride;
  myRequest: Detail["myRequest"];
  available: number;
  /** Why the seat rule refuses the viewer a seat (null: the form is shown). */
  refusal: string | null;
  closedReason: string | null;
  here: string;
}) {
  return (
    <section className={cardClass} aria-labelledby="join">
      {myRequest?.status === "pending" ? (
        <MyRequest
          request={myRequest}
          heading="Request Pending"
          cancelLabel="Cancel"
          closedReason={closedReason}
          here={here}
        >
          You asked for {myRequest.seats} seat{myRequest.seats === 1 ? "" : "s"}. The driver will respond soon.
        </MyRequest>
      ) : myRequest?.status === "accepted" ? (
        <MyRequest
          request={myRequest}
          heading="Your seat is confirmed"
          cancelLabel="Cancel my seat"
          closedReason={closedReason}
          here={here}
        >
          {myRequest.seats} seat{myRequest.seats === 1 ? "" : "s"} booked. Seats can be cancelled up to 2 hours before
          departure.
        </MyRequest>
      ) : !refusal ? (
        <Form method="post" action={`/rides/${ride.id}/book`} className="space-y-4">
          {/* The booking route answers this form with the ride page's own toast. */}
          <input type="hidden" name="source" value="ride" />
          <h2 id="join" className="text-lg font-semibold">
            Request to join
          </h2>
          <div>
            <label htmlFor="join-seats" className="mb-1 block text-sm font-medium">
              Seats
            </label>
            <select id="join-seats" name="seats" defaultValue="1" className={inputClass}>
              {Array.from({ length: available }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n} seat{n === 1 ? "" : "s"} ·{" "}
                  {shownPriceText(shownMaxPaise(ride.tripCostPaise, ride.seats, n, ride.pricingMode), ride)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="join-notes" className="mb-1 block text-sm font-medium">
              Message to the driver (optional)
            </label>
            <textarea
              id="join-notes"
              name="notes"
              rows={3}
              maxLength={NOTES_MAX}
              className={inputClass}
              placeholder="Where you'd like to be picked up..."
            />
          </div>
          {mayShareEqually(ride) ? (
            // The community split's equal shares depend on who rides; the per-seat figures
            // above are their ceiling (ADR 0046): say so before booking.
            <p className={`text-sm ${mutedTextClass}`} data-testid="split-note">
              {`Community ride: if the driver and every rider are members of ${ride.communityName ?? "its community"}, the trip cost of ${formatRupees(
                ride.tripCostPaise,
              )} is split equally among the driver and the riders instead of per seat, and you never pay more than the price above; the cost breakdown after the ride shows each share.`}
            </p>
          ) : null}
          <button type="submit" className={buttonClass}>
            Request to Join
          </button>
        </Form>
      ) : (
        <p id="join" className="text-slate-800 dark:text-slate-200">
          {refusal}
        </p>
      )}
    </section>
  );
}

/** The rider's own pending or accepted request: what it is, its booking page and (while it can change) Cancel. */
function MyRequest({
  request,
  heading,
  cancelLabel,
  closedReason,
  here,
  children,
}: {
  request: { id: string };
  heading: string;
  cancelLabel: string;
  closedReason: string | null;
  here: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-3">
      <h2 id="join" className="text-lg font-semibold">
        {heading}
      </h2>
      <p className={mutedTextClass}>{children}</p>
      <div className="flex flex-wrap gap-2">
        <Link to={`/booking-confirmation/${request.id}`} className={secondaryButtonClass}>
          View booking
        </Link>
        {closedReason ? null : (
          <IntentButton
            intent="cancel-request"
            fields={{ requestId: request.id, redirectTo: here }}
            className={dangerButtonClass}
          >
            {cancelLabel}
          </IntentButton>
        )}
      </div>
      {closedReason ? (
        <p className={`text-sm ${mutedTextClass}`} data-testid="requests-closed">
          {closedReason}
        </p>
      ) : null}
    </div>
  );
}

/** The driver's list of requests on this ride, with Accept/Reject while they can still change. */
export function RideRequests({
  requests,
  closedReason,
  here,
}: {
  requests: Detail["requests"];
  closedReason: string | null;
  here: string;
}) {
  return (
    <section className={cardClass} aria-labelledby="requests">
      <h2 id="requests" className="text-lg font-semibold">
        Ride requests
      </h2>
      {requests.length === 0 ? (
        <p className={`mt-2 ${mutedTextClass}`}>No requests yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200 dark:divide-slate-800">
          {requests.map((r) => (
            <RequestCard
              key={r.id}
              request={r}
              redirectTo={here}
              canDecide={!closedReason}
              className="space-y-2 py-3"
              testId="ride-request"
            />
          ))}
        </ul>
      )}
    </section>
  );
}

export function CompleteRideSection({
  ride,
  tooEarly,
  late,
  here,
}: {
  ride: Ride;
  tooEarly: boolean;
  late: boolean;
  here: string;
}) {
  return (
    <section className={`${cardClass} space-y-3`} aria-labelledby="manage-ride">
      <h2 id="manage-ride" className="text-lg font-semibold">
        Complete Ride
      </h2>
      <p className={`text-sm ${mutedTextClass}`}>
        After the trip, complete the ride to see the cost breakdown. Costs and payments are calculated automatically
        from community membership and splitting rules.
      </p>
      <div className="flex flex-wrap gap-2">
        {ride.bookedSeats > 0 && tooEarly ? (
          <p className={`text-sm ${mutedTextClass}`} data-testid="complete-too-early">
            {TOO_EARLY_TO_COMPLETE}
          </p>
        ) : ride.bookedSeats > 0 ? (
          <Link to={`/rides/${ride.id}/completion`} className={buttonClass}>
            Complete Ride
          </Link>
        ) : (
          <p className={`text-sm ${mutedTextClass}`}>A ride can be completed once at least one seat is booked.</p>
        )}
      </div>
      <CancelRideForm rideId={ride.id} redirectTo={here} late={late} />
    </section>
  );
}

/**
 * The driver's Cancel Ride: a plain form. Within 2 hours of departure a reason is required
 * (the server checks it too) and goes to every rider in their notification.
 */
function CancelRideForm({ rideId, redirectTo, late }: { rideId: string; redirectTo: string; late: boolean }) {
  return (
    <Form
      method="post"
      preventScrollReset
      className="space-y-2 border-t border-slate-200 pt-3 dark:border-slate-800"
      data-testid="cancel-ride-form"
    >
      <input type="hidden" name="rideId" value={rideId} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label htmlFor="cancel-reason" className="block text-sm font-medium">
        {late ? "Reason for cancelling (required within 2 hours of departure)" : "Reason for cancelling (optional)"}
      </label>
      {late ? (
        <p className="text-sm text-red-800 dark:text-red-300" id="cancel-reason-hint">
          This ride leaves in less than 2 hours. Your riders will be told at once, with your reason, and the
          cancellation is recorded as late.
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
      <button type="submit" name="intent" value="cancel-ride" className={dangerButtonClass}>
        Cancel Ride
      </button>
    </Form>
  );
}

/**
 * Issue 16: whether the ride's seats are for women (the rule's effect only; nobody's gender is
 * shown), and for a woman driver once a woman has booked, the comfort lock.
 */
export function WomenSeats({ ride, canLock, here }: { ride: Ride; canLock: boolean; here: string }) {
  const note = ride.womenOnly
    ? "Women only: only women can book seats on this ride."
    : ride.womenLockBooked !== null
      ? "The remaining seats on this ride are for women only."
      : null;
  if (!note && !canLock) return null;
  return (
    <section className={`${cardClass} space-y-2`} aria-label="Women's seats" data-testid="women-seats">
      {note ? <p className="font-medium">{note}</p> : null}
      {note ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Whoever books says so in their own Settings or profile ("Your gender"); it is never shown to anyone, the
          driver included. Riders booked before the seats were locked keep them.
        </p>
      ) : null}
      {canLock ? (
        <Form method="post" className="space-y-2">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            A woman has booked a seat. You can keep the seats still open for women only; riders already booked keep
            their seats.
          </p>
          <input type="hidden" name="intent" value="women-lock" />
          <input type="hidden" name="rideId" value={ride.id} />
          <input type="hidden" name="redirectTo" value={here} />
          <button type="submit" className={smallButtonClass}>
            Lock remaining seats to women
          </button>
        </Form>
      ) : null}
    </section>
  );
}
