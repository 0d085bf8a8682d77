import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { ridesForCalendarFeed } from "~/models/calendar.server";
import { NotFoundError } from "~/models/errors.server";
import { calendarResponse, ridesCalendar } from "~/utils/calendar.server";

/**
 * GET /calendar/:token/rides.ics: a user's private calendar feed, polled by calendar apps
 * (which send no cookie: the secret token in the URL is the credential). Unknown or
 * revoked tokens get the same plain 404.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  try {
    const feed = await ridesForCalendarFeed(context, params.token ?? "");
    return calendarResponse(ridesCalendar(feed.rides, new URL(request.url).origin), null);
  } catch (e) {
    if (e instanceof NotFoundError) throw new Response("Calendar feed not found", { status: 404, headers: { "Cache-Control": "no-store" } });
    throw e;
  }
}
