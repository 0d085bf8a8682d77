import type { ActionFunctionArgs } from "@remix-run/cloudflare";
import { subscribePush, unsubscribePush } from "~/models/push.server";
import { pushActionSchema } from "~/schemas/push";
import { requireUser } from "~/utils/auth.server";
import { orToast, parseIntent } from "~/utils/errors.server";
import { redirectWithToast } from "~/utils/toast.server";

const SETTINGS = "/dashboard/settings";

/**
 * POST /push-subscription (the settings page's push button, with JS: a browser can only
 * subscribe through the Push API): intent=subscribe stores this browser's subscription for
 * the signed-in user, intent=unsubscribe forgets it.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const { submission } = parseIntent(await request.formData(), pushActionSchema);
  if (submission.status !== "success") {
    // A resource route: a real Response, so the status survives (Remix v2 without single fetch).
    return Response.json({ ok: false, error: "This browser's push subscription is not valid. Please try again." }, { status: 400 });
  }
  const input = submission.value;
  if (input.intent === "unsubscribe") {
    const n = await unsubscribePush(context, user.id, input.endpoint);
    return redirectWithToast(request, context.env, SETTINGS, n ? { title: "Push notifications are off for this browser" } : { title: "This browser was not subscribed", type: "info" });
  }
  return orToast(request, context.env, { to: SETTINGS, title: "Push notifications could not be turned on" }, async () => {
    await subscribePush(context, user.id, input);
    return redirectWithToast(request, context.env, SETTINGS, { title: "Push notifications are on for this browser" });
  });
}
