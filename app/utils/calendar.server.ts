import { createEvents, type EventAttributes } from "ics";
import { calendarText, estimatedRideMinutes } from "../domain/calendar";
import { formatRupees } from "../domain/money";
import { costPerSeatPaise } from "../domain/rides";
import type { CalendarRide } from "../models/calendar.server";

const ROLE_LINE: Record<CalendarRide["role"], string> = {
  driver: "You are driving.",
  rider: "Your seat is confirmed.",
  pending: "Your request is waiting for the driver's answer.",
};

/**
 * One ride as an iCalendar event. Times are UTC instants (departs_at is the IST departure
 * already converted by app/domain/time.ts), written as UTC (…Z) so every calendar shows
 * them in its own zone; the UID is stable so a re-import or a feed refresh updates the event.
 */
function rideEvent(ride: CalendarRide, origin: string): EventAttributes {
  const end = ride.departsAt + estimatedRideMinutes(ride.distanceKm) * 60_000;
  const perSeat = formatRupees(costPerSeatPaise(ride.tripCostPaise, ride.seats));
  return {
    uid: `ride-${ride.id}@loopride`,
    start: ride.departsAt,
    startInputType: "utc",
    startOutputType: "utc",
    end,
    endInputType: "utc",
    endOutputType: "utc",
    title: `LoopRide: ${calendarText(ride.fromLocation)} → ${calendarText(ride.toLocation)}`,
    location: calendarText(ride.fromLocation),
    // The description's own line breaks (LF) are escaped by the library as \n.
    description: [
      ROLE_LINE[ride.role],
      `Driver: ${calendarText(ride.driverName ?? "Unknown Driver")}.`,
      `Cost per seat ${perSeat}.`,
      "The end time is an estimate.",
      `${origin}/rides/${ride.id}`,
    ].join("\n"),
    url: `${origin}/rides/${ride.id}`,
    status: ride.status === "cancelled" ? "CANCELLED" : ride.role === "pending" ? "TENTATIVE" : "CONFIRMED",
  };
}

/** An iCalendar document (text/calendar) of the rides, named for calendar apps. */
export function ridesCalendar(list: CalendarRide[], origin: string, name = "LoopRide rides"): string {
  const { error, value } = createEvents(
    list.map((r) => rideEvent(r, origin)),
    { productId: "loopride/rides", calName: name },
  );
  if (error || !value) throw error ?? new Error("calendar could not be built");
  return value;
}

export function calendarResponse(body: string, filename: string | null): Response {
  const headers: Record<string, string> = {
    "Content-Type": "text/calendar; charset=utf-8",
    // Private: the feed and a ride's details are one person's; never cached by a proxy.
    "Cache-Control": "private, no-store",
  };
  if (filename) headers["Content-Disposition"] = `attachment; filename="${filename}"`;
  return new Response(body, { headers });
}
