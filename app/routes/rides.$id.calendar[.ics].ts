import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getRideForCalendar } from "~/models/calendar.server";
import { requireUser } from "~/utils/auth.server";
import { calendarResponse, ridesCalendar } from "~/utils/calendar.server";
import { orText } from "~/utils/errors.server";

/** GET /rides/:id/calendar.ics: the ride as a calendar event, for its driver and riders with a request. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  // A resource route: a refusal is plain text with its status (403 / 404).
  const ride = await orText(getRideForCalendar(context, user.id, params.id ?? ""));
  return calendarResponse(
    ridesCalendar([ride], new URL(request.url).origin, "LoopRide ride"),
    `loopride-ride-${ride.id}.ics`,
  );
}
