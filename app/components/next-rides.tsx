import { Form, Link } from "@remix-run/react";
import { CalendarLink } from "./calendar-link";
import { inputClass } from "./forms";
import { StatusBadge } from "./ride-ui";
import { cardClass, dangerButtonClass, mutedTextClass, smallButtonClass, textLinkClass } from "./styles";
import { formatRupees } from "~/domain/money";
import { CANCEL_REASON_MAX, CANCEL_WINDOW_MS } from "~/domain/rides";
import { formatTime, formatWeekdayDate } from "~/domain/time";
import type { Dashboard } from "~/models/dashboard.server";

type NextRide = Dashboard["nextRides"][number];

const HERE = "/dashboard";
const seatsText = (n: number) => `${n} seat${n === 1 ? "" : "s"}`;

/**
 * The dashboard opens with the viewer's next ride or two (issue 35): when and where to be,
 * with whom, for how much, and what can be done about it. Every action is an existing path
 * (the chat, the ride's or the commute's cancel form, the .ics route), so it works without JS.
 */
export function NextRides({ rides, now }: { rides: NextRide[]; now: number }) {
  return (
    <section aria-labelledby="next-rides-title" className="space-y-3" data-testid="next-rides">
      <h2 id="next-rides-title" className="text-lg font-semibold">
        {rides.length > 1 ? "Your next rides" : "Your next ride"}
      </h2>
      {rides.length === 0 ? (
        <div className={`${cardClass} text-center`} data-testid="no-next-ride">
          <p>No upcoming rides.</p>
          <p className={`text-sm ${mutedTextClass}`}>
            <Link to="/rides" className={textLinkClass}>
              Find a ride
            </Link>{" "}
            or{" "}
            <Link to="/rides/create" className={textLinkClass}>
              offer one
            </Link>
            .
          </p>
        </div>
      ) : (
        <ol className="grid gap-4 md:grid-cols-2">
          {rides.map((r) => (
            <NextRideCard key={r.id} ride={r} now={now} />
          ))}
        </ol>
      )}
    </section>
  );
}

function NextRideCard({ ride: r, now }: { ride: NextRide; now: number }) {
  const accepted = r.riders.filter((x) => x.status === "accepted");
  const pending = r.riders.length - accepted.length;
  return (
    <li className={`${cardClass} space-y-2`} data-testid="next-ride" data-role={r.role}>
      <div className="flex items-start justify-between gap-2">
        <p className="font-semibold" data-testid="next-ride-when">
          {formatWeekdayDate(r.date)} · {formatTime(r.time)}
        </p>
        <StatusBadge status={r.request?.status ?? "active"}>
          {r.request
            ? r.request.status === "accepted"
              ? "Seat confirmed"
              : "Request pending"
            : `You drive · ${r.bookedSeats} of ${r.seats} booked`}
        </StatusBadge>
      </div>
      <p className="text-sm">
        Pickup: <span className="font-medium">{r.fromLocation}</span> → {r.toLocation}
      </p>
      <p className="text-sm" data-testid="next-ride-people">
        {r.driver
          ? `Driver: ${r.driver.fullName ?? "Unknown Driver"} · your ${seatsText(r.request?.seats ?? 1)}`
          : accepted.length
            ? `Riders: ${accepted.map((x) => `${x.fullName ?? "A rider"} (${seatsText(x.seats)})`).join(", ")}`
            : "No riders yet"}
        {pending > 0 ? ` · ${pending} request${pending === 1 ? "" : "s"} waiting` : ""}
      </p>
      {r.request?.pickupCode ? (
        <p className="text-sm">
          Your pickup code today:{" "}
          <strong className="font-mono text-lg tracking-widest" data-testid="next-ride-pickup-code">
            {r.request.pickupCode}
          </strong>
        </p>
      ) : null}
      <p className="text-sm" data-testid="next-ride-price">
        {r.seatPricePaise === null ? "Free ride" : `${formatRupees(r.seatPricePaise)} a seat`}
      </p>
      <div className="flex flex-wrap items-end gap-2 pt-1">
        {r.driver ? (
          <Link to={`/dashboard/messages?to=${r.driver.id}&ride=${r.id}`} className={smallButtonClass}>
            {`Message ${r.driver.fullName ?? "Unknown Driver"}`}
          </Link>
        ) : (
          r.riders.map((x) => (
            <Link key={x.id} to={`/dashboard/messages?to=${x.id}&ride=${r.id}`} className={smallButtonClass}>
              {`Message ${x.fullName ?? "rider"}`}
            </Link>
          ))
        )}
        <Link to={`/rides/${r.id}`} className={smallButtonClass}>
          View ride
        </Link>
        <CalendarLink rideId={r.id} />
        <CancelThisDay ride={r} late={r.departsAt - now < CANCEL_WINDOW_MS} />
      </div>
    </li>
  );
}

/**
 * The paths that already cancel: a rider's own request on the ride page, a driver's commute
 * day on the commute page (skip), a one-off ride on the ride page. Each answers with a
 * redirect back here and a toast. Within 2 hours a driver must say why (the model checks it).
 */
function CancelThisDay({ ride: r, late }: { ride: NextRide; late: boolean }) {
  const driverCommute = !r.request && r.commuteId;
  const fields: Record<string, string> = r.request ? { requestId: r.request.id } : { rideId: r.id };
  const intent = r.request ? "cancel-request" : driverCommute ? "skip" : "cancel-ride";
  const action = driverCommute ? `/commutes/${r.commuteId}` : `/rides/${r.id}`;
  const reasonId = `cancel-reason-${r.id}`;
  return (
    <Form method="post" action={action} className="flex flex-wrap items-end gap-2" data-testid="cancel-this-day">
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <input type="hidden" name="redirectTo" value={HERE} />
      {!r.request && late ? (
        <label htmlFor={reasonId} className="text-sm">
          Reason (needed within 2 hours of departure)
          <input id={reasonId} name="reason" required maxLength={CANCEL_REASON_MAX} className={inputClass} />
        </label>
      ) : null}
      <button type="submit" name="intent" value={intent} className={dangerButtonClass}>
        Cancel this day
      </button>
    </Form>
  );
}
