import { blockUser, reportUser, unblockUser } from "~/models/safety.server";
import { safetyActionSchema } from "~/schemas/safety";
import { safeRedirect } from "~/utils/auth.server";
import { runIntent, type Ctx } from "./run.server";

/** Report or block one person (issue 16): a redirect and a toast; a refusal "Nothing changed". */
export function handleSafetyIntent(
  request: Request,
  context: Ctx,
  userId: string,
  personId: string,
  formData: FormData,
) {
  // The id comes from the URL, decoded: encode it again for the Location header.
  const here = `/people/${encodeURIComponent(personId)}`;
  return runIntent(request, context, formData, {
    schema: safetyActionSchema,
    invalid: "reply",
    page: () => ({ kind: "toast", to: here, title: "Nothing changed" }),
    handle: async (input) => {
      switch (input.intent) {
        case "report": {
          const { audience } = await reportUser(context, userId, personId, input);
          const toast = {
            title: "Report sent",
            description: "The admins of the communities you share will review it.",
          };
          return { to: here, toast, audience };
        }
        case "block": {
          const { audience } = await blockUser(context, userId, personId);
          const toast = { title: "Blocked", description: "You will no longer see each other's rides or messages." };
          return { to: safeRedirect(input.redirectTo, here), toast, audience };
        }
        case "unblock":
          await unblockUser(context, userId, personId);
          return { to: safeRedirect(input.redirectTo, here), toast: { title: "Unblocked" } };
      }
    },
  });
}
