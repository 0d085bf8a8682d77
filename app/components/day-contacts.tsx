import { Link } from "@remix-run/react";
import { formatMobile } from "~/domain/phone";
import type { DayContact } from "~/models/ride-contacts.server";
import { cardClass, textLinkClass } from "./styles";

/**
 * Issue 37, item 5: on the day of the ride (from 18:00 the evening before), the driver and the
 * accepted riders: a number to call where its owner allows it, else the chat; the car for the
 * riders. The list is maySeeContact's, so it is empty outside the window and for anyone else.
 */
export function DayContacts({ contacts, rideId }: { contacts: DayContact[]; rideId: string }) {
  if (contacts.length === 0) return null;
  return (
    <section className={`${cardClass} space-y-3`} aria-labelledby="day-contacts" data-testid="day-contacts">
      <h2 id="day-contacts" className="text-lg font-semibold">
        On the day
      </h2>
      <ul className="space-y-3">
        {contacts.map((c) => {
          const name = c.name ?? (c.isDriver ? "Your driver" : "Your rider");
          return (
            <li key={c.userId} className="space-y-1" data-testid="day-contact">
              <p className="font-medium">
                {name}{" "}
                <span className="text-sm text-slate-700 dark:text-slate-300">({c.isDriver ? "driver" : "rider"})</span>
              </p>
              {c.phone ? (
                <a href={`tel:+91${c.phone}`} className={textLinkClass}>
                  {`Call ${name}: +91 ${formatMobile(c.phone)}`}
                </a>
              ) : (
                <p className="text-sm">
                  {`${name} keeps their mobile number private. `}
                  <Link to={`/dashboard/messages?to=${c.userId}&ride=${rideId}`} className={textLinkClass}>
                    Message in LoopRide
                  </Link>
                </p>
              )}
              {c.isDriver && c.vehicle ? <CarLine vehicle={c.vehicle} /> : null}
            </li>
          );
        })}
      </ul>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Numbers are shown only to the driver and accepted riders, from 6 PM the evening before until the ride ends, and
        only if their owner allows it in Settings.
      </p>
    </section>
  );
}

function CarLine({ vehicle }: { vehicle: NonNullable<DayContact["vehicle"]> }) {
  const car = [vehicle.make, vehicle.model].filter(Boolean).join(" ");
  const parts = [car, vehicle.color].filter(Boolean).join(", ");
  if (!parts && !vehicle.registration) return <p className="text-sm">The driver has not added the car's details.</p>;
  return (
    <p className="text-sm" data-testid="day-car">
      {`Car: ${parts || "details not given"}`}
      {vehicle.registration ? (
        <>
          {" · Registration "}
          <span className="font-mono font-semibold">{vehicle.registration}</span>
        </>
      ) : null}
    </p>
  );
}
