import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { createCalendarFeed, revokeCalendarFeed } from "~/models/calendar.server";
import { calendarFeedActionSchema } from "~/schemas/push";
import { requireUser } from "~/utils/auth.server";
import { calendarFeedCookie } from "~/utils/calendar-feed.server";
import { parseIntent } from "~/utils/errors.server";
import { redirectWithToast } from "~/utils/toast.server";

const SETTINGS = "/dashboard/settings#calendar";

/**
 * POST /calendar-feed from Settings: intent=create-feed makes a new private feed URL (any
 * earlier one stops working) and shows it once; intent=revoke-feed turns the feed off.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const { intent } = parseIntent(await request.formData(), calendarFeedActionSchema);
  const cookie = calendarFeedCookie(request, context.env);
  if (intent === "revoke-feed") {
    const n = await revokeCalendarFeed(context, user.id);
    return redirectWithToast(request, context.env, SETTINGS, n ? { title: "Calendar feed turned off", description: "Its URL no longer works." } : { title: "You have no calendar feed", type: "info" }, {
      headers: { "Set-Cookie": await cookie.clear() },
    });
  }
  const token = await createCalendarFeed(context, user.id);
  return redirectWithToast(request, context.env, SETTINGS, { title: "Calendar feed ready", description: "Copy its URL into your calendar app now: it is shown only for a few minutes." }, {
    headers: { "Set-Cookie": await cookie.serialize(token) },
  });
}
