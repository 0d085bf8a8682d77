import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { handlePushIntent } from "~/intents/push.server";
import { requireUser } from "~/utils/auth.server";

/**
 * POST /push-subscription (the settings page's push button, with JS: a browser can only
 * subscribe through the Push API): intent=subscribe stores this browser's subscription for
 * the signed-in user, intent=unsubscribe forgets it.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handlePushIntent(request, context, user.id, await request.formData());
}
