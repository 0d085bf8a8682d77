import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getRideForCalendar } from "~/models/calendar.server";
import { isModelError } from "~/models/errors.server";
import { requireUser } from "~/utils/auth.server";
import { calendarResponse, ridesCalendar } from "~/utils/calendar.server";

/** GET /rides/:id/calendar.ics: the ride as a calendar event, for its driver and riders with a request. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  try {
    const ride = await getRideForCalendar(context, user.id, params.id ?? "");
    return calendarResponse(ridesCalendar([ride], new URL(request.url).origin, "LoopRide ride"), `loopride-ride-${ride.id}.ics`);
  } catch (e) {
    // A resource route: a plain-text Response keeps the status (403 / 404).
    if (isModelError(e)) throw new Response(e.message, { status: e.status, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    throw e;
  }
}
