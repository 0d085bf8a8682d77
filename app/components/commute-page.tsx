import { Form } from "@remix-run/react";
import { COMMUTE_LEGS, type CommuteLegs, LEG_LABELS, weekdaysLabel, weekdaysOf } from "~/domain/commutes";
import { MAX_SEATS } from "~/domain/rides";
import { addDays, formatDate, formatTime, formatWeekdayDate } from "~/domain/time";
import type { CommutePage } from "~/models/commutes.server";
import { WeekdayPicker } from "./commute-form";
import { PickupSelect } from "./pickup-select";
import { StatusBadge } from "./ride-ui";
import { buttonClass, cardClass, dangerButtonClass, inputClass, smallButtonClass, smallPrimaryClass } from "./styles";

// The commute page (/commutes/:id): the driver manages the pattern, its days and its regular
// riders; a rider books one day or every day. Every action is a plain form post.

type Occurrence = CommutePage["occurrences"][number];
type Req = CommutePage["requests"][number];
type Booking = CommutePage["bookings"][number];

const STATE_TEXT = { asked: "asked", accepted: "accepted", paused: "paused" } as const;

/** "Mon–Fri · 1 seat · accepted" (and the pause's dates). */
function bookingSummary(b: Booking) {
  const pause =
    b.state === "paused" && b.pausedFrom && b.pausedUntil
      ? ` ${formatWeekdayDate(b.pausedFrom)} to ${formatWeekdayDate(b.pausedUntil)}`
      : "";
  return `${weekdaysLabel(b.weekdays)} · ${b.seats} seat${b.seats === 1 ? "" : "s"} · ${STATE_TEXT[b.state]}${pause}`;
}

/** Where and around when a standing booking is picked up (issue 36: an estimate, ADR 0049). */
const pickupText = (b: Booking) => `Picked up at ${b.pickup.name} around ${formatTime(b.pickup.time)}`;

const seatOptions = Array.from({ length: MAX_SEATS }, (_, i) => i + 1);

/** Seats from 1 to `max` (a rider books at most the commute's seats; a driver offers up to the form's limit). */
function SeatsSelect({ id, name = "seats", value, max }: { id: string; name?: string; value: number; max?: number }) {
  return (
    <select id={id} name={name} defaultValue={value} className={inputClass}>
      {seatOptions
        .filter((n) => max === undefined || n <= max)
        .map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
    </select>
  );
}

const upcoming = (o: Occurrence, now: number) => o.status === "active" && o.departsAt > now;

/**
 * The driver's riders, each once (not once per day): a standing booking's weekdays, seats and
 * state, with Accept all and Decline; riders of single days with their counts.
 */
export function RegularRiders({ requests, bookings }: { requests: Req[]; bookings: Booking[] }) {
  type Row = { name: string; pending: number; accepted: number; booking: Booking | null };
  const riders = new Map<string, Row>();
  for (const b of bookings)
    riders.set(b.riderId, { name: b.riderName ?? "A rider", pending: 0, accepted: 0, booking: b });
  for (const r of requests) {
    const row = riders.get(r.riderId) ?? { name: r.riderName ?? "A rider", pending: 0, accepted: 0, booking: null };
    if (r.status === "pending") row.pending++;
    else row.accepted++;
    riders.set(r.riderId, row);
  }
  return (
    <section aria-labelledby="riders" className={`${cardClass} space-y-3`}>
      <h2 id="riders" className="text-lg font-semibold">
        Riders
      </h2>
      {riders.size === 0 ? <p className="text-sm">No requests yet.</p> : null}
      <ul className="space-y-2">
        {[...riders].map(([id, r]) => (
          <li key={id} className="flex flex-wrap items-center gap-3" data-testid="commute-rider">
            <span className="font-medium">{r.name}</span>
            {r.booking ? (
              <span className="text-sm" data-testid="standing-booking">
                {`${bookingSummary(r.booking)} · ${pickupText(r.booking)}`}
              </span>
            ) : null}
            <span className="text-sm">
              {r.pending} pending · {r.accepted} accepted
            </span>
            {r.pending > 0 || r.booking?.state === "asked" ? (
              <Form method="post" className="ml-auto">
                <input type="hidden" name="riderId" value={id} />
                <button type="submit" name="intent" value="accept-all" className={smallPrimaryClass}>
                  {r.pending > 0 ? `Accept all ${r.pending} from ${r.name}` : `Accept all from ${r.name}`}
                </button>
              </Form>
            ) : null}
            {r.booking ? (
              <Form method="post">
                <input type="hidden" name="riderId" value={id} />
                <button type="submit" name="intent" value="decline-booking" className={smallButtonClass}>
                  {`Decline ${r.name}'s standing booking`}
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The rider's standing booking: what it is, and Pause (a week, or until a date), Resume, End. */
function StandingBooking({ booking, today }: { booking: Booking; today: string }) {
  return (
    <section aria-labelledby="standing" className={`${cardClass} space-y-3`}>
      <h2 id="standing" className="text-lg font-semibold">
        Your standing booking
      </h2>
      <p className="text-sm" data-testid="my-standing-booking">
        {bookingSummary(booking)}
        {booking.state === "asked" ? " (waiting for the driver)" : ""}
      </p>
      <p className="text-sm" data-testid="my-pickup">
        {pickupText(booking)}
      </p>
      <p className="text-sm">New days are booked for you as the driver adds them. Skip a single day below.</p>
      <div className="flex flex-wrap items-end gap-4">
        {booking.state === "paused" ? (
          <Form method="post">
            <button type="submit" name="intent" value="resume" className={smallPrimaryClass}>
              Resume
            </button>
          </Form>
        ) : (
          <Form method="post">
            <input type="hidden" name="from" value={today} />
            <input type="hidden" name="until" value={addDays(today, 6)} />
            <button type="submit" name="intent" value="pause" className={smallButtonClass}>
              Pause for a week
            </button>
          </Form>
        )}
        <Form method="post" className="flex flex-wrap items-end gap-2">
          <div>
            <label htmlFor="pause-from" className="block text-xs">
              Pause from
            </label>
            <input
              id="pause-from"
              type="date"
              name="from"
              defaultValue={today}
              min={today}
              required
              className={inputClass}
            />
          </div>
          <div>
            <label htmlFor="pause-until" className="block text-xs">
              until
            </label>
            <input
              id="pause-until"
              type="date"
              name="until"
              defaultValue={addDays(today, 6)}
              min={today}
              required
              className={inputClass}
            />
          </div>
          <button type="submit" name="intent" value="pause" className={smallButtonClass}>
            Pause these days
          </button>
        </Form>
        <Form method="post">
          <button type="submit" name="intent" value="end-booking" className={dangerButtonClass}>
            End my standing booking
          </button>
        </Form>
      </div>
    </section>
  );
}

export function DriverDays({
  occurrences,
  requests,
  now,
}: {
  occurrences: Occurrence[];
  requests: Req[];
  now: number;
}) {
  return (
    <section aria-labelledby="days" className={`${cardClass} space-y-3`}>
      <h2 id="days" className="text-lg font-semibold">
        Next days
      </h2>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {occurrences.map((o) => (
          <li key={o.id} className="space-y-2 py-3" data-testid="commute-day">
            <div className="flex flex-wrap items-center gap-2">
              <a href={`/rides/${o.id}`} className="font-medium underline">
                {formatDate(o.date)} · {formatTime(o.time)}
              </a>
              <span className="text-sm">
                {o.bookedSeats}/{o.seats} seats booked ·{" "}
                {requests.filter((r) => r.rideId === o.id && r.status === "pending").length} pending
              </span>
              {o.status === "cancelled" ? <StatusBadge status="cancelled">Skipped</StatusBadge> : null}
            </div>
            {upcoming(o, now) ? (
              <details>
                <summary className="cursor-pointer text-sm font-medium">Skip or change this day</summary>
                <div className="mt-2 flex flex-wrap gap-4">
                  <Form method="post" className="flex flex-wrap items-end gap-2">
                    <input type="hidden" name="rideId" value={o.id} />
                    <div>
                      <label htmlFor={`time-${o.id}`} className="block text-xs">
                        Time
                      </label>
                      <input
                        id={`time-${o.id}`}
                        type="time"
                        name="time"
                        defaultValue={o.time}
                        required
                        className={inputClass}
                      />
                    </div>
                    <div>
                      <label htmlFor={`seats-${o.id}`} className="block text-xs">
                        Seats
                      </label>
                      <SeatsSelect id={`seats-${o.id}`} value={o.seats} />
                    </div>
                    <button type="submit" name="intent" value="change-occurrence" className={smallButtonClass}>
                      Change this day
                    </button>
                  </Form>
                  <Form method="post" className="flex flex-wrap items-end gap-2">
                    <input type="hidden" name="rideId" value={o.id} />
                    <div>
                      <label htmlFor={`reason-${o.id}`} className="block text-xs">
                        Reason (required within 2 hours)
                      </label>
                      <input id={`reason-${o.id}`} name="reason" maxLength={300} className={inputClass} />
                    </div>
                    <button type="submit" name="intent" value="skip" className={dangerButtonClass}>
                      Skip this day
                    </button>
                  </Form>
                </div>
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function PatternForms({ commute, today }: { commute: CommutePage["commute"]; today: string }) {
  return (
    <section aria-labelledby="pattern" className={`${cardClass} space-y-4`}>
      <h2 id="pattern" className="text-lg font-semibold">
        Change or end the commute
      </h2>
      <Form method="post" className="grid gap-3 sm:grid-cols-5 sm:items-end">
        <div>
          <label htmlFor="fromDate" className="block text-sm">
            From
          </label>
          <input
            id="fromDate"
            type="date"
            name="fromDate"
            defaultValue={today}
            min={today}
            required
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor="pattern-time" className="block text-sm">
            Time
          </label>
          <input
            id="pattern-time"
            type="time"
            name="time"
            defaultValue={commute.time}
            required
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor="pattern-seats" className="block text-sm">
            Seats
          </label>
          <SeatsSelect id="pattern-seats" value={commute.seats} />
        </div>
        <div>
          <label htmlFor="pattern-cost" className="block text-sm">
            Trip cost (₹)
          </label>
          <input
            id="pattern-cost"
            name="tripCost"
            inputMode="decimal"
            defaultValue={String(commute.tripCostPaise / 100)}
            required
            className={inputClass}
          />
        </div>
        <button type="submit" name="intent" value="change-pattern" className={buttonClass}>
          Change from this day
        </button>
      </Form>
      <Form method="post" className="flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor="lastDate" className="block text-sm">
            Last day
          </label>
          <input id="lastDate" type="date" name="lastDate" defaultValue={today} required className={inputClass} />
        </div>
        <button type="submit" name="intent" value="end" className={dangerButtonClass}>
          End commute
        </button>
      </Form>
    </section>
  );
}

/** A commute with a return: which legs the booking covers (ADR 0048; each is booked as its own commute). */
function LegsChoice({ defaultLeg, thisLeg }: { defaultLeg: CommuteLegs; thisLeg: Exclude<CommuteLegs, "both"> }) {
  return (
    <fieldset className="space-y-1">
      <legend className="mb-1 block text-sm font-medium">Which way</legend>
      <div className="flex flex-wrap gap-4 text-sm">
        {COMMUTE_LEGS.map((leg) => (
          <label key={leg} className="flex items-center gap-2">
            <input type="radio" name="legs" value={leg} defaultChecked={leg === defaultLeg} />
            {LEG_LABELS[leg]}
            {leg === thisLeg ? " (this page)" : ""}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export function RiderBooking({
  commute,
  hasOtherLeg,
  occurrences,
  requests,
  bookings,
  pickups,
  searched,
  now,
  today,
}: {
  commute: CommutePage["commute"];
  hasOtherLeg: boolean;
  occurrences: Occurrence[];
  requests: Req[];
  bookings: Booking[];
  pickups: CommutePage["pickups"];
  searched: string | null;
  now: number;
  today: string;
}) {
  const booking = bookings[0];
  const isReturn = commute.returnOf !== null;
  const days = weekdaysOf(commute.weekdays);
  // Offered only when the seat rule allows at least one day not yet asked for; else its reason.
  const open = occurrences.filter((o) => upcoming(o, now) && !requests.some((r) => r.rideId === o.id));
  const bookable = open.some((o) => o.refusal === null);
  const reason = open.find((o) => o.refusal !== null)?.refusal;
  return (
    <>
      {booking ? <StandingBooking booking={booking} today={today} /> : null}
      {commute.status === "active" && !bookable && reason ? (
        <p role="status" className={`${cardClass} text-sm`} data-testid="book-refused">
          {reason}
        </p>
      ) : null}
      {commute.status === "active" && bookable ? (
        <section aria-labelledby="book-all" className={`${cardClass} space-y-3`}>
          <h2 id="book-all" className="text-lg font-semibold">
            {booking ? "Book more days of this commute" : "Book every day of this commute"}
          </h2>
          <Form method="post" className="space-y-3">
            <WeekdayPicker legend="On these days" checked={days} only={days} errorId="book-weekdays-error" />
            <div className="max-w-40">
              <label htmlFor="book-seats" className="block text-sm">
                Seats
              </label>
              <SeatsSelect id="book-seats" value={1} max={commute.seats} />
            </div>
            <PickupSelect pickups={pickups} chosen={searched ?? booking?.pickup.name ?? null} />
            {hasOtherLeg ? <LegsChoice defaultLeg="both" thisLeg={isReturn ? "return" : "morning"} /> : null}
            <button type="submit" name="intent" value="book-all" className={buttonClass}>
              Request every selected day
            </button>
          </Form>
        </section>
      ) : null}
      <section aria-labelledby="days" className={`${cardClass} space-y-3`}>
        <h2 id="days" className="text-lg font-semibold">
          Next days
        </h2>
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {occurrences.map((o) => {
            const mine = requests.find((r) => r.rideId === o.id);
            return (
              <li key={o.id} className="flex flex-wrap items-center gap-2 py-2" data-testid="commute-day">
                <span className="font-medium">
                  {formatDate(o.date)} · {formatTime(o.time)}
                </span>
                <span className="text-sm">{Math.max(0, o.seats - o.bookedSeats)} seats left</span>
                {mine ? <StatusBadge status={mine.status} /> : null}
                {mine && upcoming(o, now) ? (
                  <Form method="post" className="ml-auto">
                    <input type="hidden" name="requestId" value={mine.id} />
                    <button type="submit" name="intent" value="skip-day" className={smallButtonClass}>
                      Skip {formatWeekdayDate(o.date)}
                    </button>
                  </Form>
                ) : null}
                {o.status === "cancelled" ? <StatusBadge status="cancelled">Skipped</StatusBadge> : null}
                {!mine && upcoming(o, now) && o.refusal === null ? (
                  <a href={`/rides/${o.id}/book`} className={`${smallButtonClass} ml-auto`}>
                    Book this day
                  </a>
                ) : null}
                {!mine && upcoming(o, now) && o.refusal !== null ? (
                  <span className="ml-auto text-sm">{o.refusal}</span>
                ) : null}
              </li>
            );
          })}
        </ul>
      </section>
    </>
  );
}
