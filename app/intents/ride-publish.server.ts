import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/cloudflare";
import { suggestTripCost } from "~/domain/trip-cost";
import { placeByName, placeOptionsOf, resolvePlace } from "~/models/places.server";
import { createRide, getCreateRideContext } from "~/models/ride-publishing.server";
import { createRideIntentSchema, createRideSchema } from "~/schemas/rides";
import { parseIntent } from "~/utils/errors.server";
import { runIntent, type Ctx } from "./run.server";

/**
 * Create a New Ride: `create` publishes (a missing profile or a community the driver is not
 * in is refused as invalid input, 400, on the form); `suggest` answers the same form again
 * with the suggested cost filled in (without JavaScript, or for a locality the browser does
 * not know). A typed place that is not one: its "did you mean" names fill that field's <datalist>.
 */
export async function handleCreateRide(request: Request, context: Ctx, userId: string, formData: FormData) {
  const { intent } = parseIntent(formData, createRideIntentSchema);
  const schema = createRideSchema(Date.now(), resolvePlace);
  const placeOptions = placeOptionsOf(formData);
  if (intent === "suggest") return suggest(context, userId, formData, placeOptions);
  return runIntent(request, context, formData, {
    schema,
    invalid: (_, __, submission) => data({ ...(submission.reply() as object), placeOptions }, { status: 400 }),
    page: () => ({ kind: "form", status: 400 }),
    handle: async (input) => {
      const created = await createRide(context, userId, input);
      return { to: "/dashboard/rides", toast: { title: "Ride created successfully!" }, audience: created.audience };
    },
  });
}

const PLACE_FIELDS = ["fromLocation", "toLocation"] as const;

/** A read, not a write: the form's values back, with the suggested cost and the place options. */
async function suggest(context: Ctx, userId: string, formData: FormData, placeOptions: Record<string, string[]>) {
  const submission = parseWithZod(formData, { schema: createRideSchema(Date.now(), resolvePlace) });
  const { carType } = await getCreateRideContext(context, userId);
  const from = String(formData.get("fromLocation") ?? "");
  const suggestion = suggestTripCost(from, String(formData.get("toLocation") ?? ""), carType, placeByName);
  const reply = submission.reply();
  const initialValue = { ...(reply.initialValue ?? {}) } as Record<string, unknown>;
  if (suggestion) initialValue.tripCost = String(suggestion.paise / 100);
  // A suggestion marks no field the driver has yet to fill; only a place it could not read
  // ("Did you mean ..."), as the commute form and Discover say it, so the driver can fix it.
  const placeErrors = PLACE_FIELDS.flatMap((name) => (reply.error?.[name]?.length ? [[name, reply.error[name]]] : []));
  const error = placeErrors.length ? Object.fromEntries(placeErrors) : undefined;
  const answer = {
    ...reply,
    status: error ? ("error" as const) : undefined,
    error,
    initialValue,
    placeOptions,
    suggestion,
  };
  return data(answer as SubmissionResult<string[]>);
}
