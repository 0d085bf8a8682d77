import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { ridesForCalendarFeed } from "~/models/calendar.server";
import { calendarResponse, ridesCalendar } from "~/utils/calendar.server";
import { orText } from "~/utils/errors.server";

/**
 * GET /calendar/:token/rides.ics: a user's private calendar feed, polled by calendar apps
 * (which send no cookie: the secret token in the URL is the credential). Unknown or
 * revoked tokens get the same plain 404.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const page = { notFound: "Calendar feed not found", headers: { "Cache-Control": "no-store" } };
  const feed = await orText(ridesForCalendarFeed(context, params.token ?? ""), page);
  return calendarResponse(ridesCalendar(feed.rides, new URL(request.url).origin), null);
}
