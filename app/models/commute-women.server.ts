import { and, eq, sql } from "drizzle-orm";
import { commutes, rideRequests, rides } from "../../db/schema";
import { audience, type ModelCtx } from "./context.server";
import type { Db } from "./db.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { notificationInsert, PER_ROW_ID } from "./notifications.server";
import { isWoman, maySeeCommute, SEATS_LOCKED_TO_WOMEN } from "./permissions.server";

// Issue 37, item 8: the comfort lock (issue 16) for a whole commute. The single ride's lock
// records the seats booked at that moment (rides.women_lock_booked) and the women-only rule
// (permissions.server.ts womenRuleAllows, part of the seat rule) does the rest; here every
// upcoming day is locked that way at once, and each day the daily top-up adds is locked as
// soon as its standing bookings are placed (regular riders keep their seats).

export const COMMUTE_LOCK_NEEDS_WOMAN = "Only a woman driver can keep her commute's open seats for women.";
export const COMMUTE_ALREADY_FOR_WOMEN = "This commute's open seats are already for women only.";

/** The days of a locked commute that the top-up run at `now` made, locked after their bookings. */
export function lockNewDaysStatement(db: Db, now: number) {
  return db
    .update(rides)
    .set({ womenLockBooked: sql`${rides.bookedSeats}` })
    .where(
      sql`${rides.createdAt} = ${now} AND ${rides.commuteId} IN (SELECT id FROM commutes WHERE women_lock = 1)
        AND ${rides.womenOnly} = 0 AND ${rides.womenLockBooked} IS NULL`,
    );
}

/**
 * The driver keeps the open seats of every upcoming day of her commute for women: one batch,
 * the guarded flag (a woman driver, an active commute, not yet locked), then, only if it was
 * set, each open day locked at its booked seats and every pending request of a rider who is
 * not a woman declined with a notification, as the single lock does.
 */
export async function lockCommuteToWomen({ db }: ModelCtx, driverId: string, commuteId: string, now = Date.now()) {
  const c = await db
    .select({ driverId: commutes.driverId, womenOnly: commutes.womenOnly, womenLock: commutes.womenLock })
    .from(commutes)
    .where(and(eq(commutes.id, commuteId), maySeeCommute(driverId)))
    .get();
  if (!c) throw new NotFoundError("Commute not found");
  if (c.driverId !== driverId) throw new ForbiddenError("Only the driver can lock this commute's seats.");
  if (c.womenOnly || c.womenLock) throw new ConflictError(COMMUTE_ALREADY_FOR_WOMEN);
  const flagged = sql`EXISTS (SELECT 1 FROM commutes WHERE id = ${commuteId} AND women_lock = 1 AND updated_at = ${now})`;
  const days = sql`${rides.commuteId} = ${commuteId} AND ${rides.status} = 'active' AND ${rides.departsAt} > ${now}`;
  const menPending = sql`FROM ride_requests rq JOIN rides lr ON lr.id = rq.ride_id
    WHERE lr.commute_id = ${commuteId} AND lr.status = 'active' AND lr.departs_at > ${now} AND rq.status = 'pending'
      AND NOT ${isWoman(sql`rq.rider_id`)} AND ${flagged}`;
  const [set, , , rejected] = await db.batch([
    db
      .update(commutes)
      .set({ womenLock: true, updatedAt: now })
      .where(
        and(
          eq(commutes.id, commuteId),
          eq(commutes.driverId, driverId),
          eq(commutes.status, "active"),
          eq(commutes.womenLock, false),
          isWoman(driverId),
        ),
      )
      .returning({ id: commutes.id }),
    db
      .update(rides)
      .set({ womenLockBooked: sql`${rides.bookedSeats}` })
      .where(sql`${days} AND ${rides.womenOnly} = 0 AND ${rides.womenLockBooked} IS NULL AND ${flagged}`),
    notificationInsert(
      db,
      {
        id: PER_ROW_ID,
        userId: sql`rq.rider_id`,
        type: "ride_update",
        title: "Request declined",
        message: sql`${`${SEATS_LOCKED_TO_WOMEN} Your request for `} || lr.from_location || ' → ' || lr.to_location
          || ' was declined.'`,
        data: sql`json_object('ride_id', rq.ride_id, 'request_id', rq.id, 'status', 'rejected')`,
      },
      now,
      menPending,
    ),
    db
      .update(rideRequests)
      .set({ status: "rejected", decidedAt: now })
      .where(
        sql`${rideRequests.status} = 'pending' AND ${rideRequests.rideId} IN (SELECT id FROM rides WHERE ${days})
          AND NOT ${isWoman(sql`${rideRequests.riderId}`)} AND ${flagged}`,
      )
      .returning({ riderId: rideRequests.riderId }),
  ]);
  if (set.length === 0) throw new ConflictError(COMMUTE_LOCK_NEEDS_WOMAN);
  return { audience: audience([...new Set(rejected.map((r) => r.riderId))]) };
}
