import { eq, sql } from "drizzle-orm";
import { D1PreparedQuery } from "drizzle-orm/d1";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRide, createRideRequest, createUser } from "../../db/factories";
import { communities, rideRequests, rides, userProfiles, users, userSettings } from "../../db/schema";
import { getMyRides } from "~/models/my-rides.server";
import { readOf, rowsOf, runReads } from "~/models/statements.server";
import { myRidesQuerySchema } from "~/schemas/ride-search";
import { db } from "../support/worker";

// ADR 0066: hot reads map their rows with each field's decoder resolved once per statement,
// not with drizzle's per-row mapResultRow. What the models receive must be exactly what
// drizzle's own mapping gives, key order included: awaiting the query for rowsOf, drizzle's
// batch for a batch's reads. (A batch reads rows as objects, so columns of the same name
// collide there, in drizzle's batch as in this: the models alias such columns.)

afterEach(() => vi.restoreAllMocks());

async function world() {
  const asha = await createUser({ db: db() }, { fullName: "Asha Rao" });
  const ravi = await createUser({ db: db() }, { fullName: "Ravi Kumar" });
  const nobody = await createUser({ db: db() }, { fullName: "No Profile" });
  await db().delete(userProfiles).where(eq(userProfiles.userId, nobody.id));
  await db()
    .update(userProfiles)
    .set({ vehicleInfo: { has_car: true, car_type: "petrol" }, smokingAllowed: true })
    .where(eq(userProfiles.userId, asha.id));
  const ride = await createRide({ db: db() }, { driverId: asha.id });
  await createRide({ db: db() }, { driverId: ravi.id });
  await createRideRequest({ db: db() }, { rideId: ride.id, riderId: ravi.id, status: "accepted" });
  await createRideRequest({ db: db() }, { rideId: ride.id, riderId: nobody.id, status: "pending" });
  return { asha, ravi, nobody };
}

// Flat and nested selections: columns (text, boolean, JSON, integer), plain, mapped and aliased
// SQL, a left join that finds nothing (its table null), a nested object of two tables.
const selections = () => ({
  flat: db()
    .select({
      id: rides.id,
      from: rides.fromLocation,
      women: rides.womenOnly,
      vias: rides.viaPlaceIds,
      departs: rides.departsAt,
      driver: userProfiles.fullName,
      vehicle: userProfiles.vehicleInfo,
      smoking: userProfiles.smokingAllowed,
      community: communities.name,
      asked: sql<number>`(SELECT count(*) FROM ride_requests WHERE ride_id = ${rides.id}) > 0`.mapWith(Boolean),
      seatsLeft: sql<number>`${rides.seats} - ${rides.bookedSeats}`.mapWith(Number),
      raw: sql<string>`'x' || ${rides.seats}`,
      shout: sql<string>`upper(${rides.fromLocation})`.as("shout"),
    })
    .from(rides)
    .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
    .leftJoin(communities, eq(communities.id, rides.communityId))
    .orderBy(rides.id),
  nested: db()
    .select({
      id: users.id,
      profile: { name: userProfiles.fullName, smoking: userProfiles.smokingAllowed, vehicle: userProfiles.vehicleInfo },
      settings: { email: userSettings.emailNotifications },
      request: { id: rideRequests.id, status: rideRequests.status },
      mixed: { name: userProfiles.fullName, request: rideRequests.status },
      two: sql`1 + 1`.mapWith(Number),
    })
    .from(users)
    .innerJoin(userSettings, eq(userSettings.userId, users.id))
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .leftJoin(rideRequests, eq(rideRequests.riderId, users.id))
    .orderBy(users.id),
  tables: db()
    .select({ ride: rides, profile: userProfiles })
    .from(rides)
    .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
    .orderBy(rides.id),
});

describe("hot reads' row mapping (ADR 0066)", () => {
  it("gives what drizzle's own mapping gives, through a batch and through rowsOf", async () => {
    await world();
    const keys = (rows: object[]) => rows.map((r) => JSON.stringify(r, (_k, v) => v ?? "null"));
    for (const [name, query] of Object.entries(selections())) {
      const expected = await query;
      expect(expected.length, name).toBeGreaterThan(1);
      const direct = await rowsOf(db(), query);
      // toStrictEqual, and the keys' order (a card serialises its fields in that order).
      expect(direct, name).toStrictEqual(expected);
      expect(keys(direct), name).toEqual(keys(expected));
      const [drizzleBatch] = await db().batch([query]);
      const [batched] = await runReads(db(), [readOf(db(), query)]);
      expect(batched, name).toStrictEqual(drizzleBatch);
      expect(keys(batched), name).toEqual(keys(drizzleBatch));
    }
  });

  it("a left join that found nothing is null as a whole, a partly found object is kept", async () => {
    const { nobody, ravi } = await world();
    const { nested } = selections();
    const rows = await rowsOf(db(), nested);
    const none = rows.find((r) => r.id === nobody.id);
    // No profile: that nested object is null; a request found: its object is there.
    expect(none?.profile).toBeNull();
    expect(none?.request?.status).toBe("pending");
    // Two tables in one object are never nulled for one of them.
    expect(none?.mixed).toEqual({ name: null, request: "pending" });
    expect(rows.find((r) => r.id === ravi.id)?.profile?.name).toBe("Ravi Kumar");
  });

  it("never maps rows with drizzle's per-row mapper (the cost it removes)", async () => {
    await world();
    const mapAll = vi.spyOn(D1PreparedQuery.prototype as never, "mapAllResult" as never);
    const { flat, nested } = selections();
    await runReads(db(), [readOf(db(), flat), readOf(db(), nested)]);
    await rowsOf(db(), flat);
    expect(mapAll).not.toHaveBeenCalled();
    // The oracle does use it: the spy sees drizzle's own mapping.
    await flat;
    expect(mapAll).toHaveBeenCalled();
  });

  it("Manage Bookings reads its requests as before", async () => {
    const { asha } = await world();
    const query = myRidesQuerySchema.parse({ tab: "manage" });
    const mapAll = vi.spyOn(D1PreparedQuery.prototype as never, "mapAllResult" as never);
    const page = await getMyRides({ db: db() }, asha.id, query);
    expect(mapAll).not.toHaveBeenCalled();
    expect(page.counts).toEqual({ activeRides: 1, pending: 1, accepted: 1, rejected: 0 });
    expect(page.requests.map((r) => [r.riderName, r.status])).toEqual(
      expect.arrayContaining([
        ["Ravi Kumar", "accepted"],
        [null, "pending"],
      ]),
    );
  });
});
