import { requestSeats } from "~/models/ride-requests.server";
import { bookRideSchema } from "~/schemas/booking";
import { redirectWithToast } from "~/utils/toast.server";
import { runIntent, type Ctx } from "./run.server";

/** The spec: a ride the booking page cannot load sends the visitor back to /rides. */
export const rideMissing = (request: Request, env: Env) => () =>
  redirectWithToast(request, env, "/rides", {
    title: "Error loading ride",
    description: "This ride could not be found.",
    type: "error",
  });

/** Ask for seats on a ride (the booking page, or the ride page's request-to-join form). */
export function handleBooking(request: Request, context: Ctx, userId: string, rideId: string, formData: FormData) {
  return runIntent(request, context, formData, {
    schema: bookRideSchema,
    invalid: "reply",
    page: () => ({ kind: "form", notFound: rideMissing(request, context.env) }),
    handle: async (input) => {
      const created = await requestSeats(context, userId, rideId, input);
      // The spec's toasts: the ride page's request-to-join form says "Ride request sent
      // successfully!", the booking page "Ride request submitted!".
      const toast =
        formData.get("source") === "ride"
          ? { title: "Ride request sent successfully!", description: "The driver will respond soon." }
          : {
              title: "Ride request submitted!",
              description: "Your request has been sent to the driver. You'll be notified when they respond.",
            };
      return { to: `/booking-confirmation/${created.id}`, toast, audience: created.audience };
    },
  });
}
