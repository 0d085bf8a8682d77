import { Form } from "@remix-run/react";
import { weekdaysOf } from "~/domain/commutes";
import { MAX_SEATS } from "~/domain/rides";
import { formatDate, formatTime } from "~/domain/time";
import type { CommutePage } from "~/models/commutes.server";
import { WeekdayPicker } from "./commute-form";
import { StatusBadge } from "./ride-ui";
import { buttonClass, cardClass, dangerButtonClass, inputClass, smallButtonClass, smallPrimaryClass } from "./styles";

// The commute page (/commutes/:id): the driver manages the pattern, its days and its regular
// riders; a rider books one day or every day. Every action is a plain form post.

type Occurrence = CommutePage["occurrences"][number];
type Req = CommutePage["requests"][number];

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

/** The driver's regular riders: everyone with a live request, and "accept all" for their pending ones. */
export function RegularRiders({ requests }: { requests: Req[] }) {
  const riders = new Map<string, { name: string; pending: number; accepted: number }>();
  for (const r of requests) {
    const row = riders.get(r.riderId) ?? { name: r.riderName ?? "A rider", pending: 0, accepted: 0 };
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
            <span className="text-sm">
              {r.pending} pending · {r.accepted} accepted
            </span>
            {r.pending > 0 ? (
              <Form method="post" className="ml-auto">
                <input type="hidden" name="riderId" value={id} />
                <button type="submit" name="intent" value="accept-all" className={smallPrimaryClass}>
                  Accept all {r.pending} from {r.name}
                </button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
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

export function RiderBooking({
  commute,
  occurrences,
  requests,
  now,
}: {
  commute: CommutePage["commute"];
  occurrences: Occurrence[];
  requests: Req[];
  now: number;
}) {
  const days = weekdaysOf(commute.weekdays);
  // Offered only when the seat rule allows at least one day not yet asked for; else its reason.
  const open = occurrences.filter((o) => upcoming(o, now) && !requests.some((r) => r.rideId === o.id));
  const bookable = open.some((o) => o.refusal === null);
  const reason = open.find((o) => o.refusal !== null)?.refusal;
  return (
    <>
      {commute.status === "active" && !bookable && reason ? (
        <p role="status" className={`${cardClass} text-sm`} data-testid="book-refused">
          {reason}
        </p>
      ) : null}
      {commute.status === "active" && bookable ? (
        <section aria-labelledby="book-all" className={`${cardClass} space-y-3`}>
          <h2 id="book-all" className="text-lg font-semibold">
            Book every day of this commute
          </h2>
          <Form method="post" className="space-y-3">
            <WeekdayPicker legend="On these days" checked={days} only={days} errorId="book-weekdays-error" />
            <div className="max-w-40">
              <label htmlFor="book-seats" className="block text-sm">
                Seats
              </label>
              <SeatsSelect id="book-seats" value={1} max={commute.seats} />
            </div>
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
