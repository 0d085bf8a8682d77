import { Form, Link } from "@remix-run/react";
import { useEffect, useState } from "react";
import { buttonClass, inputClass, secondaryButtonClass } from "~/components/forms";
import { cardClass, whatsAppHref } from "~/components/ride-ui";
import { mutedTextClass, smallButtonClass, textLinkClass } from "~/components/styles";
import { formatTime, istTime } from "~/domain/time";
import { riderStage, TRIP_STAGE_LABEL, tripStage } from "~/domain/trip";
import type { tripDayFrom } from "~/models/trip.server";

// The ride page on the day of the ride (issue 37): the trip's status for everyone on it, the
// driver's Start trip / Picked up / Dropped / End trip, the rider's pickup code, Share my
// trip, the alert to the emergency contact and 112. Every action is a plain form post.

type TripDay = Awaited<ReturnType<typeof tripDayFrom>>;

const at = (ms: number) => `${formatTime(istTime(ms))} IST`;

export function TripDayPanel({
  rideId,
  isDriver,
  trip,
  link,
  summary,
}: {
  rideId: string;
  isDriver: boolean;
  trip: TripDay;
  /** The link just made (shown once, while its cookie lasts), or null. */
  link: string | null;
  summary: string;
}) {
  if (!trip.onTrip || !trip.today) return null;
  const stage = tripStage(trip.startedAt, trip.endedAt);
  const action = `/rides/${rideId}/trip`;
  return (
    <section id="trip" className={`${cardClass} space-y-4`} aria-labelledby="trip-heading">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="trip-heading" className="text-lg font-semibold">
          Your trip today
        </h2>
        <p className="font-semibold" data-testid="trip-status">
          {TRIP_STAGE_LABEL[stage]}
          {trip.startedAt ? ` · started ${at(trip.startedAt)}` : ""}
          {trip.endedAt ? ` · ended ${at(trip.endedAt)}` : ""}
        </p>
      </div>
      <p className="rounded-md bg-red-50 p-3 text-sm text-red-900 dark:bg-red-950 dark:text-red-100">
        In an emergency, call{" "}
        <a href="tel:112" className="font-bold underline" data-testid="call-112">
          112
        </a>{" "}
        (India's emergency number).
      </p>
      {isDriver ? <DriverControls action={action} rideId={rideId} trip={trip} /> : <RiderView trip={trip} />}
      <SharePanel action={action} trip={trip} link={link} summary={summary} />
    </section>
  );
}

function DriverControls({ action, rideId, trip }: { action: string; rideId: string; trip: TripDay }) {
  const stage = tripStage(trip.startedAt, trip.endedAt);
  if (stage === "not_started")
    return (
      <Form method="post" action={action}>
        <button type="submit" name="intent" value="start-trip" className={buttonClass}>
          Start trip
        </button>
      </Form>
    );
  return (
    <div className="space-y-3">
      {trip.riders.length === 0 ? <p className={mutedTextClass}>No rider holds an accepted seat.</p> : null}
      <ul className="divide-y divide-slate-200 dark:divide-slate-800">
        {trip.riders.map((r) => {
          const name = r.name ?? "Rider";
          return (
            <li key={r.id} className="space-y-2 py-3" data-testid="trip-rider">
              <p>
                <span className="font-medium">{name}</span>: <span>{riderStage(r)}</span>
              </p>
              {stage === "started" && r.pickedUpAt === null ? (
                <Form method="post" action={action} className="space-y-1">
                  <input type="hidden" name="requestId" value={r.id} />
                  <label htmlFor={`code-${r.id}`} className="block text-sm">
                    Pickup code for {name}
                  </label>
                  {/* The field and its button share one row, the same height, on a phone too. */}
                  <div className="flex items-stretch gap-2">
                    <input
                      id={`code-${r.id}`}
                      name="code"
                      className={`${inputClass} w-28 font-mono text-lg tracking-widest`}
                      inputMode="numeric"
                      autoComplete="off"
                      maxLength={4}
                      required
                    />
                    <button
                      type="submit"
                      name="intent"
                      value="picked-up"
                      className={buttonClass}
                      aria-label={`Picked up: ${name}`}
                    >
                      Picked up
                    </button>
                  </div>
                </Form>
              ) : null}
              {stage === "started" && r.pickedUpAt !== null && r.droppedAt === null ? (
                <Form method="post" action={action}>
                  <input type="hidden" name="requestId" value={r.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="dropped"
                    className={smallButtonClass}
                    aria-label={`Dropped: ${name}`}
                  >
                    Dropped
                  </button>
                </Form>
              ) : null}
            </li>
          );
        })}
      </ul>
      {stage === "started" ? (
        // Set apart from the riders' rows, so a thumb meant for Picked up does not end the trip.
        <Form method="post" action={action} className="border-t border-slate-200 pt-4 dark:border-slate-800">
          <button type="submit" name="intent" value="end-trip" className={buttonClass}>
            End trip
          </button>
        </Form>
      ) : (
        <Link to={`/rides/${rideId}/completion`} className={textLinkClass}>
          Complete the ride
        </Link>
      )}
    </div>
  );
}

function RiderView({ trip }: { trip: TripDay }) {
  const mine = trip.mine;
  if (!mine) return null;
  return (
    <div className="space-y-2">
      <p>
        You: <span className="font-medium">{riderStage(mine)}</span>
      </p>
      {mine.pickedUpAt === null && mine.code ? (
        <p className="text-sm">
          Your pickup code:{" "}
          <strong className="font-mono text-2xl tracking-widest" data-testid="pickup-code">
            {mine.code}
          </strong>
          <span className="block">Tell it to your driver when you get in: it records that you boarded.</span>
        </p>
      ) : null}
    </div>
  );
}

function SharePanel({
  action,
  trip,
  link,
  summary,
}: {
  action: string;
  trip: TripDay;
  link: string | null;
  summary: string;
}) {
  const message = `Follow my LoopRide trip (${summary}): ${link ?? ""}`;
  return (
    <div id="share-trip" className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-800">
      <h3 className="font-semibold">Share my trip</h3>
      <p className={mutedTextClass}>
        A link for family or a colleague, no account needed: it shows the route, the driver's first name and car, and
        the trip's status, nothing else. It stops working an hour after the trip ends, or when you revoke it.
      </p>
      {link ? (
        <div className="space-y-2" data-testid="share-link">
          <label className="block text-sm">
            <span className="block">Your trip link</span>
            <input readOnly value={link} className={`${inputClass} w-full font-mono text-xs`} />
          </label>
          <div className="flex flex-wrap gap-2">
            <a href={whatsAppHref(message)} target="_blank" rel="noopener noreferrer" className={smallButtonClass}>
              Send by WhatsApp
            </a>
            <a
              href={`mailto:?subject=${encodeURIComponent("Follow my LoopRide trip")}&body=${encodeURIComponent(message)}`}
              className={smallButtonClass}
            >
              Send by e-mail
            </a>
            <CopyButton text={link} />
          </div>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Form method="post" action={action}>
          <button type="submit" name="intent" value="share-trip" className={secondaryButtonClass}>
            Create a trip link
          </button>
        </Form>
        {trip.hasEmergencyEmail ? (
          <Form method="post" action={action}>
            <button type="submit" name="intent" value="alert-contact" className={secondaryButtonClass}>
              Alert my emergency contact
            </button>
          </Form>
        ) : (
          <p className="text-sm">
            Add your emergency contact's e-mail in{" "}
            <Link to="/dashboard/profile" className={textLinkClass}>
              your profile
            </Link>{" "}
            to send them your trip with one tap.
          </p>
        )}
      </div>
      {trip.shares.length > 0 ? (
        <ul className="space-y-2 text-sm" aria-label="Your trip links">
          {trip.shares.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center gap-2" data-testid="trip-share">
              <span>
                {s.via === "alert" ? "Sent to your emergency contact" : "Link made"} at {at(s.createdAt)}
              </span>
              <Form method="post" action={action}>
                <input type="hidden" name="shareId" value={s.id} />
                <button type="submit" name="intent" value="revoke-share" className={smallButtonClass}>
                  Revoke
                </button>
              </Form>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** Copies the link; shown only once scripts run (without them, select the text above). */
function CopyButton({ text }: { text: string }) {
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setReady(Boolean(navigator.clipboard)), []);
  if (!ready) return null;
  return (
    <button
      type="button"
      className={smallButtonClass}
      onClick={() => navigator.clipboard.writeText(text).then(() => setCopied(true))}
    >
      {copied ? "Copied" : "Copy link"}
    </button>
  );
}
