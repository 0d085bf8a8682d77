import { and, eq } from "drizzle-orm";
import { rides, savedRides } from "../../db/schema";
import { NotFoundError } from "./errors.server";
import { maySeeRide } from "./permissions.server";
import { type ModelCtx } from "./context.server";

/** Saves (or unsaves) a ride for the acting user only; saving twice is one row; only a ride they may see. */
export async function setRideSaved({ db }: ModelCtx, userId: string, rideId: string, saved: boolean, now = Date.now()) {
  if (!saved) {
    await db.delete(savedRides).where(and(eq(savedRides.userId, userId), eq(savedRides.rideId, rideId)));
    return;
  }
  const ride = await db
    .select({ id: rides.id })
    .from(rides)
    .where(and(eq(rides.id, rideId), maySeeRide(userId, { withRequests: true })))
    .get();
  if (!ride) throw new NotFoundError("Ride not found");
  await db.insert(savedRides).values({ userId, rideId, createdAt: now }).onConflictDoNothing();
}
