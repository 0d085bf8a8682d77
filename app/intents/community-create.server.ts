import { createCommunity } from "~/models/communities.server";
import { createCommunitySchema } from "~/schemas/communities";
import { runIntent, type Ctx } from "./run.server";

/** Create a Community: its form shows a refusal; success opens the new community. */
export function handleCreateCommunity(request: Request, context: Ctx, userId: string, formData: FormData) {
  return runIntent(request, context, formData, {
    schema: createCommunitySchema,
    invalid: "reply",
    page: () => ({ kind: "form", unexpected: "Failed to create community. Please try again." }),
    handle: async (input) => {
      const created = await createCommunity(context, userId, input);
      return { to: `/communities/${created.id}`, toast: { title: "Community created successfully!" } };
    },
  });
}
