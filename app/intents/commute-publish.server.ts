import { createCommute } from "~/models/commutes.server";
import { placeOptionsOf, resolvePlace } from "~/models/places.server";
import { createCommuteSchema } from "~/schemas/commutes";
import { data } from "@remix-run/cloudflare";
import { runIntent, type Ctx } from "./run.server";

/**
 * Publish a commute. A typed place that is not one: its "did you mean" names fill that
 * field's <datalist>. A missing profile or a community the driver is not in is refused as
 * invalid input (400), on the form.
 */
export function handleCreateCommute(request: Request, context: Ctx, userId: string, formData: FormData) {
  const placeOptions = placeOptionsOf(formData);
  return runIntent(request, context, formData, {
    schema: createCommuteSchema(Date.now(), resolvePlace),
    invalid: (_, __, submission) => data({ ...(submission.reply() as object), placeOptions }, { status: 400 }),
    page: () => ({ kind: "form", status: 400 }),
    handle: async (input) => {
      const created = await createCommute(context, userId, input);
      const n = created.occurrences;
      const ways = created.returnId ? " (both ways)" : "";
      const description = `${n} ride${n === 1 ? "" : "s"}${ways} in the next 14 days; more are added every day.`;
      return {
        to: `/commutes/${created.id}`,
        toast: { title: "Commute published!", description },
        audience: created.audience,
      };
    },
  });
}
