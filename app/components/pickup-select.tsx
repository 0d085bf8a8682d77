import { FieldErrors, inputClass } from "./forms";
import { pickupStopText } from "~/domain/pickups";
import { formatTime } from "~/domain/time";
import { cardClass } from "./ride-ui";

/**
 * Where the rider asks to be picked up (issue 36): the ride's start or a place along its
 * route, each with the estimated time the driver is there. A plain <select>: no JavaScript.
 */
export function PickupSelect({
  pickups,
  chosen,
  errors,
}: {
  pickups: { name: string; time: string; detourMinutes: number }[];
  chosen: string | null;
  errors?: string[];
}) {
  if (pickups.length < 2) return null;
  const selected = pickups.find((p) => p.name.toLowerCase() === chosen?.toLowerCase())?.name ?? pickups[0].name;
  return (
    <div>
      <label htmlFor="pickup" className="mb-1 block text-sm font-medium">
        Pickup point
      </label>
      <select
        id="pickup"
        name="pickup"
        defaultValue={selected}
        className={inputClass}
        aria-describedby={errors?.length ? "pickup-error" : undefined}
      >
        {pickups.map((p) => (
          <option key={p.name} value={p.name}>
            {`${p.name} · around ${formatTime(p.time)}${p.detourMinutes ? ` (driver's detour ${p.detourMinutes} min)` : ""}`}
          </option>
        ))}
      </select>
      <FieldErrors id="pickup-error" errors={errors} />
    </div>
  );
}

/** The driver's pickups in the route's order (issue 36), with the estimated time at each. */
export function PickupOrder({
  pickups,
}: {
  pickups: { requestId: string; riderName: string; seats: number; status: string; place: string; at: number }[];
}) {
  if (!pickups.length) return null;
  return (
    <section className={cardClass} aria-labelledby="pickups">
      <h2 id="pickups" className="text-lg font-semibold">
        Pickups in order
      </h2>
      <ol className="mt-2 list-decimal space-y-1 pl-5">
        {pickups.map((p) => (
          <li key={p.requestId} data-testid="pickup-stop">
            {pickupStopText(p)}
          </li>
        ))}
      </ol>
    </section>
  );
}
