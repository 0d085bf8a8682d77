import { ownTabs } from "~/models/context.server";
import { markAllNotificationsRead, markNotificationRead } from "~/models/notifications.server";
import { notificationActionSchema } from "~/schemas/messages";
import { runIntent, type Ctx } from "./run.server";

const TO = "/dashboard#notifications";

/** The dashboard's notification posts; every open tab of the user updates its badges. */
export function handleNotificationIntent(request: Request, context: Ctx, userId: string, formData: FormData) {
  return runIntent(request, context, formData, {
    schema: notificationActionSchema,
    invalid: "reply",
    // Someone else's notification (or none) is a 404: nothing is changed.
    page: (input) =>
      input.intent === "mark-read"
        ? { kind: "page" }
        : { kind: "toast", to: TO, unexpected: { title: "Failed to mark notifications as read." } },
    handle: async (input) => {
      if (input.intent === "mark-read") {
        await markNotificationRead(context, userId, input.id);
        return { to: TO, audience: ownTabs(userId) };
      }
      await markAllNotificationsRead(context, userId);
      return { to: TO, toast: { title: "All notifications marked as read" }, audience: ownTabs(userId) };
    },
  });
}
