import { actOnReport, liftSuspension } from "~/models/operator-reports.server";
import { operatorActionSchema } from "~/schemas/safety";
import { runIntent, type Ctx } from "./run.server";

const HERE = "/operators/reports";

const DONE = {
  warned: { title: "Warning sent", description: "The reported person was sent a warning." },
  suspended: {
    title: "Account suspended",
    description: "They are signed out everywhere and cannot sign in to LoopRide.",
  },
  closed: { title: "Report closed" },
  lifted: {
    title: "Suspension lifted",
    description: "They can sign in again, and were told in the app and by e-mail.",
  },
} as const;

/** The operators' queue's posts (issue 37): warn, suspend or close one report; lift a suspension. */
export function handleOperatorIntent(request: Request, context: Ctx, userId: string, formData: FormData) {
  return runIntent(request, context, formData, {
    schema: operatorActionSchema,
    invalid: "unknown",
    page: () => ({ kind: "toast", to: HERE, title: "Nothing changed" }),
    handle: async (input) => {
      if (input.intent === "lift") {
        const { audience } = await liftSuspension(context, userId, input.userId);
        return { to: HERE, toast: DONE.lifted, audience };
      }
      const { outcome, audience } = await actOnReport(context, userId, input.reportId, input.intent);
      return { to: HERE, toast: DONE[outcome], audience };
    },
  });
}
