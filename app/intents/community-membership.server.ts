import { leaveCommunity, requestToJoin } from "~/models/communities.server";
import { membershipActionSchema } from "~/schemas/communities";
import { runIntent, type Ctx } from "./run.server";

/**
 * Join or leave from the communities list. The community is named in the form, not the URL:
 * every refusal is a toast on the list (`back`).
 */
export function handleMembershipIntent(
  request: Request,
  context: Ctx,
  userId: string,
  formData: FormData,
  back: string,
) {
  return runIntent(request, context, formData, {
    schema: membershipActionSchema,
    invalid: "reply",
    page: () => ({
      kind: "toast",
      to: back,
      toastAll: true,
      unexpected: { title: "Error", description: "Failed to join/leave community. Please try again." },
    }),
    handle: async ({ intent, communityId }) => {
      if (intent === "leave") {
        const c = await leaveCommunity(context, userId, communityId);
        return { to: back, toast: { title: "Left Community", description: `You have left ${c.name}` } };
      }
      const c = await requestToJoin(context, userId, communityId);
      const description = `Your request to join ${c.name} has been sent. Community moderators will review your request.`;
      const toast = c.joined
        ? { title: "Welcome!", description: `You joined ${c.name}.` }
        : { title: "Request Sent", description };
      return { to: back, toast };
    },
  });
}
