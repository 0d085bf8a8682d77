import { createCalendarFeed, revokeCalendarFeed } from "~/models/calendar.server";
import { calendarFeedActionSchema } from "~/schemas/push";
import { calendarFeedCookie } from "~/utils/calendar-feed.server";
import { runIntent, type Ctx } from "./run.server";

const SETTINGS = "/dashboard/settings#calendar";

/**
 * Settings' calendar feed: create-feed makes a new private feed URL (any earlier one stops
 * working), shown once through a short-lived cookie; revoke-feed turns the feed off.
 */
export function handleCalendarFeedIntent(request: Request, context: Ctx, userId: string, formData: FormData) {
  const cookie = calendarFeedCookie(request, context.env);
  return runIntent(request, context, formData, {
    schema: calendarFeedActionSchema,
    invalid: "unknown",
    page: () => ({ kind: "page" }),
    handle: async ({ intent }) => {
      if (intent === "revoke-feed") {
        const n = await revokeCalendarFeed(context, userId);
        const toast = n
          ? { title: "Calendar feed turned off", description: "Its URL no longer works." }
          : { title: "You have no calendar feed", type: "info" as const };
        return { to: SETTINGS, toast, headers: { "Set-Cookie": await cookie.clear() } };
      }
      const token = await createCalendarFeed(context, userId);
      const description = "Copy its URL into your calendar app now: it is shown only for a few minutes.";
      const headers = { "Set-Cookie": await cookie.serialize(token) };
      return { to: SETTINGS, toast: { title: "Calendar feed ready", description }, headers };
    },
  });
}
