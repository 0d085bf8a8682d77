import { and, asc, desc, eq, getTableColumns, gte, inArray, is, isNotNull, SQL, sql } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { communities, commutes, notifications, rideRequests, rides, userProfiles } from "../../db/schema";
import { COMMUTE_HORIZON_DAYS, horizonDates, weekdaysLabel } from "../domain/commutes";
import { newId } from "../domain/ids";
import { carTypeOf } from "../domain/rides";
import { formatRupees } from "../domain/money";
import { addDays, formatTime, formatWeekdayDate, IST_OFFSET_MS, istDate, istToInstant } from "../domain/time";
import { suggestTripCost } from "../domain/trip-cost";
import type { CreateCommuteInput } from "../schemas/commutes";
import { audience, type ModelCtx } from "./context.server";
import type { Db } from "./db.server";
import { isUniqueViolation } from "./db-errors.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { placeByName, ridePlaceColumns } from "./places.server";
import { firstOfGroup, notificationInsert, PER_ROW_ID } from "./notifications.server";
import { alertSavedSearches } from "./saved-searches.server";
import { DUPLICATE_REQUEST, shownMaxSql } from "./ride-requests.server";
import { cancelRide, mayPublish } from "./ride-publishing.server";
import { endCommutesAndRides } from "./commute-ending.server";
import {
  inGoodStanding,
  maySeeCommute,
  seatFactColumns,
  seatFactsOf,
  seatRefusal,
  seatRule,
  splitSeatFacts,
} from "./permissions.server";

// Recurring commutes (issue 14; docs/decisions/0017-recurring-commutes.md). A commute is a
// weekly pattern; its occurrences are ordinary rides (rides.commute_id), so booking,
// accepting, cancelling, completing and the capacity guarantees of a single ride apply to
// each of them unchanged. Occurrences exist for the next COMMUTE_HORIZON_DAYS days: written
// when the pattern is published and topped up by the daily Cron Trigger. The partial unique
// index rides_commute_date_unique makes every top-up idempotent (ON CONFLICT DO NOTHING).

export const COMMUTE_NOT_FOUND = "Commute not found";
export const ONLY_DRIVER = "Only the driver can change this commute.";
export const COMMUTE_ENDED = "This commute has ended.";
export const NOTHING_TO_BOOK =
  "No upcoming day of this commute on those weekdays has that many seats free (or you have already asked for them).";
export const NOTHING_TO_ACCEPT = "This rider has no pending request on this commute that still fits.";
export const SEATS_BELOW_BOOKED = "More seats are already booked on one of those days than the new number of seats.";

/** The daily top-up's Cron Trigger (06:00 IST); the same string as in wrangler.toml. */
export const COMMUTE_TOP_UP_CRON = "30 0 * * *";

const HOUR_MS = 3_600_000;

/** An occurrence's departure instant, in SQL, from an IST date and an HH:MM time (istToInstant). */
const departsAtSql = (date: SQL | string, time: SQL | string) =>
  sql`(CAST(strftime('%s', ${date}) AS INTEGER) * 1000 + CAST(substr(${time}, 1, 2) AS INTEGER) * ${HOUR_MS} + CAST(substr(${time}, 4, 2) AS INTEGER) * 60000 - ${IST_OFFSET_MS})`;

/** The occurrence's weekday is in a bit set (bit = strftime('%w')). */
const onWeekdays = (mask: SQL | number, date: SQL) =>
  sql`((${mask} >> CAST(strftime('%w', ${date}) AS INTEGER)) & 1) = 1`;

/**
 * The SELECT list of an INSERT … SELECT into `table`, in the table's column order (drizzle
 * names every column): the given expressions, else the column's default, else NULL. A
 * column another change adds later then needs no edit here unless it has no default.
 */
function selectInTableOrder<T extends SQLiteTable>(
  table: T,
  values: Partial<Record<keyof T["_"]["columns"], SQL>>,
): SQL {
  const list = Object.entries(getTableColumns(table)).map(([key, col]) => {
    const given = (values as Record<string, SQL | undefined>)[key];
    if (given) return given;
    if (col.default === undefined) return sql`NULL`;
    return is(col.default, SQL) ? col.default : sql`${col.mapToDriverValue(col.default)}`;
  });
  return sql.join(list, sql`, `);
}

/**
 * The missing occurrences of active commutes (all of them, or one) for the horizon starting
 * today, as one INSERT … SELECT: a day is inserted only if it is one of the pattern's
 * weekdays within its dates and still ahead; a day that exists (even skipped) is left alone.
 * A driver removed from, or suspended by, the commute's community gets no new days there
 * (the seat rule refuses bookings on their days anyway; issue 34).
 */
function topUpStatement(db: Db, now: number, commuteId?: string) {
  const days = horizonDates(istDate(now));
  const values = sql.join(
    days.map((d) => sql`(${d})`),
    sql`, `,
  );
  const date = sql`d.column1`;
  const departs = departsAtSql(date, sql`c.time`);
  const columns = selectInTableOrder(rides, {
    id: PER_ROW_ID,
    driverId: sql`c.driver_id`,
    communityId: sql`c.community_id`,
    fromLocation: sql`c.from_location`,
    toLocation: sql`c.to_location`,
    date,
    time: sql`c.time`,
    departsAt: departs,
    seats: sql`c.seats`,
    tripCostPaise: sql`c.trip_cost_paise`,
    distanceKm: sql`c.distance_km`,
    notes: sql`c.notes`,
    vehicleType: sql`c.vehicle_type`,
    fromPlaceId: sql`c.from_place_id`,
    toPlaceId: sql`c.to_place_id`,
    fromLat: sql`c.from_lat`,
    fromLng: sql`c.from_lng`,
    toLat: sql`c.to_lat`,
    toLng: sql`c.to_lng`,
    fromCell: sql`c.from_cell`,
    toCell: sql`c.to_cell`,
    createdAt: sql`${now}`,
    commuteId: sql`c.id`,
    // Issue 16: each occurrence takes its community's rules as they are when it is created.
    womenOnly: sql`coalesce((SELECT women_only FROM communities WHERE id = c.community_id), 0)`,
    pricingMode: sql`(SELECT pricing_mode FROM communities WHERE id = c.community_id)`,
  });
  return db
    .insert(rides)
    .select(
      sql`SELECT ${columns} FROM commutes c, (VALUES ${values}) d
    WHERE c.status = 'active' AND (c.end_date IS NULL OR c.end_date >= ${days[0]})
      ${commuteId ? sql`AND c.id = ${commuteId}` : sql``}
      AND ${date} >= c.start_date AND (c.end_date IS NULL OR ${date} <= c.end_date)
      AND ${onWeekdays(sql`c.weekdays`, date)} AND ${departs} > ${now}
      AND (c.community_id IS NULL OR ${inGoodStanding(sql`c.community_id`, sql`c.driver_id`, now)})`,
    )
    .onConflictDoNothing()
    .returning({ id: rides.id, driverId: rides.driverId, commuteId: rides.commuteId });
}

/**
 * The daily top-up (Cron Trigger, server.ts): creates exactly the occurrences that are
 * missing for the next COMMUTE_HORIZON_DAYS days. Running it twice, or twice at once,
 * creates nothing twice (the unique index decides). Returns the rides it created.
 */
export async function topUpCommutes({ db }: ModelCtx, now = Date.now()) {
  return topUpStatement(db, now);
}

/**
 * A driver publishes a weekly commute. The same preconditions as publishing a ride (a
 * profile; a shared community must be one they are an approved member of); the pattern
 * and its first occurrences are written in one batch.
 */
export async function createCommute({ db }: ModelCtx, driverId: string, input: CreateCommuteInput, now = Date.now()) {
  // The same precondition as a single ride (ride-publishing.server.ts mayPublish).
  const { profile } = await mayPublish(db, driverId, input.communityId, now);
  const from = placeByName(input.fromLocation);
  const to = placeByName(input.toLocation);
  // The schema resolved both names on the server; a caller that skipped it is refused here.
  if (!from || !to) throw new ConflictError("Please choose pickup and drop from the list of places.");
  const vehicle = profile.vehicleInfo;
  const suggestion = suggestTripCost(from.name, to.name, carTypeOf(vehicle), placeByName);
  const id = newId();
  const [, created] = await db.batch([
    db.insert(commutes).values({
      id,
      driverId,
      communityId: input.communityId,
      fromLocation: input.fromLocation,
      toLocation: input.toLocation,
      weekdays: input.weekdays,
      time: input.time,
      seats: input.seats,
      tripCostPaise: input.tripCost,
      distanceKm: suggestion ? Math.round(suggestion.roadKm) : null,
      notes: input.notes,
      vehicleType: vehicle?.has_car && vehicle.car_type ? vehicle.car_type : null,
      ...ridePlaceColumns(from, to),
      startDate: input.startDate,
      endDate: input.endDate,
      status: "active",
      createdAt: now,
      updatedAt: now,
    }),
    topUpStatement(db, now, id),
  ]);
  // Saved searches matching its days hear of it once (issue 14); the commute stands even if that fails.
  const alerted = await alertSavedSearches(
    { db },
    created.map((r) => r.id),
    now,
  ).catch((e: unknown) => (console.error(e), { audience: audience() }));
  return { id, occurrences: created.length, audience: alerted.audience };
}

const commuteColumns = {
  id: commutes.id,
  driverId: commutes.driverId,
  communityId: commutes.communityId,
  fromLocation: commutes.fromLocation,
  toLocation: commutes.toLocation,
  weekdays: commutes.weekdays,
  time: commutes.time,
  seats: commutes.seats,
  tripCostPaise: commutes.tripCostPaise,
  notes: commutes.notes,
  startDate: commutes.startDate,
  endDate: commutes.endDate,
  status: commutes.status,
};

const occurrenceColumns = {
  id: rides.id,
  date: rides.date,
  time: rides.time,
  departsAt: rides.departsAt,
  seats: rides.seats,
  bookedSeats: rides.bookedSeats,
  tripCostPaise: rides.tripCostPaise,
  status: rides.status,
};

/**
 * The commute page: the pattern, its occurrences from today on, and the live requests on
 * them the viewer may see (all of them for the driver, their own for a rider). Three
 * statements, one round trip. Not visible (a community the viewer is outside of): not found.
 */
export async function getCommutePage({ db }: ModelCtx, viewerId: string, commuteId: string, now = Date.now()) {
  const today = istDate(now);
  const [commute, occurrences, requests] = await db.batch([
    db
      .select({
        ...commuteColumns,
        driverName: userProfiles.fullName,
        // The driver's stars are totals on the profile (issue 35, item 8: shown in the header).
        driverRatingCount: userProfiles.ratingCount,
        driverRatingStars: userProfiles.ratingStars,
        communityName: communities.name,
      })
      .from(commutes)
      .leftJoin(userProfiles, eq(userProfiles.userId, commutes.driverId))
      .leftJoin(communities, eq(communities.id, commutes.communityId))
      .where(and(eq(commutes.id, commuteId), maySeeCommute(viewerId)))
      .limit(1),
    db
      .select({ ...occurrenceColumns, ...seatFactColumns(viewerId, now) })
      .from(rides)
      .where(and(eq(rides.commuteId, commuteId), gte(rides.date, today)))
      .orderBy(asc(rides.date))
      .limit(COMMUTE_HORIZON_DAYS + 1),
    db
      .select({
        id: rideRequests.id,
        rideId: rideRequests.rideId,
        riderId: rideRequests.riderId,
        seats: rideRequests.seats,
        status: rideRequests.status,
        riderName: userProfiles.fullName,
      })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .leftJoin(userProfiles, eq(userProfiles.userId, rideRequests.riderId))
      .where(
        and(
          eq(rides.commuteId, commuteId),
          gte(rides.date, today),
          inArray(rideRequests.status, ["pending", "accepted"]),
          sql`(${rides.driverId} = ${viewerId} OR ${rideRequests.riderId} = ${viewerId})`,
        ),
      )
      .orderBy(asc(rides.date))
      .limit(500),
  ]);
  const c = commute[0];
  if (!c) throw new NotFoundError(COMMUTE_NOT_FOUND);
  // Each day says whether the viewer may ask for a seat on it (the seat rule), and if not why,
  // so the page offers Book only where a request would be taken.
  const days = occurrences.map((o) => {
    const { rest, facts } = splitSeatFacts(o);
    return { ...rest, refusal: seatRefusal(facts, 1, now)?.message ?? null };
  });
  return { commute: c, isDriver: c.driverId === viewerId, occurrences: days, requests };
}

export type CommutePage = Awaited<ReturnType<typeof getCommutePage>>;

/** My Rides: the driver's commutes (newest first) with their next few occurrences. Two statements, one round trip. */
export async function listDriverCommutes({ db }: ModelCtx, driverId: string, now = Date.now(), perCommute = 5) {
  return driverCommutesFrom(await db.batch(driverCommutesQueries(db, driverId, now)), perCommute);
}

/** listDriverCommutes' two reads, for My Rides' own batch (AlsoReads), and their mapper. */
export function driverCommutesQueries(db: Db, driverId: string, now = Date.now()) {
  return [
    db
      .select(commuteColumns)
      .from(commutes)
      .where(eq(commutes.driverId, driverId))
      .orderBy(desc(commutes.createdAt))
      .limit(20),
    db
      .select({ ...occurrenceColumns, commuteId: rides.commuteId })
      .from(rides)
      .where(and(eq(rides.driverId, driverId), gte(rides.departsAt, now), isNotNull(rides.commuteId)))
      .orderBy(asc(rides.departsAt))
      .limit(200),
  ] as const;
}

export function driverCommutesFrom(results: readonly unknown[], perCommute = 5) {
  type Q = ReturnType<typeof driverCommutesQueries>;
  const [list, upcoming] = results as [Awaited<Q[0]>, Awaited<Q[1]>];
  return list.map((c) => ({ ...c, next: upcoming.filter((o) => o.commuteId === c.id).slice(0, perCommute) }));
}

export type DriverCommute = Awaited<ReturnType<typeof listDriverCommutes>>[number];

async function loadCommute(db: Db, commuteId: string) {
  const c = await db.select(commuteColumns).from(commutes).where(eq(commutes.id, commuteId)).get();
  if (!c) throw new NotFoundError(COMMUTE_NOT_FOUND);
  return c;
}

async function loadOwnCommute(db: Db, driverId: string, commuteId: string) {
  const c = await loadCommute(db, commuteId);
  if (c.driverId !== driverId) throw new ForbiddenError(ONLY_DRIVER);
  if (c.status !== "active") throw new ConflictError(COMMUTE_ENDED);
  return c;
}

const route = (c: { fromLocation: string; toLocation: string }) => `${c.fromLocation} → ${c.toLocation}`;
const seatsText = (n: number) => `${n} seat${n === 1 ? "" : "s"}`;

/**
 * A rider asks for seats on every upcoming occurrence of the commute on the chosen weekdays:
 * one pending request per occurrence the seat rule allows (permissions.server.ts, the single
 * request's rule: visibility, blocks, membership and suspension, women-only and the comfort
 * lock, the driver's standing, the seats free), and where the rider has no live request yet
 * (the unique index refuses a duplicate). The driver gets one notification. One batch; when no
 * day is allowed, the refusal names the one reason all the days share, if they share one.
 */
export async function bookCommute(
  { db }: ModelCtx,
  riderId: string,
  commuteId: string,
  input: { weekdays: number; seats: number; notes: string | null },
  now = Date.now(),
) {
  const chosen = onWeekdays(input.weekdays, sql.raw("rides.date"));
  const [commute, rider, days] = await db.batch([
    db
      .select(commuteColumns)
      .from(commutes)
      .where(and(eq(commutes.id, commuteId), maySeeCommute(riderId)))
      .limit(1),
    db.select({ fullName: userProfiles.fullName }).from(userProfiles).where(eq(userProfiles.userId, riderId)).limit(1),
    // The chosen days' seat facts, to say why nothing could be asked for.
    db
      .select(seatFactColumns(riderId, now))
      .from(rides)
      .where(and(eq(rides.commuteId, commuteId), sql`rides.status = 'active'`, gte(rides.departsAt, now), chosen))
      .limit(COMMUTE_HORIZON_DAYS + 1),
  ]);
  const c = commute[0];
  if (!c) throw new NotFoundError(COMMUTE_NOT_FOUND);
  if (c.driverId === riderId) throw new ForbiddenError("You cannot request a seat on your own commute.");
  if (c.status !== "active") throw new ConflictError(COMMUTE_ENDED);
  const name = rider[0]?.fullName ?? "A rider";
  let inserted: { id: string; rideId: string }[];
  try {
    [inserted] = await db.batch([
      db
        .insert(rideRequests)
        .select(
          sql`SELECT ${selectInTableOrder(rideRequests, {
            id: PER_ROW_ID,
            rideId: sql.raw("rides.id"),
            riderId: sql`${riderId}`,
            seats: sql`${input.seats}`,
            status: sql`'pending'`,
            notes: sql`${input.notes}`,
            createdAt: sql`${now}`,
            quotedPaise: shownMaxSql(input.seats),
          })}
        FROM rides
        WHERE rides.commute_id = ${commuteId} AND ${chosen} AND ${seatRule(riderId, input.seats, now)}
          AND NOT EXISTS (SELECT 1 FROM ride_requests x WHERE x.ride_id = rides.id AND x.rider_id = ${riderId} AND x.status IN ('pending', 'accepted'))`,
        )
        .returning({ id: rideRequests.id, rideId: rideRequests.rideId }),
      notificationInsert(
        db,
        {
          userId: c.driverId,
          type: "ride_request",
          title: "New ride requests",
          message: sql`${name} || ' requested ' || changes() || ' day(s) of your commute ' || ${route(c)} || '.'`,
          data: { commute_id: commuteId, seats: input.seats, from: c.fromLocation, to: c.toLocation },
        },
        now,
        sql`WHERE changes() > 0`,
      ),
    ]);
  } catch (e) {
    if (isUniqueViolation(e)) throw new ConflictError(DUPLICATE_REQUEST);
    throw e;
  }
  if (inserted.length === 0)
    throw new ConflictError(
      sharedRefusal(days.map((d) => seatRefusal(seatFactsOf(d), input.seats, now))) ?? NOTHING_TO_BOOK,
    );
  return { requested: inserted.length, audience: audience([c.driverId]) };
}

/** The reason every refused day shares (the message of the first), or null when they differ or none was refused. */
function sharedRefusal(refusals: ({ kind: string; message: string } | null)[]) {
  const first = refusals[0];
  if (!first || refusals.some((r) => r?.kind !== first.kind)) return null;
  return first.message;
}

/**
 * The driver accepts every pending request of one rider on this commute's upcoming
 * occurrences at once. Each request is accepted under the single accept's rule (seatRule, per
 * occurrence, at accept time: the ride active and ahead, the seats free, women-only and the
 * comfort lock, blocks, the rider's and the driver's standing in the community) inside one
 * UPDATE; booked_seats is recomputed in the same batch, and D1 runs batches one after
 * another, so this can race single accepts without overbooking any occurrence.
 */
export async function acceptAllFromRider(
  { db }: ModelCtx,
  driverId: string,
  commuteId: string,
  riderId: string,
  now = Date.now(),
) {
  const c = await loadOwnCommute(db, driverId, commuteId);
  const [accepted] = await db.batch([
    db
      .update(rideRequests)
      .set({ status: "accepted", decidedAt: now })
      .where(
        and(
          eq(rideRequests.riderId, riderId),
          eq(rideRequests.status, "pending"),
          sql`EXISTS (SELECT 1 FROM rides WHERE rides.id = ride_requests.ride_id AND rides.commute_id = ${commuteId} AND rides.driver_id = ${driverId}
            AND ${seatRule(riderId, sql.raw("ride_requests.seats"), now)})`,
        ),
      )
      .returning({ id: rideRequests.id, rideId: rideRequests.rideId }),
    notificationInsert(
      db,
      {
        userId: riderId,
        type: "ride_update",
        title: "Requests accepted",
        message: sql`'The driver accepted ' || changes() || ' of your requests for the commute ' || ${route(c)} || '.'`,
        data: { commute_id: commuteId, status: "accepted" },
      },
      now,
      sql`WHERE changes() > 0`,
    ),
    db
      .update(rides)
      .set({
        bookedSeats: sql`(SELECT coalesce(sum(${rideRequests.seats}), 0) FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rides.id} AND ${rideRequests.status} = 'accepted')`,
      })
      .where(and(eq(rides.commuteId, commuteId), eq(rides.status, "active"), sql`${rides.departsAt} > ${now}`)),
  ]);
  if (accepted.length === 0) throw new ConflictError(NOTHING_TO_ACCEPT);
  return { accepted: accepted.length, audience: audience([riderId]) };
}

async function loadOwnOccurrence(db: Db, driverId: string, commuteId: string, rideId: string) {
  const r = await db
    .select({
      driverId: rides.driverId,
      commuteId: rides.commuteId,
      date: rides.date,
      status: rides.status,
      departsAt: rides.departsAt,
      fromLocation: rides.fromLocation,
      toLocation: rides.toLocation,
    })
    .from(rides)
    .where(eq(rides.id, rideId))
    .get();
  // Another commute's day through this commute's URL is "not found", whoever asks.
  if (!r || r.commuteId !== commuteId) throw new NotFoundError("Occurrence not found");
  if (r.driverId !== driverId) throw new ForbiddenError(ONLY_DRIVER);
  return r;
}

/**
 * The driver skips one occurrence: it is cancelled exactly as a ride is (its riders are
 * told; within 2 hours of departure a reason is required), and stays as a cancelled ride so
 * the daily top-up never recreates that day.
 */
export async function skipOccurrence(
  ctx: ModelCtx,
  driverId: string,
  commuteId: string,
  rideId: string,
  reason: string | null,
  now = Date.now(),
) {
  await loadOwnOccurrence(ctx.db, driverId, commuteId, rideId);
  return cancelRide(ctx, driverId, rideId, { reason }, now);
}

/** Did the batch fail on a CHECK constraint (the database refusing seats below the booked ones)? */
function isCheckViolation(e: unknown): boolean {
  for (let cur: unknown = e, i = 0; cur && i < 5; cur = (cur as { cause?: unknown }).cause, i++) {
    if (cur instanceof Error && /CHECK constraint failed/i.test(cur.message)) return true;
  }
  return false;
}

/**
 * Riders with a live request on the occurrences `where` selects (`rides` rows) get one
 * notification each, however many of those days they hold (issue 35: once per change); its
 * link is their first such day. `extra` adds to the data (json_object pairs); a `change` or a
 * `status` there has it e-mailed and pushed too (the outbox trigger, migration 0031). Returns
 * the statement (RETURNING the riders) for the caller's batch.
 */
function tellRiders(db: Db, where: SQL, title: string, message: string, extra: SQL, now: number) {
  const data = sql`json_object('ride_id', ${firstOfGroup(sql`${rides.id}`)}, 'request_id', ${firstOfGroup(sql`${rideRequests.id}`)}, ${extra})`;
  return notificationInsert(
    db,
    { id: PER_ROW_ID, userId: sql`${rideRequests.riderId}`, type: "ride_update", title, message, data },
    now,
    sql`FROM ${rideRequests} JOIN ${rides} ON ${rides.id} = ${rideRequests.rideId} WHERE ${rideRequests.status} IN ('pending', 'accepted') AND ${where}
      GROUP BY ${rideRequests.riderId}`,
  ).returning({ userId: notifications.userId });
}

/**
 * The driver changes one upcoming occurrence (departure time on that day, seats). Riders
 * with a live request on it are told, in the same batch. Fewer seats than are already
 * booked is refused by the database (CHECK booked_seats <= seats) and changes nothing.
 */
export async function changeOccurrence(
  { db }: ModelCtx,
  driverId: string,
  commuteId: string,
  rideId: string,
  input: { time: string; seats: number },
  now = Date.now(),
) {
  const r = await loadOwnOccurrence(db, driverId, commuteId, rideId);
  if (r.status !== "active" || r.departsAt <= now)
    throw new ConflictError("Only an upcoming, active day can be changed.");
  const departsAt = istToInstant(r.date, input.time);
  if (departsAt <= now) throw new ConflictError("This time has already passed. Please pick a later time.");
  const open = sql`${rides.id} = ${rideId} AND ${rides.status} = 'active' AND ${rides.departsAt} > ${now}`;
  try {
    const [told, changed] = await db.batch([
      tellRiders(
        db,
        open,
        "Ride changed",
        // The day first (issue 35): a commute's riders hold many days of the same route.
        `${formatWeekdayDate(r.date)}: the ride from ${r.fromLocation} to ${r.toLocation} now leaves at ${formatTime(input.time)}, with ${seatsText(input.seats)}.`,
        sql`'commute_id', ${commuteId}, 'change', 'day', 'time', ${input.time}, 'seats', ${input.seats}`,
        now,
      ),
      db
        .update(rides)
        .set({ time: input.time, departsAt, seats: input.seats })
        .where(and(eq(rides.id, rideId), eq(rides.status, "active"), sql`${rides.departsAt} > ${now}`))
        .returning({ id: rides.id }),
    ]);
    if (changed.length === 0) throw new ConflictError("Only an upcoming, active day can be changed.");
    return { audience: audience(told.map((t) => t.userId)) };
  } catch (e) {
    if (isCheckViolation(e)) throw new ConflictError(SEATS_BELOW_BOOKED);
    throw e;
  }
}

/**
 * The driver changes the pattern from a date on (departure time, seats, trip cost): the
 * pattern row, and every upcoming active occurrence from that date, in one batch; riders
 * with a live request on those occurrences are told. An occurrence whose new departure
 * would already have passed keeps its old one. Seats below an occurrence's booked seats is
 * refused by the database and changes nothing. The first day must be within the horizon
 * (the days after it do not exist yet and will be generated from the new pattern).
 */
export async function changePattern(
  { db }: ModelCtx,
  driverId: string,
  commuteId: string,
  input: { fromDate: string; time: string; seats: number; tripCost: number },
  now = Date.now(),
) {
  const c = await loadOwnCommute(db, driverId, commuteId);
  const newDeparts = departsAtSql(sql`${rides.date}`, input.time);
  const affected = sql`${rides.commuteId} = ${commuteId} AND ${rides.date} >= ${input.fromDate} AND ${rides.status} = 'active' AND ${rides.departsAt} > ${now} AND ${newDeparts} > ${now}`;
  try {
    const [told] = await db.batch([
      tellRiders(
        db,
        affected,
        "Commute changed",
        `From ${formatWeekdayDate(input.fromDate)} on, the commute ${route(c)} leaves at ${formatTime(input.time)}, with ${seatsText(input.seats)}, trip cost ${formatRupees(input.tripCost)}${
          input.tripCost > c.tripCostPaise
            ? " (days on which you already hold a seat keep the price you booked at)"
            : ""
        }.`,
        sql`'commute_id', ${commuteId}, 'change', 'pattern', 'from_date', ${input.fromDate}`,
        now,
      ),
      db
        .update(rides)
        .set({
          time: input.time,
          departsAt: newDeparts,
          seats: input.seats,
          // Issue 34: a price never rises under an accepted rider without their consent: a day
          // with an accepted seat keeps its price unless the new one is lower.
          tripCostPaise: sql`CASE WHEN ${input.tripCost} > ${rides.tripCostPaise} AND EXISTS (SELECT 1 FROM ride_requests a WHERE a.ride_id = ${rides.id} AND a.status = 'accepted')
            THEN ${rides.tripCostPaise} ELSE ${input.tripCost} END`,
        })
        .where(affected),
      db
        .update(commutes)
        .set({ time: input.time, seats: input.seats, tripCostPaise: input.tripCost, updatedAt: now })
        .where(and(eq(commutes.id, commuteId), eq(commutes.driverId, driverId), eq(commutes.status, "active"))),
    ]);
    return { audience: audience([...new Set(told.map((t) => t.userId))]) };
  } catch (e) {
    if (isCheckViolation(e)) throw new ConflictError(SEATS_BELOW_BOOKED);
    throw e;
  }
}

/**
 * The driver ends the commute after `lastDate`: every active, upcoming occurrence after it
 * is cancelled with its live requests (each rider told, in the same batch), and no new
 * occurrence is generated after it. Ending before today (or before the start) ends it now.
 */
export async function endCommute(
  { db }: ModelCtx,
  driverId: string,
  commuteId: string,
  input: { lastDate: string },
  now = Date.now(),
) {
  const c = await loadOwnCommute(db, driverId, commuteId);
  const endsNow = input.lastDate < istDate(now) || input.lastDate < c.startDate;
  const cutoff = endsNow ? addDays(istDate(now), -1) : input.lastDate;
  const [told] = await db.batch(
    endCommutesAndRides(db, {
      driverId,
      rides: sql`${rides.commuteId} = ${commuteId} AND ${rides.date} > ${cutoff}`,
      commutes: eq(commutes.id, commuteId),
      ending: {
        endDate: endsNow ? sql`max(${commutes.startDate}, ${cutoff})` : input.lastDate,
        status: endsNow ? "ended" : "active",
      },
      notice: {
        title: "Commute ended",
        message: `The driver ended the commute ${route(c)}${endsNow ? "" : ` after ${formatWeekdayDate(input.lastDate)}`}: your requests for the later days are cancelled.`,
        extra: sql`'commute_id', ${commuteId}, 'status', 'cancelled'`,
      },
      reason: "The driver ended this commute.",
      now,
    }),
  );
  return { endsNow, audience: audience([...new Set(told.map((t) => t.userId))]) };
}

export { weekdaysLabel };
