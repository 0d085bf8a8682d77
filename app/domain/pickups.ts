import { formatTime, istTime } from "./time";

// How a driver's pickups are said (issue 36, item 2): the ride page's "Pickups in order", the
// reminder e-mail and the panel notice use the same words, so they never disagree.

export type PickupStop = { riderName: string; seats: number; status: string; place: string; at: number };

/** "9:05 AM · Bellandur · Kavya Nair (1 seat)"; a request not yet accepted says so. */
export function pickupStopText(p: PickupStop): string {
  const seats = `${p.seats} seat${p.seats === 1 ? "" : "s"}${p.status === "pending" ? ", pending" : ""}`;
  return `${formatTime(istTime(p.at))} · ${p.place} · ${p.riderName} (${seats})`;
}

/** A rider's own pickup: "Your pickup: Bellandur, around 9:05 AM". */
export function ownPickupText(p: Pick<PickupStop, "place" | "at">): string {
  return `Your pickup: ${p.place}, around ${formatTime(istTime(p.at))}`;
}
