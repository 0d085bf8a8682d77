import { confirmWeekReceived, settleWeek } from "~/models/settle-up.server";
import { formatRupees } from "~/domain/money";
import { statementPath } from "~/domain/settle-up";
import { settleUpActionSchema } from "~/schemas/settle-up";
import { runIntent, type Ctx } from "./run.server";

/** A week statement's posts: a redirect to the statement with a toast; a refusal is an error toast there. */
export function handleSettleUpIntent(
  request: Request,
  context: Ctx,
  userId: string,
  statement: { week: string; riderId: string; driverId: string },
  formData: FormData,
) {
  const here = statementPath(statement.week, statement.riderId, statement.driverId);
  return runIntent(request, context, formData, {
    schema: settleUpActionSchema,
    invalid: "unknown",
    page: () => ({ kind: "toast", to: here }),
    handle: async (input) => {
      switch (input.intent) {
        case "pay-week": {
          const { audience } = await settleWeek(context, userId, { ...input, ...statement });
          const rides = `${input.expectedRides} ${input.expectedRides === 1 ? "ride" : "rides"}`;
          return {
            to: here,
            toast: {
              title: "Week marked as paid",
              description: `${formatRupees(input.expectedPaise)} for ${rides}. Your driver has been asked to confirm.`,
            },
            audience,
          };
        }
        case "confirm-week": {
          const { audience } = await confirmWeekReceived(context, userId, input.settlementId);
          return { to: here, toast: { title: "Payment received", description: "Thanks for confirming." }, audience };
        }
      }
    },
  });
}
