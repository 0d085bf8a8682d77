import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { commuteBookings, commutes, notifications, rideRequests, rides } from "../../db/schema";
import { CANCEL_WINDOW_MS } from "../domain/rides";
import type { Db } from "./db.server";
import { firstOfGroup, notificationInsert, PER_ROW_ID } from "./notifications.server";

// A driver's commute ending and the community losing a driver (issue 34) did the same work in
// two places: tell the riders, cancel their requests and the rides, end the commutes. It is
// one set of statements here, so a fix to one (booked seats, a late cancellation, who is told)
// is a fix to both.

export type EndCommutes = {
  driverId: string;
  /** Which of the driver's rides go (`rides` in scope); only active, not departed ones do. */
  rides: SQL;
  /** Which of the driver's active commutes end, and how. */
  commutes: SQL;
  ending: { endDate: string | SQL; status: "ended" | "active" };
  /**
   * What each rider with a live request on those rides is told: once per rider and route,
   * however many days they held (`message` may use daysListSql and the route's columns);
   * `extra` adds json_object pairs to the data, which links the first of the days.
   */
  notice: { title: string; message: string | SQL; extra: SQL };
  /** Stored on each cancelled ride. */
  reason: string;
  now: number;
  /** When given, every statement runs only if it holds (a membership change having happened). */
  guard?: SQL;
};

/**
 * The statements for one db.batch, in order: the riders' notices (returning whom they went
 * to), the live requests cancelled, the rides cancelled (late when within CANCEL_WINDOW_MS of
 * departure), the commutes ended.
 */
export function endCommutesAndRides(db: Db, o: EndCommutes) {
  const guard = o.guard ?? sql`1`;
  const upcoming = sql`${o.rides} AND ${rides.driverId} = ${o.driverId} AND ${rides.status} = 'active' AND ${rides.departsAt} > ${o.now}`;
  return [
    notificationInsert(
      db,
      {
        id: PER_ROW_ID,
        userId: sql`${rideRequests.riderId}`,
        type: "ride_update",
        title: o.notice.title,
        message: o.notice.message,
        data: sql`json_object('ride_id', ${firstOfGroup(sql`${rides.id}`)}, 'request_id', ${firstOfGroup(sql`${rideRequests.id}`)}, ${o.notice.extra})`,
      },
      o.now,
      sql`FROM ${rideRequests} JOIN ${rides} ON ${rides.id} = ${rideRequests.rideId}
        WHERE ${rideRequests.status} IN ('pending', 'accepted') AND ${upcoming} AND ${guard}
        GROUP BY ${rideRequests.riderId}, ${rides.fromLocation}, ${rides.toLocation}`,
    ).returning({ userId: notifications.userId }),
    db
      .update(rideRequests)
      .set({ status: "cancelled", cancelledAt: o.now })
      .where(
        and(
          inArray(rideRequests.status, ["pending", "accepted"]),
          sql`${rideRequests.rideId} IN (SELECT ${rides.id} FROM ${rides} WHERE ${upcoming})`,
          guard,
        ),
      ),
    db
      .update(rides)
      .set({
        status: "cancelled",
        cancelledAt: o.now,
        bookedSeats: 0,
        cancelReason: o.reason,
        cancelledLate: sql`(${rides.departsAt} - ${o.now} < ${CANCEL_WINDOW_MS})`,
      })
      .where(and(upcoming, guard)),
    db
      .update(commutes)
      .set({ endDate: o.ending.endDate, status: o.ending.status, updatedAt: o.now })
      .where(and(o.commutes, eq(commutes.driverId, o.driverId), eq(commutes.status, "active"), guard)),
    // The standing bookings of the commutes that ended here end with them (their riders were
    // told above); a commute ending after a later day keeps them, and the top-up makes no
    // day after its end.
    db
      .update(commuteBookings)
      .set({ status: "ended", endedAt: o.now, updatedAt: o.now })
      .where(
        and(
          sql`${commuteBookings.status} <> 'ended'`,
          sql`${commuteBookings.commuteId} IN (SELECT ${commutes.id} FROM ${commutes} WHERE ${o.commutes} AND ${commutes.driverId} = ${o.driverId} AND ${commutes.status} = 'ended')`,
          guard,
        ),
      ),
  ] as const;
}
