import { Link } from "@remix-run/react";
import { weekdaysLabel } from "~/domain/commutes";
import { formatRupees, seatPricePaise } from "~/domain/money";
import { weekdayName } from "~/domain/ride-weeks";
import { formatDate, formatTime } from "~/domain/time";
import { RideRoute, StatusBadge } from "./ride-ui";
import { cardClass, smallPrimaryClass } from "./styles";

// The pieces of the commute screens (issue 14): the pattern summary and My Rides' commute
// card. The weekday checkboxes are in commute-form.tsx (the publish page's JS stays small).

/** "Thu, Dec 3, 2026": the weekday beside every date a commuter plans by. */
const dayAndDate = (date: string) => `${weekdayName(date)}, ${formatDate(date)}`;

export function PatternSummary({
  c,
}: {
  c: {
    weekdays: number;
    time: string;
    seats: number;
    tripCostPaise: number;
    startDate: string;
    endDate: string | null;
    status: string;
  };
}) {
  return (
    <p className="text-sm text-slate-800 dark:text-slate-200" data-testid="commute-pattern">
      {weekdaysLabel(c.weekdays)} at {formatTime(c.time)} · {c.seats} seat{c.seats === 1 ? "" : "s"} ·{" "}
      {/* A rider pays a seat, not the trip: the seat price first (ADR 0010's rounding). */}
      <span data-testid="commute-seat-price">{formatRupees(seatPricePaise(c.tripCostPaise, c.seats))} a seat</span> (
      {formatRupees(c.tripCostPaise, { decimals: 0 })} a trip) · from {dayAndDate(c.startDate)}
      {c.endDate ? ` to ${dayAndDate(c.endDate)}` : ""}
      {c.status === "ended" ? " · ended" : ""}
    </p>
  );
}

/**
 * The other leg of a commute with a return (ADR 0048), on each leg's page: "Return: leaves
 * Electronic City Phase 1 at 6:00 PM" on the outward one, "Morning: leaves …" on the return.
 */
export function OtherLeg({
  other,
}: {
  other: { id: string; fromLocation: string; time: string; status: string; returnOf: string | null } | null;
}) {
  if (!other) return null;
  const isReturn = other.returnOf !== null;
  return (
    <p className="text-sm text-slate-800 dark:text-slate-200" data-testid="other-leg">
      {`${isReturn ? "Return" : "Morning"}: leaves ${other.fromLocation} at ${formatTime(other.time)}`}
      {other.status === "ended" ? " · ended" : ""} ·{" "}
      <Link to={`/commutes/${other.id}`} className="underline">
        {isReturn ? "See the return" : "See the morning commute"}
      </Link>
    </p>
  );
}

type Card = {
  id: string;
  fromLocation: string;
  toLocation: string;
  weekdays: number;
  time: string;
  seats: number;
  tripCostPaise: number;
  startDate: string;
  endDate: string | null;
  status: string;
  next: { id: string; date: string; time: string; seats: number; bookedSeats: number; status: string }[];
};

/** My Rides: one card per commute, with its next occurrences. */
export function CommuteCards({ commutes }: { commutes: Card[] }) {
  if (commutes.length === 0) return null;
  return (
    <section aria-labelledby="my-commutes" className="space-y-3">
      <h2 id="my-commutes" className="text-lg font-semibold">
        My commutes
      </h2>
      <ul className="grid gap-4 md:grid-cols-2">
        {commutes.map((c) => (
          <li key={c.id} className={`${cardClass} space-y-2`} data-testid="commute-card">
            <div className="flex items-center gap-2">
              <RideRoute from={c.fromLocation} to={c.toLocation} />
              <span className="ml-auto">
                <StatusBadge status={c.status === "ended" ? "cancelled" : "active"}>
                  {c.status === "ended" ? "Ended" : "Recurring"}
                </StatusBadge>
              </span>
            </div>
            <PatternSummary c={c} />
            {c.next.length ? (
              <ul className="text-sm text-slate-800 dark:text-slate-200" aria-label="Next days">
                {c.next.map((o) => (
                  <li key={o.id}>
                    <Link to={`/rides/${o.id}`} className="underline">
                      {dayAndDate(o.date)} · {formatTime(o.time)}
                    </Link>{" "}
                    {o.status === "cancelled" ? "(skipped)" : `· ${o.bookedSeats}/${o.seats} seats booked`}
                  </li>
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-700 dark:text-slate-300">No upcoming days.</p>
            )}
            <Link to={`/commutes/${c.id}`} className={smallPrimaryClass}>
              Manage commute
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
