import { blockUser, reportUser, unblockUser, type ReportReaders } from "~/models/safety.server";
import { safetyActionSchema } from "~/schemas/safety";
import { safeRedirect } from "~/utils/auth.server";
import { runIntent, type Ctx } from "./run.server";

/** Issue 37: the reporter is told the truth about who will read the report. */
export const REPORT_READERS: Record<ReportReaders, string> = {
  admins: "The admins of the communities you share will review it.",
  operators: "LoopRide's operators will review it: you share no community with an admin who could.",
  both: "LoopRide's operators will review it, and so will the admins of the communities you share.",
};

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
          const { audience, readers } = await reportUser(context, userId, personId, input);
          const toast = { title: "Report sent", description: REPORT_READERS[readers] };
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
