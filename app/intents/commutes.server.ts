import {
  acceptAllFromRider,
  bookCommuteLegs,
  changeOccurrence,
  changePattern,
  declineBooking,
  endBooking,
  endCommute,
  pauseBooking,
  resumeBooking,
  skipBookedDay,
  skipOccurrence,
} from "~/models/commutes.server";
import { formatWeekdayDate } from "~/domain/time";
import { commuteIntentSchema } from "~/schemas/commutes";
import { safeRedirect } from "~/utils/auth.server";
import { lockCommuteToWomen } from "~/models/commute-women.server";
import { runIntent, type Ctx } from "./run.server";

const FAILED = {
  "book-all": "Could not request those days",
  "accept-all": "Could not accept the requests",
  skip: "Could not skip that day",
  "change-occurrence": "Could not change that day",
  "change-pattern": "Could not change the commute",
  end: "Could not end the commute",
  "decline-booking": "Could not decline the standing booking",
  "skip-day": "Could not skip that day",
  pause: "Could not pause the booking",
  resume: "Could not resume the booking",
  "end-booking": "Could not end the booking",
  "women-lock-all": "Could not keep the open seats for women",
} as const;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * The commute page's form posts (rides.server.ts's pattern): a named intent parsed by zod
 * (400 when unknown), the model decides who may, a refused rule or a form error (no weekday
 * ticked, a past date) is an error toast on the redirect, and whoever was told hears it live.
 */
export function handleCommuteIntent(
  request: Request,
  context: Ctx,
  userId: string,
  commuteId: string,
  formData: FormData,
) {
  const here = `/commutes/${commuteId}`;
  const to = (input: { redirectTo?: string }) => safeRedirect(input.redirectTo, here);
  return runIntent(request, context, formData, {
    schema: commuteIntentSchema(),
    invalid: (intent, messages) => ({
      to: here,
      toast: { title: FAILED[intent], description: messages[0] ?? "Please check the form" },
    }),
    // A 403 / 404 is the page's error boundary; only a refused rule is a toast.
    page: (input) => ({ kind: "toast", to: to(input), title: FAILED[input.intent] }),
    handle: async (input) => {
      switch (input.intent) {
        case "book-all": {
          const { weekdays, seats, notes, pickup } = input;
          const r = await bookCommuteLegs(context, userId, commuteId, input.legs, { weekdays, seats, notes, pickup });
          // A leg refused while the other was booked is said, with its reason (ADR 0048).
          const refused = r.refused.length ? ` Not booked: ${r.refused.join(" ")}` : "";
          const description = `You asked for ${plural(r.requested, "day")} of this commute.${refused}`;
          return { to: to(input), toast: { title: "Requests sent", description }, audience: r.audience };
        }
        case "accept-all": {
          const r = await acceptAllFromRider(context, userId, commuteId, input.riderId);
          const description = r.booking
            ? "New days of this rider's standing booking are accepted as they are added."
            : undefined;
          const toast = { title: `Accepted ${plural(r.accepted, "request")}`, description };
          return { to: to(input), toast, audience: r.audience };
        }
        case "decline-booking": {
          const r = await declineBooking(context, userId, commuteId, input.riderId);
          return { to: to(input), toast: { title: "Standing booking declined" }, audience: r.audience };
        }
        case "skip-day": {
          const r = await skipBookedDay(context, userId, commuteId, input.requestId);
          return { to: to(input), toast: { title: "Day skipped" }, audience: r.audience };
        }
        case "pause": {
          const r = await pauseBooking(context, userId, commuteId, { from: input.from, until: input.until });
          const description = `Nothing is booked from ${formatWeekdayDate(input.from)} to ${formatWeekdayDate(input.until)}; ${plural(r.cancelled, "day")} cancelled.`;
          return { to: to(input), toast: { title: "Booking paused", description }, audience: r.audience };
        }
        case "resume": {
          const r = await resumeBooking(context, userId, commuteId);
          const description = `${plural(r.requested, "day")} booked again.`;
          return { to: to(input), toast: { title: "Booking resumed", description }, audience: r.audience };
        }
        case "end-booking": {
          const r = await endBooking(context, userId, commuteId);
          const description = `${plural(r.cancelled, "day")} cancelled; the driver has been told.`;
          return { to: to(input), toast: { title: "Standing booking ended", description }, audience: r.audience };
        }
        case "skip": {
          const r = await skipOccurrence(context, userId, commuteId, input.rideId, input.reason?.trim() || null);
          const description = "Riders who had asked for that day have been notified.";
          return { to: to(input), toast: { title: "Day skipped", description }, audience: r.audience };
        }
        case "change-occurrence": {
          const { time, seats } = input;
          const r = await changeOccurrence(context, userId, commuteId, input.rideId, { time, seats });
          return { to: to(input), toast: { title: "Day changed" }, audience: r.audience };
        }
        case "change-pattern": {
          const { fromDate, time, seats, tripCost } = input;
          const r = await changePattern(context, userId, commuteId, { fromDate, time, seats, tripCost });
          const toast = { title: "Commute changed", description: `From ${input.fromDate} on.` };
          return { to: to(input), toast, audience: r.audience };
        }
        case "end": {
          const r = await endCommute(context, userId, commuteId, { lastDate: input.lastDate });
          const description = r.legs > 1 ? "Both ways: the return ends with it." : undefined;
          return { to: to(input), toast: { title: "Commute ended", description }, audience: r.audience };
        }
        case "women-lock-all": {
          const r = await lockCommuteToWomen(context, userId, commuteId);
          const toast = {
            title: "Open seats kept for women",
            description: "On every day of this commute; riders already booked keep their seats.",
          };
          return { to: to(input), toast, audience: r.audience };
        }
      }
    },
  });
}
