import { subscribePush, unsubscribePush } from "~/models/push.server";
import { pushActionSchema } from "~/schemas/push";
import { runIntent, type Ctx } from "./run.server";

const SETTINGS = "/dashboard/settings";

/** This browser's push subscription: store it (a refusal is an error toast) or forget it. */
export function handlePushIntent(request: Request, context: Ctx, userId: string, formData: FormData) {
  return runIntent(request, context, formData, {
    schema: pushActionSchema,
    // A resource route: a real Response, so the status survives (Remix v2 without single fetch).
    invalid: () =>
      Response.json(
        { ok: false, error: "This browser's push subscription is not valid. Please try again." },
        { status: 400 },
      ),
    page: () => ({ kind: "toast", to: SETTINGS, title: "Push notifications could not be turned on" }),
    handle: async (input) => {
      if (input.intent === "unsubscribe") {
        const n = await unsubscribePush(context, userId, input.endpoint);
        const toast = n
          ? { title: "Push notifications are off for this browser" }
          : { title: "This browser was not subscribed", type: "info" as const };
        return { to: SETTINGS, toast };
      }
      await subscribePush(context, userId, input);
      return { to: SETTINGS, toast: { title: "Push notifications are on for this browser" } };
    },
  });
}
