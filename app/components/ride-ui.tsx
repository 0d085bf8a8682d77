import { Form, useRouteLoaderData } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import { formatRupees } from "~/domain/money";
import { capitalise, costPerSeatPaise, ecoScore, priceBand } from "~/domain/rides";
import { formatDate, formatTime } from "~/domain/time";
import { dangerButtonClass, smallButtonClass, smallPrimaryClass } from "./styles";
import { showToast } from "./toast";
import type { RootLoader } from "~/root";

// Pieces the create and booking pages need live in ride-form-ui.tsx and place-select.tsx, so
// those pages do not load the rest of this module (initial JS is budgeted); re-exported here.
export { BackLink } from "./ride-form-ui";
export { PlaceSelect } from "./place-select";
// The style helpers live in ./styles; re-exported so existing imports keep working.
export { cardClass, dangerButtonClass, smallButtonClass, smallPrimaryClass } from "./styles";

// Utilities in app/app.css: a badge is on most cards of a list (ADR 0025).
const STATUS_TONE: Record<string, string> = {
  pending: "lr-tone-amber",
  accepted: "lr-tone-green",
  active: "lr-tone-green",
  completed: "lr-tone-sky",
  rejected: "lr-tone-red",
  cancelled: "lr-tone-slate",
};

export function StatusBadge({ status, children }: { status: string; children?: ReactNode }) {
  return (
    <span data-testid="status-badge" className={`lr-badge ${STATUS_TONE[status] ?? STATUS_TONE.cancelled}`}>
      {children ?? capitalise(status)}
    </span>
  );
}

export function RideRoute({ from, to }: { from: string; to: string }) {
  return (
    <p className="font-semibold">
      {/* One text node each side: React marks adjacent ones apart with <!-- --> on every card. */}
      {`${from} `}
      <span aria-hidden="true">→</span>
      <span className="sr-only"> to </span>
      {` ${to}`}
    </p>
  );
}

export function RideWhen({ date, time }: { date: string; time: string }) {
  return <span>{`${formatDate(date)} at ${formatTime(time)}`}</span>;
}

/** Cost per seat with its price band (against the seat's fair share, when known) and the eco score. */
export function RidePrice({
  tripCostPaise,
  seats,
  bookedSeats,
  pricingMode,
  fairSeatPaise,
}: {
  tripCostPaise: number;
  seats: number;
  bookedSeats: number;
  pricingMode?: string | null;
  fairSeatPaise?: number | null;
}) {
  const perSeat = costPerSeatPaise(tripCostPaise, seats);
  // A ride without its points has no fair share to be measured against: no label rather than a guess.
  const band = fairSeatPaise ? priceBand(perSeat, fairSeatPaise) : null;
  // Issue 16: a ride offered under its community's "free" rule costs riders nothing.
  const free = pricingMode === "free";
  return (
    <div className="lr-price-row">
      <span className="lr-price" data-testid="cost-per-seat">
        {free ? "Free ride" : formatRupees(perSeat)}
      </span>
      {free ? null : <span className="lr-muted">per seat</span>}
      {free || !band ? null : <span className="lr-tag-band">{band}</span>}
      <span className="lr-tag-eco">{`Eco score ${ecoScore(seats, bookedSeats)}`}</span>
    </div>
  );
}

export function shareText(r: { fromLocation: string; toLocation: string; date: string; time: string }) {
  // Short: the message also carries the ride's address, twenty times on a Discover page.
  return `${r.fromLocation} → ${r.toLocation}, ${formatDate(r.date)}, ${formatTime(r.time)}`;
}

/**
 * A WhatsApp link with `text` as its message. Only what a query value cannot hold is escaped:
 * ":", "/", "," and "@" stay as they are, and so does "→" (a browser escapes it when it
 * follows the link). Discover shows twenty of these a page, and each carries the ride's
 * address, so every escaped character counts against the page's 60 KB (ADR 0025).
 */
export function whatsAppHref(text: string) {
  const escaped = encodeURIComponent(text).replace(/%(3A|2F|2C|40|E2%86%92)/g, (m) => decodeURIComponent(m));
  return `https://wa.me/?text=${escaped}`;
}

/**
 * Share: a WhatsApp link that works without JavaScript; with JavaScript the device share
 * sheet, or the clipboard with a 'Trip Shared!' toast.
 */
export function ShareButton({ text, path, label = "Share" }: { text: string; path: string; label?: string }) {
  // The message carries the ride's address: without it, the link a friend gets leads nowhere.
  const origin = useRouteLoaderData<RootLoader>("root")?.origin ?? "";
  const href = whatsAppHref(`${text} ${origin}${path}`);
  return (
    <>
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        className={smallButtonClass}
        onClick={async (e) => {
          e.preventDefault();
          const url = new URL(path, window.location.href).toString();
          try {
            if (navigator.share) {
              await navigator.share({ title: "LoopRide", text, url });
            } else {
              await navigator.clipboard.writeText(`${text} ${url}`);
            }
            showToast({ title: "Trip Shared!" });
          } catch {
            window.open(href, "_blank", "noopener");
          }
        }}
      >
        {label}
      </a>
    </>
  );
}

export function SaveButton({
  rideId,
  saved,
  redirectTo,
  savedLabel = "Saved",
  saveLabel = "Save",
  action,
}: {
  rideId: string;
  saved: boolean;
  /** Where to go after; none: back to the page posted from (its same-site Referer). */
  redirectTo?: string;
  savedLabel?: string;
  saveLabel?: string;
  /** Where it posts; by default the page it is on, search included (a list passes its bare route: the search is in redirectTo). */
  action?: string;
}) {
  return (
    // It posts to the page it is on, whose route is loaded: no route discovery (a data-discover
    // attribute on every card of a list; ADR 0025).
    <Form method="post" action={action} replace preventScrollReset discover="none">
      <input type="hidden" name="rideId" value={rideId} />
      {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
      <button
        type="submit"
        name="intent"
        value={saved ? "unsave" : "save"}
        className={smallButtonClass}
        aria-pressed={saved}
      >
        {saved ? savedLabel : saveLabel}
      </button>
    </Form>
  );
}

/** A hidden-field form with one intent button (accept, reject, cancel...). */
export function IntentButton({
  intent,
  fields,
  children,
  className = smallButtonClass,
  action,
}: {
  intent: string;
  fields: Record<string, string>;
  children: ReactNode;
  className?: string;
  action?: string;
}) {
  return (
    <Form method="post" action={action} preventScrollReset>
      {Object.entries(fields).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <button type="submit" name="intent" value={intent} className={className}>
        {children}
      </button>
    </Form>
  );
}

/**
 * A driver's Accept and Reject buttons for one pending request (the ride page and Manage Bookings).
 * With `acceptRefusal` (the seat rule's reason, from the model) Accept is shown disabled with it,
 * so the driver learns before pressing; the server still decides at accept time.
 */
export function RequestDecision({
  requestId,
  redirectTo,
  acceptRefusal = null,
  className = "flex gap-2",
}: {
  requestId: string;
  redirectTo: string;
  acceptRefusal?: string | null;
  className?: string;
}) {
  const reasonId = `accept-refused-${requestId}`;
  return (
    <div className="space-y-1">
      <div className={className}>
        {acceptRefusal ? (
          <button type="button" disabled aria-describedby={reasonId} className={smallPrimaryClass}>
            Accept
          </button>
        ) : (
          <IntentButton intent="accept" fields={{ requestId, redirectTo }} className={smallPrimaryClass}>
            Accept
          </IntentButton>
        )}
        <IntentButton intent="reject" fields={{ requestId, redirectTo }} className={dangerButtonClass}>
          Reject
        </IntentButton>
      </div>
      {acceptRefusal ? (
        <p id={reasonId} className="text-sm text-amber-900 dark:text-amber-200" data-testid="accept-refusal">
          {`Can't accept: ${acceptRefusal}`}
        </p>
      ) : null}
    </div>
  );
}

/** Revalidates the page's loaders every `ms` while mounted (JavaScript only). */
export function usePoll(ms: number, enabled: boolean, revalidate: () => void, state: string) {
  useEffect(() => {
    if (!enabled) return;
    const t = setInterval(() => {
      if (state === "idle" && document.visibilityState === "visible") revalidate();
    }, ms);
    return () => clearInterval(t);
  }, [ms, enabled, revalidate, state]);
}
