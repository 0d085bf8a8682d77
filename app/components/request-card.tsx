import type { ReactNode } from "react";
import { Avatar } from "~/components/avatar";
import { RequestDecision, StatusBadge } from "~/components/ride-ui";
import { SafetyLink } from "~/components/safety-link";
import { VerifiedBadge } from "~/components/verified-badge";
import { mutedTextClass } from "~/components/styles";
import { formatRupees } from "~/domain/money";
import { formatDateTimeShort } from "~/domain/time";

type RideRequestView = {
  id: string;
  status: string;
  seats: number;
  createdAt: number;
  notes: string | null;
  riderName: string | null;
  riderAvatarUrl: string | null;
  /** With it, a "Report or block" link to the rider (issue 16). */
  riderId?: string;
  /** False when the rider has no profile row (a deleted account); their name is then not known. */
  hasProfile?: boolean;
  /** The rider's workplace badge (issue 16; app/models/work-email.server.ts). */
  riderVerified?: string | null;
  /** Why accepting would be refused now (the seat rule's message), when it would. */
  acceptRefusal?: string | null;
};

/**
 * One booking request as its driver sees it, on the ride page and in Manage Bookings: who asks,
 * for how many seats, their message, and Accept/Reject while it can still change. Manage Bookings
 * lists requests of every ride, so it adds the ride (`children`) and the price of the seats.
 */
export function RequestCard({
  request: r,
  redirectTo,
  canDecide,
  perSeatPaise,
  className,
  testId,
  rideId,
  children,
}: {
  request: RideRequestView;
  redirectTo: string;
  canDecide: boolean;
  perSeatPaise?: number;
  className: string;
  testId: string;
  rideId?: string;
  children?: ReactNode;
}) {
  const seats = `${r.seats} seat${r.seats === 1 ? "" : "s"} requested`;
  return (
    <li className={className} data-testid={testId} data-ride-id={rideId}>
      <div className="flex flex-wrap items-center gap-3">
        {r.hasProfile === false ? (
          <p className={`text-sm italic ${mutedTextClass}`}>User data not available for this request</p>
        ) : (
          <>
            <Avatar name={r.riderName} url={r.riderAvatarUrl} size="sm" />
            <p className="font-medium">{r.riderName ?? "Unknown User"}</p>
            <VerifiedBadge badge={r.riderVerified} />
          </>
        )}
        <span className="ml-auto">
          <StatusBadge status={r.status} />
        </span>
      </div>
      {children}
      <p className="text-sm text-slate-800 dark:text-slate-200">
        {perSeatPaise === undefined
          ? seats
          : `${seats} · ${formatRupees(perSeatPaise)} × ${r.seats} = ${formatRupees(perSeatPaise * r.seats)}`}
      </p>
      <p className={`text-xs ${mutedTextClass}`}>Requested {formatDateTimeShort(r.createdAt)}</p>
      {r.riderId && r.hasProfile !== false ? <SafetyLink personId={r.riderId} from="ride" name={r.riderName} /> : null}
      {r.notes ? (
        <p className="text-sm">
          <span className="font-semibold">Message: </span>
          {r.notes}
        </p>
      ) : null}
      {r.status === "pending" && canDecide ? (
        <RequestDecision
          requestId={r.id}
          redirectTo={redirectTo}
          acceptRefusal={r.acceptRefusal}
          className="flex gap-2 pt-1"
        />
      ) : null}
    </li>
  );
}
