import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Avatar } from "~/components/avatar";
import { PickupSelect } from "~/components/pickup-select";
import { FieldErrors, FormErrors, TextareaField, buttonClass, inputClass } from "~/components/forms";
import { BackLink, cardClass, RidePrice, RideRoute, RideWhen } from "~/components/ride-ui";
import { RouteMap } from "~/components/route-map";
import { mayShareEqually, shownMaxPaise, shownPriceText } from "~/domain/cost-split";
import { formatRupees } from "~/domain/money";
import { costPerSeatPaise, NOTES_MAX } from "~/domain/rides";
import { formatTime } from "~/domain/time";
import { handleBooking, rideMissing } from "~/intents/booking.server";
import { DUPLICATE_REQUEST } from "~/models/ride-requests.server";
import { getRideForBooking } from "~/models/rides.server";
import { requireUser } from "~/utils/auth.server";
import { orRespond } from "~/utils/errors.server";
import type { z } from "zod";
import type { bookRideSchema } from "~/schemas/booking";

export const meta: MetaFunction = () => [{ title: "Book a Ride | LoopRide" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  // ?pickup=: the place a search found the rider at (issue 36), offered as a pickup point.
  const searched = new URL(request.url).searchParams.get("pickup");
  const ride = await orRespond(
    getRideForBooking(context, user.id, params.id ?? "", Date.now(), searched),
    rideMissing(request, context.env),
  );
  // The viewer's live request first (the form could only be refused), then the seat rule's reason.
  const refusal = ride.myRequestId ? DUPLICATE_REQUEST : ride.refusal;
  return { ride, refusal, searched };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleBooking(request, context, user.id, params.id ?? "", await request.formData());
}

export default function BookRide() {
  const { ride, refusal, searched } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const available = Math.max(0, ride.seats - ride.bookedSeats);
  const perSeat = costPerSeatPaise(ride.tripCostPaise, ride.seats);
  // The pickup the search found the rider at, on the map (the start is drawn as the start).
  const pickup = ride.pickups.find(
    (p) => p.name !== ride.fromLocation && p.name.toLowerCase() === searched?.toLowerCase(),
  );
  const [form, fields] = useForm<z.input<typeof bookRideSchema>>({
    id: "book-ride",
    lastResult,
    defaultValue: { seats: "1" },
    // Checked on the server only (the seat rule needs the database anyway): a client copy of
    // the schema put this page's initial JavaScript over its 130 KB budget once the route map
    // joined it (issue 36).
  });
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div className="flex items-center gap-3">
        <BackLink href={`/rides/${ride.id}`}>Back</BackLink>
        <h1 className="text-2xl font-bold">Book a Ride</h1>
      </div>
      <section className={`${cardClass} space-y-3`} aria-label="Ride">
        <div className="flex items-center gap-3">
          <Avatar name={ride.driverName} url={ride.driverAvatarUrl} />
          <p className="font-medium">{ride.driverName ?? "Unknown Driver"}</p>
        </div>
        <RideRoute from={ride.fromLocation} to={ride.toLocation} />
        <p className="text-sm">
          <RideWhen date={ride.date} time={ride.time} /> · {available} of {ride.seats} seats left
        </p>
        <RidePrice
          tripCostPaise={ride.tripCostPaise}
          seats={ride.seats}
          bookedSeats={ride.bookedSeats}
          pricingMode={ride.pricingMode}
          fairSeatPaise={ride.fairSeatPaise}
        />
        {mayShareEqually(ride) ? (
          // ADR 0046: the equal split depends on who rides, so the promise is a ceiling.
          <p className="text-sm" data-testid="price-promise">
            {`Equal split: you pay at most ${formatRupees(perSeat)} a seat; less if more riders join.`}
          </p>
        ) : null}
        <RouteMap
          from={{ name: ride.fromLocation, lat: ride.fromLat, lng: ride.fromLng }}
          to={{ name: ride.toLocation, lat: ride.toLat, lng: ride.toLng }}
          vias={ride.vias}
          pickup={pickup && { ...pickup, time: formatTime(pickup.time) }}
        />
      </section>
      {refusal ? (
        <div className={`${cardClass} space-y-3`} role="alert">
          <p className="font-semibold">{refusal}</p>
          {ride.myRequestId ? (
            <Link to={`/booking-confirmation/${ride.myRequestId}`} className={buttonClass}>
              {ride.myRequestStatus === "accepted" ? "View your booking" : "View your request"}
            </Link>
          ) : (
            <Link to="/rides" className={buttonClass}>
              Find another ride
            </Link>
          )}
        </div>
      ) : (
        <Form method="post" {...getFormProps(form)} className={`${cardClass} space-y-4`}>
          <FormErrors errors={form.errors} />
          <div>
            <label htmlFor={fields.seats.id} className="mb-1 block text-sm font-medium">
              Seats
            </label>
            <select {...getSelectProps(fields.seats)} key={fields.seats.key} className={inputClass}>
              {Array.from({ length: available }, (_, i) => i + 1).map((n) => (
                <option key={n} value={n}>
                  {n} seat{n === 1 ? "" : "s"} ·{" "}
                  {shownPriceText(shownMaxPaise(ride.tripCostPaise, ride.seats, n, ride.pricingMode), ride)}
                </option>
              ))}
            </select>
            <FieldErrors id={fields.seats.errorId} errors={fields.seats.errors} />
          </div>
          <PickupSelect pickups={ride.pickups} chosen={searched} errors={fields.pickup.errors} />
          <TextareaField
            label="Message to the driver (optional)"
            field={fields.notes}
            rows={3}
            maxLength={NOTES_MAX}
            placeholder="Where you'd like to be picked up..."
          />
          <button type="submit" className={buttonClass} disabled={navigation.state === "submitting"}>
            {navigation.state === "submitting" ? "Sending..." : "Request Seats"}
          </button>
        </Form>
      )}
    </div>
  );
}
