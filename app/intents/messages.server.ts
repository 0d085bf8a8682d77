import { data } from "@remix-run/cloudflare";
import { ownTabs } from "~/models/context.server";
import { markConversationRead, sendMessage } from "~/models/messages.server";
import { messageActionSchema } from "~/schemas/messages";
import { publishToConversation } from "~/utils/fanout.server";
import { runIntent, type Ctx } from "./run.server";

/**
 * The messages page's posts: send (a refusal, such as someone the user may not message, is
 * shown on the composer with its status), open a chat, and the live chat's mark-read.
 */
export function handleMessageIntent(request: Request, context: Ctx, userId: string, formData: FormData) {
  return runIntent(request, context, formData, {
    schema: messageActionSchema,
    invalid: "reply",
    page: (input) => (input.intent === "send" ? { kind: "form" } : { kind: "page" }),
    handle: async (input) => {
      if (input.intent === "mark-read" || input.intent === "open") {
        const changed = await markConversationRead(context, userId, input.c);
        const audience = changed.messages + changed.notifications > 0 ? ownTabs(userId) : undefined;
        if (input.intent === "open") return { to: `/dashboard/messages?c=${input.c}`, audience };
        return { answer: data({ ok: true as const, ...changed }), audience };
      }
      const { to, content, clientId, rideId } = input;
      const sent = await sendMessage(context, userId, { to, content, clientId, rideId });
      const chat = `/dashboard/messages?c=${sent.conversationId}`;
      // A retried send (same clientId) created nothing: nobody hears it twice.
      if (!sent.created) return { to: chat };
      // The chat's room hears the message itself; the audience hears the counts.
      publishToConversation(context, { type: "message", ...sent.message, clientId: sent.message.clientId });
      return { to: chat, audience: sent.audience };
    },
  });
}
