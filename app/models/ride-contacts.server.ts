import { and, eq, or, sql } from "drizzle-orm";
import { rides, userProfiles, type VehicleInfo } from "../../db/schema";
import type { Db } from "./db.server";
import { maySeeContact } from "./permissions.server";

// Issue 37, item 5: on the day of a ride its driver and accepted riders may call each other,
// and the riders see the car. Who sees what is maySeeContact's (permissions.server.ts) alone.

export type DayContact = {
  userId: string;
  name: string | null;
  isDriver: boolean;
  /** Null: not in the window, or its owner keeps it private (chat only). */
  phone: string | null;
  vehicle: { make: string | null; model: string | null; color: string | null; registration: string | null } | null;
};

/**
 * The viewer's contacts on one ride today (for the ride page's batch, AlsoReads): the driver
 * for a rider, the accepted riders for the driver; nobody outside maySeeContact's window.
 */
export function rideContactsQuery(db: Db, viewerId: string, rideId: string, now: number) {
  const person = sql`${userProfiles.userId}`;
  return db
    .select({
      userId: userProfiles.userId,
      name: userProfiles.fullName,
      isDriver: sql<number>`(${userProfiles.userId} = ${rides.driverId})`.as("contact_is_driver"),
      phone: sql<string | null>`CASE WHEN ${maySeeContact(viewerId, person, now, "phone")}
        THEN ${userProfiles.phoneNumber} END`.as("contact_phone"),
      vehicle: sql<string | null>`CASE WHEN ${maySeeContact(viewerId, person, now, "vehicle")}
        THEN ${userProfiles.vehicleInfo} END`.as("contact_vehicle"),
    })
    .from(rides)
    .innerJoin(
      userProfiles,
      or(
        eq(userProfiles.userId, rides.driverId),
        sql`${userProfiles.userId} IN (SELECT rider_id FROM ride_requests WHERE ride_id = ${rides.id}
          AND status = 'accepted')`,
      ),
    )
    .where(
      and(
        eq(rides.id, rideId),
        sql`${userProfiles.userId} <> ${viewerId}`,
        maySeeContact(viewerId, person, now, "person"),
      ),
    )
    .orderBy(userProfiles.fullName)
    .limit(20);
}

/** rideContactsQuery's rows, as the page shows them. */
export function dayContactsFrom(rows: unknown): DayContact[] {
  return (rows as Awaited<ReturnType<typeof rideContactsQuery>>).map((r) => {
    const v = r.vehicle ? (JSON.parse(r.vehicle) as VehicleInfo) : null;
    return {
      userId: r.userId,
      name: r.name,
      isDriver: Boolean(r.isDriver),
      phone: r.phone,
      vehicle: v
        ? {
            make: v.make ?? null,
            model: v.model ?? null,
            color: v.color ?? null,
            registration: v.license_plate ?? null,
          }
        : null,
    };
  });
}
