import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { handleCalendarFeedIntent } from "~/intents/calendar-feed.server";
import { requireUser } from "~/utils/auth.server";

/**
 * POST /calendar-feed from Settings: intent=create-feed makes a new private feed URL (any
 * earlier one stops working) and shows it once; intent=revoke-feed turns the feed off.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleCalendarFeedIntent(request, context, user.id, await request.formData());
}
