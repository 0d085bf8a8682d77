import { env } from "./env";
import { createRide, createRideRequest, createUser, type RideOptions } from "../../db/factories";
import { db, signedInUser } from "./worker";

export { createRide, createRideRequest, createUser };

/** A driver (signed in) with one upcoming ride. */
export async function driverWithRide(opts: Partial<RideOptions> = {}) {
  const driver = await signedInUser({ fullName: "Priya Sharma" });
  const ride = await createRide({ db: db() }, { driverId: driver.id, ...opts });
  return { driver, ride };
}

export async function rideRow(id: string) {
  return env.DB.prepare("SELECT status, seats, booked_seats FROM rides WHERE id = ?")
    .bind(id)
    .first<{ status: string; seats: number; booked_seats: number }>();
}

export async function requestRow(id: string) {
  return env.DB.prepare("SELECT status, seats FROM ride_requests WHERE id = ?")
    .bind(id)
    .first<{ status: string; seats: number }>();
}

/** The toast a redirect carries, decoded from its flash cookie. */
export function toastOf(res: Response): { title: string; description?: string; type?: string } | null {
  for (const sc of res.headers.getSetCookie()) {
    const m = /^lr_toast=([^;]*)/.exec(sc);
    if (!m || !m[1]) continue;
    const value = decodeURIComponent(m[1]).split(".")[0];
    try {
      return JSON.parse(decodeURIComponent(escape(atob(value))));
    } catch {
      return null;
    }
  }
  return null;
}
