import { and, asc, desc, eq, getTableColumns, gte, inArray, is, isNotNull, SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import {
  communities,
  commuteBookings,
  commutes,
  notifications,
  rideRequests,
  rides,
  userProfiles,
} from "../../db/schema";
import { COMMUTE_HORIZON_DAYS, type CommuteLegs, dayOfWeek, horizonDates, weekdaysLabel } from "../domain/commutes";
import { newId } from "../domain/ids";
import { pickupOnRoute } from "../domain/ride-match";
import { CANCEL_WINDOW_MS, carTypeOf } from "../domain/rides";
import { formatRupees, seatPricePaise } from "../domain/money";
import { addDays, formatTime, formatWeekdayDate, IST_OFFSET_MS, istDate, istTime, istToInstant } from "../domain/time";
import { suggestTripCost } from "../domain/trip-cost";
import type { CreateCommuteInput } from "../schemas/commutes";
import { viasOf } from "../schemas/rides";
import { audience, type ModelCtx } from "./context.server";
import type { Db } from "./db.server";
import { isUniqueViolation } from "./db-errors.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { placeById, placeByName, ridePlaceColumns, rideRoute, viaPlaces, viaRecords } from "./places.server";
import { firstOfGroup, notificationInsert, PER_ROW_ID, weekdayDateSql } from "./notifications.server";
import { alertSavedSearches } from "./saved-searches.server";
import {
  cancelRequest,
  communityPickupIds,
  DUPLICATE_REQUEST,
  pickupChoices,
  pickupPlaceOf,
  shownMaxSql,
} from "./ride-requests.server";
import { cancelRide, mayPublish, WOMEN_ONLY_DRIVER } from "./ride-publishing.server";
import { endCommutesAndRides } from "./commute-ending.server";
import { lockNewDaysStatement } from "./commute-women.server";
import {
  inGoodStanding,
  isWoman,
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
    viaPlaceIds: sql`c.via_place_ids`,
    routeSouth: sql`c.route_south`,
    routeNorth: sql`c.route_north`,
    routeWest: sql`c.route_west`,
    routeEast: sql`c.route_east`,
    routeCells: sql`c.route_cells`,
    createdAt: sql`${now}`,
    commuteId: sql`c.id`,
    // Issue 16: each occurrence takes its community's rules as they are when it is created;
    // issue 37: and the commute's own women-only choice.
    womenOnly: sql`(c.women_only OR coalesce((SELECT women_only FROM communities WHERE id = c.community_id), 0))`,
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

// Standing bookings (issue 35; docs/decisions/0045-standing-bookings.md) are commute_bookings
// rows; the SQL below names the booking `b` and the day `rides` (the seat rule's name for it).

/** The booking `b` wants the day: live, on its weekdays, and outside its pause (if paused). */
const bookingWants = sql`(b.status = 'active' OR (b.status = 'paused' AND (rides.date < b.paused_from OR rides.date > b.paused_until)))
  AND ${onWeekdays(sql.raw("b.weekdays"), sql.raw("rides.date"))}`;

const noLiveRequest = sql`NOT EXISTS (SELECT 1 FROM ride_requests x WHERE x.ride_id = rides.id AND x.rider_id = b.rider_id
  AND x.status IN ('pending', 'accepted'))`;

/** The days one top-up run made (their created_at is the run's clock; rides_commute_created_idx). */
const madeByRun = (now: number) => sql`rides.created_at = ${now} AND rides.commute_id IS NOT NULL`;

/**
 * The requests the live bookings in `scope` (over `b` and `rides`) want, as one INSERT …
 * SELECT: a day is asked for only where the single request's rule allows it (seatRule, with
 * the booking's seats), pending, or accepted at once when the driver accepted the booking.
 * Accepted ones also fit together: a running sum per day (oldest booking first) keeps the
 * statement's own rows within the free seats, and the caller recomputes booked_seats in the
 * same batch (the CHECK booked_seats <= seats is the last word). Each records at most the
 * seats' price the rider was shown when booking (ADR 0055), whatever the day costs now.
 */
function standingRequests(db: Db, scope: SQL, now: number) {
  const columns = selectInTableOrder(rideRequests, {
    id: PER_ROW_ID,
    rideId: sql`s_ride`,
    riderId: sql`s_rider`,
    seats: sql`s_seats`,
    status: sql`s_status`,
    notes: sql`s_notes`,
    createdAt: sql`${now}`,
    decidedAt: sql`CASE WHEN s_status = 'accepted' THEN ${now} END`,
    quotedPaise: sql`s_quoted`,
    // The standing booking's pickup point (issue 36), checked against the route when booked.
    pickupPlaceId: sql`s_pickup`,
  });
  return db
    .insert(rideRequests)
    .select(
      sql`SELECT ${columns} FROM (
      SELECT rides.id AS s_ride, b.rider_id AS s_rider, b.seats AS s_seats, b.notes AS s_notes,
        b.pickup_place_id AS s_pickup,
        min(coalesce(b.quoted_paise, ${shownMaxSql(sql.raw("b.seats"))}), ${shownMaxSql(sql.raw("b.seats"))}) AS s_quoted,
        CASE WHEN b.accepted_at IS NULL THEN 'pending' ELSE 'accepted' END AS s_status,
        rides.seats - rides.booked_seats AS s_free,
        sum(CASE WHEN b.accepted_at IS NULL THEN 0 ELSE b.seats END)
          OVER (PARTITION BY rides.id ORDER BY b.created_at, b.id) AS s_taken
      FROM commute_bookings b JOIN rides ON rides.commute_id = b.commute_id
      WHERE ${scope} AND ${bookingWants} AND ${noLiveRequest}
        AND ${seatRule(sql.raw("b.rider_id"), sql.raw("b.seats"), now)}
    ) WHERE s_status = 'pending' OR s_taken <= s_free`,
    )
    .onConflictDoNothing()
    .returning({ id: rideRequests.id, rideId: rideRequests.rideId, riderId: rideRequests.riderId });
}

/** booked_seats from the accepted requests, on the days `where` selects (`rides` rows). */
const recomputeBooked = (db: Db, where: SQL) =>
  db
    .update(rides)
    .set({
      bookedSeats: sql`(SELECT coalesce(sum(${rideRequests.seats}), 0) FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rides.id} AND ${rideRequests.status} = 'accepted')`,
    })
    .where(where);

/**
 * After standingRequests: each live booking that wanted a day of this run and got no
 * request on it (full, or the rule refused it) is told once, naming the days.
 */
function refusedDaysNotice(db: Db, now: number) {
  const days = sql`SELECT b.id AS r_booking, b.rider_id AS r_rider, b.commute_id AS r_commute,
      c.from_location || ' → ' || c.to_location AS r_route, rides.date AS r_date
    FROM rides JOIN commute_bookings b ON b.commute_id = rides.commute_id JOIN commutes c ON c.id = rides.commute_id
    WHERE ${madeByRun(now)} AND ${bookingWants} AND ${noLiveRequest}
    ORDER BY rides.date`;
  return notificationInsert(
    db,
    {
      id: PER_ROW_ID,
      userId: sql`r_rider`,
      type: "ride_update",
      title: "Not booked on new days",
      message: sql`'Your standing booking of ' || r_route || ' could not be extended to '
        || group_concat(${weekdayDateSql(sql`r_date`)}, '; ')
        || ': the ride is full or not open to you then. Book those days yourself if seats free up.'`,
      data: sql`json_object('commute_id', r_commute, 'dates', json_group_array(r_date))`,
    },
    now,
    sql`FROM (${days}) GROUP BY r_booking`,
  ).returning({ userId: notifications.userId });
}

/**
 * The daily top-up (Cron Trigger, server.ts), one batch: the occurrences that are missing
 * for the next COMMUTE_HORIZON_DAYS days (the unique index makes a second run, or two at
 * once, create nothing twice); then, on exactly those new days, the standing bookings'
 * requests under the single request's rule and seat guarantees, booked_seats recomputed,
 * and one notice per booking for the days it could not get. D1 runs batches one after
 * another, so it cannot overbook against single accepts running at the same time.
 */
export async function topUpCommutesAndBookings({ db }: ModelCtx, now = Date.now(), commuteId?: string) {
  const [created, requested, , refused] = await db.batch([
    topUpStatement(db, now, commuteId),
    standingRequests(db, madeByRun(now), now),
    recomputeBooked(db, sql`${madeByRun(now)}`),
    refusedDaysNotice(db, now),
    // Issue 37: a commute whose open seats are kept for women locks each new day, once booked.
    lockNewDaysStatement(db, now),
  ]);
  return { rides: created, requested, audience: audience(refused.map((r) => r.userId)) };
}

/** The top-up, returning the rides it created (the standing bookings are extended too). */
export async function topUpCommutes(ctx: ModelCtx, now = Date.now()) {
  return (await topUpCommutesAndBookings(ctx, now)).rides;
}

/**
 * A driver publishes a weekly commute. The same preconditions as publishing a ride (a
 * profile; a shared community must be one they are an approved member of); the pattern
 * and its first occurrences are written in one batch. With a return time, the return leg
 * is a second commute in the same batch (ADR 0048): destination to start, the same
 * weekdays, dates, seats, price, notes and community, linked by `return_of`.
 */
export async function createCommute(
  { db }: ModelCtx,
  driverId: string,
  // No return time (callers from before ADR 0048): one direction; women-only is optional too.
  input: Omit<CreateCommuteInput, "returnTime" | "womenOnly"> & { returnTime?: string | null; womenOnly?: boolean },
  now = Date.now(),
) {
  // The same precondition as a single ride (ride-publishing.server.ts mayPublish).
  const { profile, womenOnlyCommunity } = await mayPublish(db, driverId, input.communityId, now);
  // The single ride's rule (ride-publishing.server.ts): only a woman offers a women-only commute.
  if (input.womenOnly && profile.gender !== "female")
    throw new ConflictError(WOMEN_ONLY_DRIVER, { field: "womenOnly" });
  const from = placeByName(input.fromLocation);
  const to = placeByName(input.toLocation);
  // The schema resolved both names on the server; a caller that skipped it is refused here.
  if (!from || !to) throw new ConflictError("Please choose pickup and drop from the list of places.");
  const vehicle = profile.vehicleInfo;
  const suggestion = suggestTripCost(from.name, to.name, carTypeOf(vehicle), placeByName);
  const id = newId();
  const leg = {
    driverId,
    communityId: input.communityId,
    weekdays: input.weekdays,
    seats: input.seats,
    tripCostPaise: input.tripCost,
    distanceKm: suggestion ? Math.round(suggestion.roadKm) : null,
    notes: input.notes,
    vehicleType: vehicle?.has_car && vehicle.car_type ? vehicle.car_type : null,
    startDate: input.startDate,
    endDate: input.endDate,
    status: "active",
    womenOnly: Boolean(input.womenOnly) || womenOnlyCommunity,
    createdAt: now,
    updatedAt: now,
  };
  const outward = db.insert(commutes).values({
    ...leg,
    id,
    fromLocation: input.fromLocation,
    toLocation: input.toLocation,
    time: input.time,
    ...ridePlaceColumns(from, to, {}, viaRecords(viasOf(input))),
  });
  const returnId = input.returnTime ? newId() : null;
  const back =
    input.returnTime && returnId
      ? ([
          db.insert(commutes).values({
            ...leg,
            id: returnId,
            fromLocation: input.toLocation,
            toLocation: input.fromLocation,
            time: input.returnTime,
            // The way back passes the same places in the other order.
            ...ridePlaceColumns(to, from, {}, viaRecords(viasOf(input)).reverse()),
            returnOf: id,
          }),
          topUpStatement(db, now, returnId),
        ] as const)
      : null;
  const results = back
    ? await db.batch([outward, topUpStatement(db, now, id), ...back])
    : await db.batch([outward, topUpStatement(db, now, id)]);
  const created = [...results[1], ...(results[3] ?? [])];
  // Saved searches matching its days hear of it once (issue 14); the commute stands even if that fails.
  const alerted = await alertSavedSearches(
    { db },
    created.map((r) => r.id),
    now,
  ).catch((e: unknown) => (console.error(e), { audience: audience() }));
  return { id, returnId, occurrences: created.length, audience: alerted.audience };
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
  returnOf: commutes.returnOf,
  womenOnly: commutes.womenOnly,
  womenLock: commutes.womenLock,
};

/** A commute's route as the matching rule reads it (ADR 0049), with its driver's detour limit. */
const commuteRouteColumns = {
  fromLat: commutes.fromLat,
  fromLng: commutes.fromLng,
  toLat: commutes.toLat,
  toLng: commutes.toLng,
  viaPlaceIds: commutes.viaPlaceIds,
  maxDetourMinutes: sql<
    number | null
  >`(SELECT ${userProfiles.maxDetourMinutes} FROM ${userProfiles} WHERE ${userProfiles.userId} = ${commutes.driverId})`,
};

/** A commute's route on the day `date` (its departure then), for pickupOnRoute and pickupPlaceOf. */
const onDay = <C extends { time: string }>(c: C, date: string) => ({ ...c, departsAt: istToInstant(date, c.time) });

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
export async function getCommutePage(
  { db }: ModelCtx,
  viewerId: string,
  commuteId: string,
  now = Date.now(),
  searchedFrom: string | null = null,
) {
  const today = istDate(now);
  const [commute, occurrences, requests, bookingRows, legs] = await db.batch([
    db
      .select({
        ...commuteColumns,
        // The route map and the pickup points along it (issue 36).
        ...commuteRouteColumns,
        communityPickups: communityPickupIds(commutes.communityId),
        driverName: userProfiles.fullName,
        // The driver's stars are totals on the profile (issue 35, item 8: shown in the header).
        driverRatingCount: userProfiles.ratingCount,
        driverRatingStars: userProfiles.ratingStars,
        communityName: communities.name,
        // Issue 37: whether the viewer, as its driver, may keep the open seats for women (never
        // anyone's gender for anyone else).
        canLockToWomen: sql<number>`(${commutes.driverId} = ${viewerId} AND ${isWoman(viewerId)})`.as("can_lock"),
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
      // The horizon's days; room for more when a local run's top-up was told a later clock.
      .limit(2 * COMMUTE_HORIZON_DAYS + 1),
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
    // Standing bookings: all live ones for the driver, their own for a rider.
    db
      .select({
        ...bookingColumns,
        riderId: commuteBookings.riderId,
        riderName: userProfiles.fullName,
        pickupPlaceId: commuteBookings.pickupPlaceId,
      })
      .from(commuteBookings)
      .leftJoin(userProfiles, eq(userProfiles.userId, commuteBookings.riderId))
      .where(
        and(
          eq(commuteBookings.commuteId, commuteId),
          sql`${commuteBookings.status} <> 'ended'`,
          sql`(${commuteBookings.riderId} = ${viewerId}
            OR EXISTS (SELECT 1 FROM commutes mine WHERE mine.id = ${commuteId} AND mine.driver_id = ${viewerId}))`,
        ),
      )
      .orderBy(asc(commuteBookings.createdAt))
      .limit(100),
    // The other leg (ADR 0048): the same driver and community, so visible with this one.
    otherLeg(db, commuteId),
  ]);
  const row = commute[0];
  if (!row) throw new NotFoundError(COMMUTE_NOT_FOUND);
  const { communityPickups, viaPlaceIds, maxDetourMinutes, ...c } = row;
  // Where each standing booking is picked up, and around when (issue 36): the booking path's
  // rule (pickupOnRoute) on today's departure; the start when none was chosen.
  const route = rideRoute(onDay(row, today));
  const pickupOf = (placeId: string | null) => {
    const place = placeId ? placeById(placeId) : undefined;
    const at = place && route ? pickupOnRoute(route, place) : null;
    // The point too, for the rider's map; the start needs none (the map draws it anyway).
    return place && at
      ? { name: place.name, time: istTime(at.pickupAt), lat: place.lat, lng: place.lng }
      : { name: c.fromLocation, time: c.time, lat: null, lng: null };
  };
  // The pickup points the rider's form offers: the route's places, the community's approved
  // points and the place a search found the rider at (the single booking page's list).
  const pickups = pickupChoices(route, [
    c.fromLocation,
    ...viaPlaces(viaPlaceIds).map((p) => p.name),
    ...(communityPickups ?? "").split(" ").flatMap((id) => placeById(id)?.name ?? []),
    ...(searchedFrom ? [searchedFrom] : []),
  ]);
  // Each day says whether the viewer may ask for a seat on it (the seat rule), and if not why,
  // so the page offers Book only where a request would be taken.
  const days = occurrences.map((o) => {
    const { rest, facts } = splitSeatFacts(o);
    return { ...rest, refusal: seatRefusal(facts, 1, now)?.message ?? null };
  });
  const bookings = bookingRows.map(({ acceptedAt, pickupPlaceId, ...b }) => ({
    ...b,
    state: bookingState({ ...b, acceptedAt }, today),
    pickup: pickupOf(pickupPlaceId),
  }));
  const other = legs[0] ?? null;
  return { commute: c, isDriver: c.driverId === viewerId, occurrences: days, requests, bookings, other, pickups };
}

/**
 * The other leg of a commute with a return: its return (return_of = id), or the outward
 * commute it returns from. Both lookups are on commutes_return_of_unique or the primary key.
 */
function otherLeg(db: Db, commuteId: string) {
  return db
    .select({
      id: commutes.id,
      fromLocation: commutes.fromLocation,
      toLocation: commutes.toLocation,
      time: commutes.time,
      status: commutes.status,
      returnOf: commutes.returnOf,
    })
    .from(commutes)
    .where(
      sql`${commutes.id} IN (SELECT o.return_of FROM commutes o WHERE o.id = ${commuteId}
        UNION ALL SELECT r.id FROM commutes r WHERE r.return_of = ${commuteId})`,
    )
    .limit(1);
}

/**
 * What a booking is today: paused within (or before) its pause, else asked until the driver
 * accepts it. A pause that is over needs no write: the top-up reads the dates too.
 */
export function bookingState(
  b: { status: string; acceptedAt: number | null; pausedUntil: string | null },
  today: string,
): "paused" | "accepted" | "asked" {
  if (b.status === "paused" && b.pausedUntil !== null && b.pausedUntil >= today) return "paused";
  return b.acceptedAt === null ? "asked" : "accepted";
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
  input: BookingInput,
  now = Date.now(),
) {
  const chosen = onWeekdays(input.weekdays, sql.raw("rides.date"));
  const [commute, rider, days] = await db.batch([
    db
      .select({ ...commuteColumns, ...commuteRouteColumns })
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
  // The single booking's check of a pickup point (issue 36): on the route or within the detour.
  const pickupPlaceId = pickupPlaceOf(onDay(c, istDate(now)), input.pickup ?? null);
  const name = rider[0]?.fullName ?? "A rider";
  // The upsert in between changes changes(): count the requests this call made instead.
  const madeNow = sql`(SELECT count(*) FROM ride_requests q JOIN rides o ON o.id = q.ride_id
    WHERE q.rider_id = ${riderId} AND q.created_at = ${now} AND o.commute_id = ${commuteId})`;
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
            pickupPlaceId: sql`${pickupPlaceId}`,
          })}
        FROM rides
        WHERE rides.commute_id = ${commuteId} AND ${chosen} AND ${seatRule(riderId, input.seats, now)}
          AND NOT EXISTS (SELECT 1 FROM ride_requests x WHERE x.ride_id = rides.id AND x.rider_id = ${riderId} AND x.status IN ('pending', 'accepted'))`,
        )
        .returning({ id: rideRequests.id, rideId: rideRequests.rideId }),
      upsertBooking(db, riderId, commuteId, { ...input, pickupPlaceId }, now),
      notificationInsert(
        db,
        {
          userId: c.driverId,
          type: "ride_request",
          title: "New ride requests",
          message: sql`${name} || ' requested ' || ${madeNow} || ' day(s) of your commute ' || ${route(c)} || '.'`,
          data: { commute_id: commuteId, seats: input.seats, from: c.fromLocation, to: c.toLocation },
        },
        now,
        sql`WHERE ${madeNow} > 0`,
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

/** A standing booking asked for: weekdays, seats, a note, and where to be picked up (a place name; none: the start). */
type BookingInput = { weekdays: number; seats: number; notes: string | null; pickup?: string | null };

export const NO_RETURN = "This commute has no return.";

const LEG_NAMES = { morning: "Morning", return: "Return" } as const;

/**
 * A rider books one or both legs of a commute with a return (ADR 0048). Each leg is booked
 * by bookCommute, so every rule of the single path (the seat rule, the standing booking,
 * the refusal texts) applies to each leg as it is; nothing here decides who may. A leg that
 * is refused while the other is booked is reported, not undone: the rider keeps the leg
 * they got. When every chosen leg is refused, the refusal is the answer. Without `legs`,
 * the commute itself is booked (a commute without a return, or a caller that did not ask).
 */
export async function bookCommuteLegs(
  ctx: ModelCtx,
  riderId: string,
  commuteId: string,
  legs: CommuteLegs | undefined,
  input: BookingInput,
  now = Date.now(),
) {
  if (!legs) {
    const r = await bookCommute(ctx, riderId, commuteId, input, now);
    return { requested: r.requested, refused: [] as string[], audience: r.audience };
  }
  const [own, other] = await ctx.db.batch([
    ctx.db
      .select({ returnOf: commutes.returnOf })
      .from(commutes)
      .where(and(eq(commutes.id, commuteId), maySeeCommute(riderId)))
      .limit(1),
    otherLeg(ctx.db, commuteId),
  ]);
  const c = own[0];
  if (!c) throw new NotFoundError(COMMUTE_NOT_FOUND);
  const ids = c.returnOf
    ? { morning: c.returnOf, return: commuteId }
    : { morning: commuteId, return: other[0]?.id ?? null };
  const chosen = legs === "both" ? (["morning", "return"] as const) : ([legs] as const);
  let requested = 0;
  const refused: { leg: keyof typeof LEG_NAMES; message: string }[] = [];
  const told = new Set<string>();
  for (const leg of chosen) {
    const id = ids[leg];
    if (!id) {
      refused.push({ leg, message: NO_RETURN });
      continue;
    }
    try {
      // The pickup point is a place of this page's route; the other leg runs the other way
      // and picks the rider up at its start.
      const pickup = id === commuteId ? input.pickup : null;
      const r = await bookCommute(ctx, riderId, id, { ...input, pickup }, now);
      requested += r.requested;
      for (const u of r.audience.notified) told.add(u);
    } catch (e) {
      // A refused rule on one leg (ConflictError) leaves the other leg's booking standing.
      if (!(e instanceof ConflictError)) throw e;
      refused.push({ leg, message: e.message });
    }
  }
  const named = refused.map((r) => `${LEG_NAMES[r.leg]}: ${r.message}`);
  if (requested === 0) {
    const same = refused.every((r) => r.message === refused[0]?.message);
    throw new ConflictError(same ? (refused[0]?.message ?? NOTHING_TO_BOOK) : named.join(" "));
  }
  return { requested, refused: named, audience: audience([...told]) };
}

/**
 * The rider's standing booking (one live row per commute and rider), written only when the
 * request just before it asked for at least one day. Booking again changes it: new weekdays
 * or seats are the driver's to accept again; the same ones keep the driver's answer. A paused
 * booking booked again is active.
 */
function upsertBooking(
  db: Db,
  riderId: string,
  commuteId: string,
  input: { weekdays: number; seats: number; notes: string | null; pickupPlaceId: string | null },
  now: number,
) {
  const columns = selectInTableOrder(commuteBookings, {
    id: sql`${newId()}`,
    commuteId: sql`${commuteId}`,
    riderId: sql`${riderId}`,
    weekdays: sql`${input.weekdays}`,
    seats: sql`${input.seats}`,
    notes: sql`${input.notes}`,
    status: sql`'active'`,
    createdAt: sql`${now}`,
    updatedAt: sql`${now}`,
    pickupPlaceId: sql`${input.pickupPlaceId}`,
    // The seats' price the rider was just shown and asked at (the requests' own quotes, ADR
    // 0055): the days the top-up adds later record no more than it.
    quotedPaise: sql`(SELECT max(q.quoted_paise) FROM ride_requests q JOIN rides o ON o.id = q.ride_id
      WHERE q.rider_id = ${riderId} AND q.created_at = ${now} AND o.commute_id = ${commuteId})`,
  });
  // A new pickup point changes the driver's way, so it is theirs to accept again too.
  const same = sql`${commuteBookings.weekdays} = excluded.weekdays AND ${commuteBookings.seats} = excluded.seats
    AND ${commuteBookings.pickupPlaceId} IS excluded.pickup_place_id`;
  return db
    .insert(commuteBookings)
    .select(
      sql`SELECT ${columns} WHERE EXISTS (SELECT 1 FROM ride_requests q JOIN rides o ON o.id = q.ride_id
        WHERE q.rider_id = ${riderId} AND q.created_at = ${now} AND o.commute_id = ${commuteId})`,
    )
    .onConflictDoUpdate({
      target: [commuteBookings.commuteId, commuteBookings.riderId],
      targetWhere: sql`status <> 'ended'`,
      set: {
        weekdays: sql`excluded.weekdays`,
        seats: sql`excluded.seats`,
        notes: sql`excluded.notes`,
        pickupPlaceId: sql`excluded.pickup_place_id`,
        status: "active",
        pausedFrom: null,
        pausedUntil: null,
        acceptedAt: sql`CASE WHEN ${same} THEN ${commuteBookings.acceptedAt} END`,
        // Booking again is agreeing to the price shown this time.
        quotedPaise: sql`excluded.quoted_paise`,
        updatedAt: now,
      },
    });
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
  const [accepted, , , booking] = await db.batch([
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
    // The standing booking too: from now on its new days are accepted as they are added.
    db
      .update(commuteBookings)
      .set({ acceptedAt: now, updatedAt: now })
      .where(and(liveBooking(commuteId, riderId), sql`${commuteBookings.acceptedAt} IS NULL`))
      .returning({ id: commuteBookings.id }),
    notificationInsert(
      db,
      {
        userId: riderId,
        type: "ride_update",
        title: "Standing booking accepted",
        message: `The driver accepted your standing booking of the commute ${route(c)}: new days are booked for you as they are added.`,
        data: { commute_id: commuteId, status: "accepted" },
      },
      now,
      // Told once: when days were accepted too, "Requests accepted" already said so.
      sql`WHERE changes() > 0 AND NOT EXISTS (SELECT 1 FROM ride_requests q WHERE q.rider_id = ${riderId}
        AND q.status = 'accepted' AND q.decided_at = ${now})`,
    ),
  ]);
  if (accepted.length === 0 && booking.length === 0) throw new ConflictError(NOTHING_TO_ACCEPT);
  return { accepted: accepted.length, booking: booking.length > 0, audience: audience([riderId]) };
}

/** The live (not ended) standing booking of a rider on a commute. */
const liveBooking = (commuteId: string, riderId: string) =>
  and(
    eq(commuteBookings.commuteId, commuteId),
    eq(commuteBookings.riderId, riderId),
    sql`${commuteBookings.status} <> 'ended'`,
  );

export const NO_BOOKING = "There is no standing booking of this commute to change.";
export const PAUSE_WINDOW = "The pause cannot end before it starts, nor start in the past.";

/**
 * The driver declines a rider's standing booking: it ends, the rider's pending requests on
 * the commute's upcoming days are declined (days already accepted stay), the rider is told once.
 */
export async function declineBooking(
  { db }: ModelCtx,
  driverId: string,
  commuteId: string,
  riderId: string,
  now = Date.now(),
) {
  const c = await loadOwnCommute(db, driverId, commuteId);
  const [ended] = await db.batch([
    db
      .update(commuteBookings)
      .set({ status: "ended", endedAt: now, updatedAt: now })
      .where(liveBooking(commuteId, riderId))
      .returning({ id: commuteBookings.id }),
    db
      .update(rideRequests)
      .set({ status: "rejected", decidedAt: now })
      .where(
        and(
          eq(rideRequests.riderId, riderId),
          eq(rideRequests.status, "pending"),
          sql`${rideRequests.rideId} IN (SELECT id FROM rides WHERE rides.commute_id = ${commuteId} AND rides.departs_at > ${now})`,
          // Only when the booking was live: a lost race changes nothing.
          sql`EXISTS (SELECT 1 FROM commute_bookings b WHERE b.commute_id = ${commuteId} AND b.rider_id = ${riderId}
            AND b.ended_at = ${now} AND b.status = 'ended')`,
        ),
      ),
    notificationInsert(
      db,
      {
        userId: riderId,
        type: "ride_update",
        title: "Standing booking declined",
        message: `The driver declined your standing booking of the commute ${route(c)}; your pending days are declined.`,
        data: { commute_id: commuteId, status: "rejected" },
      },
      now,
      sql`WHERE EXISTS (SELECT 1 FROM commute_bookings b WHERE b.commute_id = ${commuteId} AND b.rider_id = ${riderId}
        AND b.ended_at = ${now} AND b.status = 'ended')`,
    ),
  ]);
  if (ended.length === 0) throw new ConflictError(NO_BOOKING);
  return { audience: audience([riderId]) };
}

const bookingColumns = {
  id: commuteBookings.id,
  weekdays: commuteBookings.weekdays,
  seats: commuteBookings.seats,
  status: commuteBookings.status,
  acceptedAt: commuteBookings.acceptedAt,
  pausedFrom: commuteBookings.pausedFrom,
  pausedUntil: commuteBookings.pausedUntil,
};

/**
 * The rider's live booking, the commute, their name and their live requests on the commute's
 * upcoming days (one round trip), for pausing and ending.
 */
async function loadOwnBooking(db: Db, riderId: string, commuteId: string, now: number) {
  const [booking, commute, rider, requests] = await db.batch([
    db.select(bookingColumns).from(commuteBookings).where(liveBooking(commuteId, riderId)).limit(1),
    db.select(commuteColumns).from(commutes).where(eq(commutes.id, commuteId)).limit(1),
    db.select({ fullName: userProfiles.fullName }).from(userProfiles).where(eq(userProfiles.userId, riderId)).limit(1),
    db
      .select({ id: rideRequests.id, status: rideRequests.status, date: rides.date, departsAt: rides.departsAt })
      .from(rideRequests)
      .innerJoin(rides, eq(rides.id, rideRequests.rideId))
      .where(
        and(
          eq(rideRequests.riderId, riderId),
          inArray(rideRequests.status, ["pending", "accepted"]),
          eq(rides.commuteId, commuteId),
          eq(rides.status, "active"),
          sql`${rides.departsAt} > ${now}`,
        ),
      )
      .orderBy(asc(rides.date))
      .limit(COMMUTE_HORIZON_DAYS * 2),
  ]);
  const c = commute[0];
  if (!c) throw new NotFoundError(COMMUTE_NOT_FOUND);
  const b = booking[0];
  if (!b) throw new ConflictError(NO_BOOKING);
  return { booking: b, commute: c, name: rider[0]?.fullName ?? "A rider", requests };
}

/** "Wed, Dec 3", "Wed, Dec 3 and Thu, Dec 4", "Wed, Dec 3; Thu, Dec 4 and Fri, Dec 5". */
export function listDays(dates: string[]): string {
  const named = dates.map(formatWeekdayDate);
  return named.length < 2 ? (named[0] ?? "") : `${named.slice(0, -1).join("; ")} and ${named[named.length - 1]}`;
}

/**
 * Cancels the rider's requests `ids` (still live, the day still ahead; an accepted seat only
 * outside the 2-hour window, as a single cancel) with `change` to the booking, releases the
 * seats and tells the driver once, naming the days (issue 35, item 7). One batch.
 */
async function cancelBookedDays(
  db: Db,
  b: {
    riderId: string;
    name: string;
    commute: { id: string; driverId: string; fromLocation: string; toLocation: string };
  },
  days: { id: string; date: string }[],
  change: BatchItem<"sqlite">,
  title: string,
  now: number,
) {
  const c = b.commute;
  const ids = days.map((d) => d.id);
  const cancel = db
    .update(rideRequests)
    .set({ status: "cancelled", cancelledAt: now })
    .where(
      and(
        ids.length ? inArray(rideRequests.id, ids) : sql`0`,
        eq(rideRequests.riderId, b.riderId),
        sql`(${rideRequests.status} = 'pending' OR (${rideRequests.status} = 'accepted'
          AND (SELECT departs_at FROM rides WHERE rides.id = ride_requests.ride_id) - ${now} >= ${CANCEL_WINDOW_MS}))`,
        sql`${rideRequests.rideId} IN (SELECT id FROM rides WHERE rides.status = 'active' AND rides.departs_at > ${now})`,
      ),
    )
    .returning({ id: rideRequests.id });
  const [, cancelled] = await db.batch([
    change,
    cancel,
    notificationInsert(
      db,
      {
        userId: c.driverId,
        type: "ride_update",
        title,
        message: `${b.name} cancelled ${listDays(days.map((d) => d.date))} of ${route(c)}.`,
        data: { commute_id: c.id, rider_id: b.riderId, dates: days.map((d) => d.date), status: "cancelled" },
      },
      now,
      sql`WHERE changes() > 0`,
    ),
    recomputeBooked(db, sql`rides.commute_id = ${c.id} AND rides.status = 'active' AND rides.departs_at > ${now}`),
  ]);
  return { cancelled: cancelled.length, audience: audience(cancelled.length ? [c.driverId] : []) };
}

/** A day the rider may still cancel in one go: pending, or accepted and outside the 2-hour window. */
const cancellable = (r: { status: string; departsAt: number }, now: number) =>
  r.status === "pending" || r.departsAt - now >= CANCEL_WINDOW_MS;

const onBookingDays = (b: { weekdays: number }, date: string) => ((b.weekdays >> dayOfWeek(date)) & 1) === 1;

/**
 * The rider pauses their standing booking from `from` to `until` (IST dates; holidays): the
 * top-up asks for nothing in that window, and their requests of the booking in it are
 * cancelled, the driver told once naming the days.
 */
export async function pauseBooking(
  { db }: ModelCtx,
  riderId: string,
  commuteId: string,
  input: { from: string; until: string },
  now = Date.now(),
) {
  if (input.from < istDate(now) || input.until < input.from) throw new ConflictError(PAUSE_WINDOW);
  const own = await loadOwnBooking(db, riderId, commuteId, now);
  const days = own.requests.filter(
    (r) => r.date >= input.from && r.date <= input.until && onBookingDays(own.booking, r.date) && cancellable(r, now),
  );
  const change = db
    .update(commuteBookings)
    .set({ status: "paused", pausedFrom: input.from, pausedUntil: input.until, updatedAt: now })
    .where(eq(commuteBookings.id, own.booking.id));
  const r = await cancelBookedDays(db, { ...own, riderId }, days, change, "Days cancelled", now);
  return { ...r, audience: r.audience };
}

/**
 * The rider resumes a paused booking: it is active again, and the upcoming days it wants
 * are asked for again as the top-up would (pending, or accepted at once if the driver
 * accepted the booking, under the same rule and seat guarantees).
 */
export async function resumeBooking({ db }: ModelCtx, riderId: string, commuteId: string, now = Date.now()) {
  const own = await loadOwnBooking(db, riderId, commuteId, now);
  if (own.booking.status !== "paused") throw new ConflictError("This standing booking is not paused.");
  const upcoming = sql`b.id = ${own.booking.id} AND rides.status = 'active' AND rides.departs_at > ${now}`;
  const [, requested] = await db.batch([
    db
      .update(commuteBookings)
      .set({ status: "active", pausedFrom: null, pausedUntil: null, updatedAt: now })
      .where(and(eq(commuteBookings.id, own.booking.id), eq(commuteBookings.status, "paused"))),
    standingRequests(db, upcoming, now),
    recomputeBooked(db, sql`rides.commute_id = ${commuteId} AND rides.status = 'active' AND rides.departs_at > ${now}`),
  ]);
  return { requested: requested.length, audience: audience([], [own.commute.driverId]) };
}

/**
 * The rider ends their standing booking: no day is asked for any more, and every upcoming
 * request of it is cancelled (an accepted seat only outside the 2-hour window, as a single
 * cancel); the driver is told once, naming the days.
 */
export async function endBooking({ db }: ModelCtx, riderId: string, commuteId: string, now = Date.now()) {
  const own = await loadOwnBooking(db, riderId, commuteId, now);
  const days = own.requests.filter((r) => onBookingDays(own.booking, r.date) && cancellable(r, now));
  const change = db
    .update(commuteBookings)
    .set({ status: "ended", endedAt: now, updatedAt: now })
    .where(eq(commuteBookings.id, own.booking.id));
  return cancelBookedDays(db, { ...own, riderId }, days, change, "Standing booking ended", now);
}

/**
 * The rider skips one day of their booking: the single cancel (cancelRequest), for a
 * request on this commute only.
 */
export async function skipBookedDay(
  ctx: ModelCtx,
  riderId: string,
  commuteId: string,
  requestId: string,
  now = Date.now(),
) {
  const r = await ctx.db
    .select({ commuteId: rides.commuteId })
    .from(rideRequests)
    .innerJoin(rides, eq(rides.id, rideRequests.rideId))
    .where(eq(rideRequests.id, requestId))
    .get();
  if (!r || r.commuteId !== commuteId) throw new NotFoundError("Request not found");
  return cancelRequest(ctx, riderId, requestId, now);
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
  const seatPrice = (trip: number, seats: number) => formatRupees(seatPricePaise(trip, seats));
  // A rise is named (ADR 0055): booked days and a standing booking's later days keep the booked price.
  const rise =
    input.tripCost > c.tripCostPaise
      ? `. A seat now costs ${seatPrice(input.tripCost, input.seats)} (was ${seatPrice(c.tripCostPaise, c.seats)}); the days you hold a seat on, and the days your standing booking adds later, keep the price you booked at`
      : "";
  const message = `From ${formatWeekdayDate(input.fromDate)} on, the commute ${route(c)} leaves at ${formatTime(input.time)}, with ${seatsText(input.seats)}, trip cost ${formatRupees(input.tripCost)}${rise}.`;
  const extra = sql`'commute_id', ${commuteId}, 'change', 'pattern', 'from_date', ${input.fromDate}`;
  try {
    const [told, toldStanding] = await db.batch([
      tellRiders(db, affected, "Commute changed", message, extra, now),
      // A standing rider with no live day in the change (paused, say) is told too, once.
      notificationInsert(
        db,
        {
          id: PER_ROW_ID,
          userId: sql`b.rider_id`,
          type: "ride_update",
          title: "Commute changed",
          message,
          data: sql`json_object(${extra})`,
        },
        now,
        sql`FROM commute_bookings b WHERE b.commute_id = ${commuteId} AND b.status <> 'ended'
          AND NOT EXISTS (SELECT 1 FROM ride_requests q JOIN rides ON rides.id = q.ride_id
            WHERE q.rider_id = b.rider_id AND q.status IN ('pending', 'accepted') AND ${affected})`,
      ).returning({ userId: notifications.userId }),
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
    return { audience: audience([...new Set([...told, ...toldStanding].map((t) => t.userId))]) };
  } catch (e) {
    if (isCheckViolation(e)) throw new ConflictError(SEATS_BELOW_BOOKED);
    throw e;
  }
}

/**
 * The driver ends the commute after `lastDate`: every active, upcoming occurrence after it
 * is cancelled with its live requests (each rider told, in the same batch), and no new
 * occurrence is generated after it. Ending before today (or before the start) ends it now.
 * A commute with a return ends with both legs, from either leg's page (ADR 0048): a way
 * there without the way back, or the reverse, is not the trip its riders booked.
 */
export async function endCommute(
  { db }: ModelCtx,
  driverId: string,
  commuteId: string,
  input: { lastDate: string },
  now = Date.now(),
) {
  const [c, other] = await Promise.all([loadOwnCommute(db, driverId, commuteId), otherLeg(db, commuteId).get()]);
  const legs = other?.status === "active" ? [commuteId, other.id] : [commuteId];
  const endsNow = input.lastDate < istDate(now) || input.lastDate < c.startDate;
  const cutoff = endsNow ? addDays(istDate(now), -1) : input.lastDate;
  const both = legs.length > 1 ? " and its return" : "";
  const [told] = await db.batch(
    endCommutesAndRides(db, {
      driverId,
      rides: sql`${inArray(rides.commuteId, legs)} AND ${rides.date} > ${cutoff}`,
      commutes: inArray(commutes.id, legs),
      ending: {
        endDate: endsNow ? sql`max(${commutes.startDate}, ${cutoff})` : input.lastDate,
        status: endsNow ? "ended" : "active",
      },
      notice: {
        title: "Commute ended",
        message: `The driver ended the commute ${route(c)}${both}${endsNow ? "" : ` after ${formatWeekdayDate(input.lastDate)}`}: your requests for the later days are cancelled.`,
        extra: sql`'commute_id', ${commuteId}, 'status', 'cancelled'`,
      },
      reason: "The driver ended this commute.",
      now,
    }),
  );
  return { endsNow, legs: legs.length, audience: audience([...new Set(told.map((t) => t.userId))]) };
}

export { weekdaysLabel };
