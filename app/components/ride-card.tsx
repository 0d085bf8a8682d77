import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formatRating, type RatingSummary } from "~/domain/rating";
import type { DiscoverRide } from "~/models/ride-discovery.server";
import { nearestMetroText } from "~/domain/metro-stations";
import { Avatar } from "./avatar";
import { RouteMap } from "./route-map";
import { detailTextClass } from "./styles";
import { VerifiedBadge } from "./verified-badge";
import {
  RidePrice,
  RideRoute,
  RideWhen,
  SaveButton,
  ShareButton,
  shareText,
  smallButtonClass,
  smallPrimaryClass,
} from "./ride-ui";

type CardFields = Omit<
  DiscoverRide,
  "saved" | "communityId" | "departsAt" | "distanceKm" | "notes" | "vehicleType" | "status" | "commuteId"
> & { saved: boolean };
type EmptyableKeys<T> = { [K in keyof T]-?: null extends T[K] ? K : T[K] extends boolean ? K : never }[keyof T];

/**
 * What a card shows of a Discover row, with its null and false fields left out (absent reads
 * the same here): the loader sends no more, as each field is serialised into the page (ADR 0025).
 */
export type RideCardData = Omit<CardFields, EmptyableKeys<CardFields>> & {
  [K in EmptyableKeys<CardFields>]?: Exclude<CardFields[K], null>;
} & { fromLat?: number; fromLng?: number; toLat?: number; toLng?: number; commuteId?: string };

/** A Discover row as the loader sends it to the page: the fields a card shows, none empty. */
export function toRideCard({
  communityId: _c,
  departsAt: _d,
  vehicleType: _v,
  commuteId: _m,
  ...card
}: DiscoverRide): RideCardData {
  return Object.fromEntries(Object.entries(card).filter(([, v]) => v !== null && v !== false)) as RideCardData;
}

/**
 * A Discover Rides card: driver, route, when, seats left, price, and the four actions. Its
 * links are discovered on navigation, not as they render: a data-discover attribute on each
 * link of 20 cards was over a kilobyte of a page near its 60 KB budget (ADR 0025).
 */
export function RideCard({
  ride,
  rating,
  matchFacts,
  pickupAt,
}: {
  ride: RideCardData;
  rating?: RatingSummary;
  matchFacts?: ReactNode;
  /**
   * A search's pickup along the route (issue 36); without it, the driver's start. null: the
   * pickup is a metro station the match facts name, so no "Nearest metro" line.
   */
  pickupAt?: { lat: number; lng: number } | null;
}) {
  const left = ride.seats - ride.bookedSeats;
  const full = left <= 0;
  const metro = nearestMetroText(
    pickupAt === undefined ? (ride.fromLat != null ? { lat: ride.fromLat, lng: ride.fromLng ?? NaN } : null) : pickupAt,
  );
  const route = (
    <Link to={`/rides/${ride.id}`} className="hover:underline" discover="none">
      <RideRoute from={ride.fromLocation} to={ride.toLocation} />
    </Link>
  );
  return (
    <li className="lr-card-stack" data-testid="ride-card">
      <div className="lr-row">
        <Avatar name={ride.driverName ?? null} url={ride.driverAvatarUrl} />
        <div className="min-w-0">
          <p className="truncate font-medium">{ride.driverName ?? "Unknown Driver"}</p>
          <p className="lr-caption" data-testid="driver-rating">
            {formatRating(rating)}
          </p>
          {ride.communityName ? <p className="lr-caption truncate">{ride.communityName}</p> : null}
          <VerifiedBadge badge={ride.driverVerified} />
          {ride.womenOnly || ride.womenLockBooked != null ? (
            <p className="text-xs font-medium text-emerald-900 dark:text-emerald-200" data-testid="women-only">
              {ride.womenOnly ? "Women only" : "Open seats for women"}
            </p>
          ) : null}
        </div>
        <span className="lr-detail ml-auto font-medium" data-testid="seats-left">
          {full ? "Full" : `${left} seat${left === 1 ? "" : "s"} left`}
        </span>
      </div>
      {ride.fromLat === undefined ? (
        // Discover's list: no points, no map, the markup as it was (its 20 cards are near 60 KB).
        route
      ) : (
        <div className="flex items-start justify-between gap-3">
          {route}
          <RouteMap
            size="small"
            from={{ name: ride.fromLocation, lat: ride.fromLat, lng: ride.fromLng }}
            to={{ name: ride.toLocation, lat: ride.toLat, lng: ride.toLng }}
          />
        </div>
      )}
      {metro ? (
        <p className={detailTextClass} data-testid="nearest-metro">
          {metro}
        </p>
      ) : null}
      <p className={detailTextClass}>
        <RideWhen date={ride.date} time={ride.time} />
      </p>
      {matchFacts}
      <RidePrice
        tripCostPaise={ride.tripCostPaise}
        seats={ride.seats}
        bookedSeats={ride.bookedSeats}
        pricingMode={ride.pricingMode}
        fairSeatPaise={ride.fairSeatPaise}
      />
      <div className="lr-card-actions">
        {ride.myRequestId ? (
          // Already asked: the viewer's own state, linking to their booking, not Book Now.
          <Link
            to={`/booking-confirmation/${ride.myRequestId}`}
            className={smallButtonClass}
            data-testid="my-request"
            discover="none"
          >
            {ride.myRequestStatus === "accepted" ? "Booked" : "Requested"}
          </Link>
        ) : full ? (
          <button type="button" disabled className={smallPrimaryClass}>
            Full
          </button>
        ) : ride.refused ? (
          // The seat rule refuses this viewer (a suspension, the driver's standing): the ride
          // page says why; no Book Now that could only be refused.
          <button type="button" disabled className={smallPrimaryClass} data-testid="not-bookable">
            Unavailable
          </button>
        ) : (
          <Link to={`/rides/${ride.id}/book`} className={smallPrimaryClass} discover="none">
            Book Now
          </Link>
        )}
        <Link
          to={`/dashboard/messages?to=${ride.driverId}&ride=${ride.id}`}
          className={smallButtonClass}
          discover="none"
        >
          Contact
        </Link>
        {/* No redirectTo: back to this page by its Referer (one long address less on each card). */}
        <SaveButton rideId={ride.id} saved={ride.saved ?? false} action="/rides?index" />
        <ShareButton text={shareText(ride)} path={`/rides/${ride.id}`} />
      </div>
    </li>
  );
}
