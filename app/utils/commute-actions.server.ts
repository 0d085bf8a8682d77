import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { acceptAllFromRider, bookCommute, changeOccurrence, changePattern, endCommute, skipOccurrence } from "../models/commutes.server";
import { ConflictError, isModelError } from "../models/errors.server";
import { commuteIntentSchema } from "../schemas/commutes";
import { safeRedirect } from "./auth.server";
import { publishChange } from "./fanout.server";
import { redirectWithToast } from "./toast.server";

const FAILED: Record<string, string> = {
  "book-all": "Could not request those days",
  "accept-all": "Could not accept the requests",
  skip: "Could not skip that day",
  "change-occurrence": "Could not change that day",
  "change-pattern": "Could not change the commute",
  end: "Could not end the commute",
};

/**
 * The commute page's form posts (ride-actions.server.ts's pattern): a named intent parsed
 * by zod (400 when unknown or invalid, with its message), the model decides who may, a
 * refused rule is an error toast on the redirect, and whoever was told hears it live.
 */
export async function handleCommuteIntent(request: Request, context: Pick<AppLoadContext, "db" | "env" | "ctx">, userId: string, commuteId: string, formData: FormData) {
  const fields: Record<string, unknown> = Object.fromEntries(formData);
  fields.weekdays = formData.getAll("weekdays");
  const parsed = commuteIntentSchema().safeParse(fields);
  const here = `/commutes/${commuteId}`;
  if (!parsed.success) {
    const intent = String(formData.get("intent") ?? "");
    if (!(intent in FAILED)) throw data("Unknown action", { status: 400 });
    // A form error (no weekday ticked, a past date) comes back as a toast on the page, like a refused rule.
    const message = parsed.error.issues[0]?.message ?? "Please check the form";
    return redirectWithToast(request, context.env, here, { title: FAILED[intent], description: message, type: "error" });
  }
  const input = parsed.data;
  const to = safeRedirect(input.redirectTo, here);
  let done: { title: string; description?: string };
  try {
    switch (input.intent) {
      case "book-all": {
        const r = await bookCommute(context, userId, commuteId, { weekdays: input.weekdays, seats: input.seats, notes: input.notes });
        publishChange(context, r.audience);
        done = { title: "Requests sent", description: `You asked for ${r.requested} day${r.requested === 1 ? "" : "s"} of this commute.` };
        break;
      }
      case "accept-all": {
        const r = await acceptAllFromRider(context, userId, commuteId, input.riderId);
        publishChange(context, r.audience);
        done = { title: `Accepted ${r.accepted} request${r.accepted === 1 ? "" : "s"}` };
        break;
      }
      case "skip": {
        const r = await skipOccurrence(context, userId, commuteId, input.rideId, input.reason?.trim() || null);
        publishChange(context, r.audience);
        done = { title: "Day skipped", description: "Riders who had asked for that day have been notified." };
        break;
      }
      case "change-occurrence": {
        const r = await changeOccurrence(context, userId, commuteId, input.rideId, { time: input.time, seats: input.seats });
        publishChange(context, r.audience);
        done = { title: "Day changed" };
        break;
      }
      case "change-pattern": {
        const r = await changePattern(context, userId, commuteId, { fromDate: input.fromDate, time: input.time, seats: input.seats, tripCost: input.tripCost });
        publishChange(context, r.audience);
        done = { title: "Commute changed", description: `From ${input.fromDate} on.` };
        break;
      }
      case "end": {
        const r = await endCommute(context, userId, commuteId, { lastDate: input.lastDate });
        publishChange(context, r.audience);
        done = { title: "Commute ended" };
        break;
      }
    }
  } catch (e) {
    if (e instanceof ConflictError) return redirectWithToast(request, context.env, to, { title: FAILED[input.intent], description: e.message, type: "error" });
    if (isModelError(e)) throw data(e.message, { status: e.status });
    throw e;
  }
  return redirectWithToast(request, context.env, to, done);
}
