import { formatRating, ratingFromTotals } from "~/domain/rating";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData, useLocation, useRevalidator } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { CalendarLink } from "~/components/calendar-link";
import {
  BookingTracker,
  bookingAmountPaise,
  DriverInfo,
  EcoImpact,
  QuickActions,
  TripDetails,
} from "~/components/booking-status";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { secondaryButtonClass } from "~/components/forms";
import { Confetti } from "~/components/ride-confetti";
import { usePoll } from "~/components/ride-ui";
import { costPerSeatPaise, type RequestStatus } from "~/domain/rides";
import { getRequestForViewer } from "~/models/ride-requests.server";
import { requireUser } from "~/utils/auth.server";
import { NOT_FOUND, orRespond } from "~/utils/errors.server";
import { handleRideIntent } from "~/intents/rides.server";

export const meta: MetaFunction = () => [{ title: "Booking Confirmation | LoopRide" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const booking = await orRespond(getRequestForViewer(context, user.id, params.requestId ?? ""), NOT_FOUND.booking);
  return {
    booking,
    isRider: booking.riderId === user.id,
    driverRating: formatRating(ratingFromTotals(booking.driverRatingCount, booking.driverRatingStars)),
    now: Date.now(),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleRideIntent(request, context, user.id, await request.formData(), {
    allowed: ["save", "unsave", "cancel-request"],
    fallback: `/booking-confirmation/${encodeURIComponent(params.requestId ?? "")}`,
  });
}

const SUBTITLE: Record<string, string> = {
  accepted: "Your ride is confirmed!",
  pending: "Waiting for driver confirmation...",
  expired: "This request expired: the driver did not answer it before the ride.",
};

export default function BookingConfirmation() {
  const loaded = useLoaderData<typeof loader>();
  const revalidator = useRevalidator();
  const location = useLocation();
  const booking = loaded.booking;
  const status = booking.status as RequestStatus;
  usePoll(3000, status === "pending", revalidator.revalidate, revalidator.state);
  // Confetti when the status turns accepted while watching (JS), or right after acceptance.
  const previous = useRef(status);
  const [celebrate, setCelebrate] = useState(
    Boolean(status === "accepted" && booking.decidedAt && loaded.now - booking.decidedAt < 60_000),
  );
  useEffect(() => {
    if (previous.current === "pending" && status === "accepted") setCelebrate(true);
    previous.current = status;
  }, [status]);

  const perSeat = costPerSeatPaise(booking.tripCostPaise, booking.rideSeats);
  const here = location.pathname;
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      {celebrate ? <Confetti /> : null}
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Booking Confirmation</h1>
          <p className="text-slate-800 dark:text-slate-200" data-testid="booking-subtitle">
            {SUBTITLE[status] ?? "Booking details"}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {status === "pending" || status === "accepted" ? <CalendarLink rideId={booking.rideId} /> : null}
          <Link to="/rides" className={secondaryButtonClass}>
            Find more rides
          </Link>
          <Link to="/dashboard" className={secondaryButtonClass}>
            Dashboard
          </Link>
        </div>
      </div>

      <BookingTracker booking={booking} status={status} serverNow={loaded.now} isRider={loaded.isRider} here={here} />

      <div className="grid gap-6 md:grid-cols-2">
        <TripDetails booking={booking} perSeat={perSeat} />

        <DriverInfo booking={booking} driverRating={loaded.driverRating} />

        <QuickActions booking={booking} here={here} />

        <EcoImpact seats={booking.seats} amountPaise={bookingAmountPaise(booking)} />
      </div>
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
