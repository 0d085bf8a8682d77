import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { rides, savedSearchCells, savedSearches, userProfiles } from "../../db/schema";
import { weekdaysLabel } from "../domain/commutes";
import { RETURN_BEFORE_DEPARTURE } from "../schemas/commutes";
import { newId } from "../domain/ids";
import { cellsAround } from "../domain/places";
import { matchRide, PICKUP_LEAD_MINUTES, WINDOW_MINUTES, type Match } from "../domain/ride-match";
import { formatTime, formatWeekdayDate, istDate } from "../domain/time";
import { audience, type ModelCtx } from "./context.server";
import type { Db } from "./db.server";
import { ConflictError, NotFoundError } from "./errors.server";
import { notificationInsertIfChanged } from "./notifications.server";
import { type Viewer, viewerKind, viewerSql, viewerValues } from "./sessions.server";
import { builtOnce } from "./statements.server";
import { placeByName } from "./places.server";
import { nearMatchSearch, routeOf } from "./ride-discovery.server";
import { seatRule } from "./permissions.server";

// Saved searches and their alerts (issue 14, item 4; docs/decisions/0022-saved-search-alerts.md).
// A rider keeps a distance-and-time search; when a ride that matches it is published (a single
// ride, or a commute's occurrences when created or topped up), its owner gets one notification
// a day at most. Matching starts from the ride: saved_search_cells lists, per search, every
// grid cell its pickup circle touches, so the ride's pickup cell and minute find the few
// candidates by primary key; the exact distances and window are measured here (matchRide, the
// discover search's own rule), and the guarded UPDATE of last_alert_day decides who is told.

export const MAX_SAVED_SEARCHES = 10;
export const TOO_MANY_SEARCHES = `You can keep at most ${MAX_SAVED_SEARCHES} saved searches. Delete one to save another.`;
export const SAVED_SEARCH_NOT_FOUND = "Saved search not found";
export const SAME_PLACES = "Pickup and drop places cannot be the same";
export const ALERT_TITLE = "New ride for your saved search";
export { RETURN_BEFORE_DEPARTURE };

export type SaveSearch = {
  from: string;
  to: string;
  time: string;
  radiusKm: number;
  windowMinutes: number;
  weekdays: number;
  /** "And back": the time back from the destination (HH:MM), later than `time`. */
  returnTime?: string | null;
};

const minuteOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

type Place = NonNullable<ReturnType<typeof placeByName>>;

/**
 * One saved_searches row and its cell rows, as two guarded INSERT … SELECTs: the row only
 * where `guard` holds, the cells only if the row was written.
 */
function searchRows(
  db: Db,
  row: { id: string; userId: string; from: Place; to: Place; time: string; returnOf: string | null },
  input: SaveSearch,
  guard: SQL,
  now: number,
) {
  const { id, from, to } = row;
  const minute = minuteOf(row.time);
  const radiusM = Math.round(input.radiusKm * 1000);
  const cells = cellsAround(from.lat, from.lng, radiusM / 1000);
  // In the table's column order.
  const values: (string | number | null)[] = [id, row.userId, from.name, to.name, from.id, to.id];
  values.push(from.lat, from.lng, to.lat, to.lng, from.cell, to.cell, row.time, minute, radiusM);
  values.push(input.windowMinutes, input.weekdays, "active", null, now, row.returnOf);
  const columns = sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );
  return [
    db.insert(savedSearches).select(sql`SELECT ${columns} WHERE ${guard}`).returning({ id: savedSearches.id }),
    db
      .insert(savedSearchCells)
      .select(
        sql`SELECT c.value, ${minute}, ${id} FROM json_each(${JSON.stringify(cells)}) c WHERE EXISTS (SELECT 1 FROM ${savedSearches} WHERE ${savedSearches.id} = ${id})`,
      ),
  ] as const;
}

/**
 * Saves a search for the acting user. Places are resolved names (the schema did it; a caller
 * that skipped it is refused). At most MAX_SAVED_SEARCHES per user, decided by the guarded
 * INSERT itself, so concurrent saves cannot pass the limit; the cell rows are written in the
 * same batch only if the search was. With a return time ("and back", ADR 0055) the way back
 * is a second search (destination to start, around that time) that belongs to the first, so
 * the one alert rule serves both directions; it does not count against the limit.
 */
export async function saveSearch({ db }: ModelCtx, userId: string, input: SaveSearch, now = Date.now()) {
  const from = placeByName(input.from);
  const to = placeByName(input.to);
  if (!from || !to) throw new ConflictError("Please choose both places from the list of places.");
  if (from.id === to.id) throw new ConflictError(SAME_PLACES);
  if (input.returnTime && input.returnTime <= input.time) throw new ConflictError(RETURN_BEFORE_DEPARTURE);
  const id = newId();
  const underLimit = sql`(SELECT count(*) FROM ${savedSearches} WHERE ${savedSearches.userId} = ${userId} AND ${savedSearches.returnOf} IS NULL) < ${MAX_SAVED_SEARCHES}`;
  const outward = searchRows(db, { id, userId, from, to, time: input.time, returnOf: null }, input, underLimit, now);
  const back = input.returnTime
    ? searchRows(
        db,
        { id: newId(), userId, from: to, to: from, time: input.returnTime, returnOf: id },
        input,
        sql`EXISTS (SELECT 1 FROM ${savedSearches} WHERE ${savedSearches.id} = ${id})`,
        now,
      )
    : null;
  const [inserted] = back ? await db.batch([...outward, ...back]) : await db.batch([...outward]);
  if (inserted.length === 0) throw new ConflictError(TOO_MANY_SEARCHES);
  return { id };
}

/**
 * The viewer's saved searches, newest first (saved_searches_user_idx), each with the time of
 * its way back if it has one (saved_searches_return_of_unique); for a page's own batch: see
 * discoverRides' `also`.
 */
export function savedSearchesQuery(db: Db, userId: string | SQL) {
  return db
    .select({
      id: savedSearches.id,
      fromLocation: savedSearches.fromLocation,
      toLocation: savedSearches.toLocation,
      time: savedSearches.time,
      // A subquery, not a join: D1's batch maps columns by name, and both would be `time`.
      // The outer table by its full name: drizzle writes a lone table's columns unqualified.
      returnTime: sql<string | null>`(SELECT b.time FROM saved_searches b WHERE b.return_of = saved_searches.id)`.as(
        "return_time",
      ),
      radiusM: savedSearches.radiusM,
      windowMinutes: savedSearches.windowMinutes,
      weekdays: savedSearches.weekdays,
      status: savedSearches.status,
      lastAlertDay: savedSearches.lastAlertDay,
    })
    .from(savedSearches)
    .where(and(eq(savedSearches.userId, userId), isNull(savedSearches.returnOf)))
    .orderBy(desc(savedSearches.createdAt), asc(savedSearches.id))
    .limit(MAX_SAVED_SEARCHES);
}

/** savedSearchesQuery built once, for Discover's first round trip (ADR 0063). */
export const savedSearchesRead = (db: Db, viewer: Viewer) =>
  builtOnce(db, `saved-searches:${viewerKind(viewer)}`, viewerValues(viewer), (v) =>
    savedSearchesQuery(db, viewerSql(v)),
  );

/** One of the user's searches as listed (never a way back alone) and its way back. */
const listedWithBack = (userId: string, searchId: string) =>
  sql`${savedSearches.userId} = ${userId} AND ((${savedSearches.id} = ${searchId} AND ${savedSearches.returnOf} IS NULL)
    OR ${savedSearches.returnOf} = ${searchId})`;

/** The rows of savedSearchesQuery as the list shows them. */
export function toSavedSearchItems(rows: unknown) {
  return (rows as Awaited<ReturnType<typeof savedSearchesQuery>>).map((r) => ({
    ...r,
    weekdaysLabel: weekdaysLabel(r.weekdays),
    paused: r.status === "paused",
  }));
}

export async function listSavedSearches({ db }: ModelCtx, userId: string) {
  return toSavedSearchItems(await savedSearchesQuery(db, userId));
}

export type SavedSearchItem = Awaited<ReturnType<typeof listSavedSearches>>[number];

/** Pauses or resumes one of the acting user's saved searches (with its way back); anyone else's is "not found". */
export async function setSavedSearchPaused({ db }: ModelCtx, userId: string, searchId: string, paused: boolean) {
  const rows = await db
    .update(savedSearches)
    .set({ status: paused ? "paused" : "active" })
    .where(listedWithBack(userId, searchId))
    .returning({ id: savedSearches.id });
  if (!rows.some((r) => r.id === searchId)) throw new NotFoundError(SAVED_SEARCH_NOT_FOUND);
}

/** Deletes one of the acting user's saved searches (its way back, and their cells); anyone else's is "not found". */
export async function deleteSavedSearch({ db }: ModelCtx, userId: string, searchId: string) {
  const mine = listedWithBack(userId, searchId);
  const [, deleted] = await db.batch([
    db
      .delete(savedSearchCells)
      .where(sql`${savedSearchCells.searchId} IN (SELECT ${savedSearches.id} FROM ${savedSearches} WHERE ${mine})`),
    db.delete(savedSearches).where(mine).returning({ id: savedSearches.id }),
  ]);
  if (!deleted.some((r) => r.id === searchId)) throw new NotFoundError(SAVED_SEARCH_NOT_FOUND);
}

// ---------------------------------------------------------------- alerts on publish

/** A ride's departure minute of the day (IST), from its HH:MM time. */
const rideMinute = sql`(CAST(substr(${rides.time}, 1, 2) AS INTEGER) * 60 + CAST(substr(${rides.time}, 4, 2) AS INTEGER))`;
const owner = sql`${savedSearches.userId}`;

/**
 * The candidate (ride, saved search) pairs of some just-published rides (exported so a test
 * can EXPLAIN it): the ride's start cell and minute range saved_search_cells' primary key (the
 * widest window is 60 minutes), then each search by id. Active searches not yet alerted
 * today, on the ride's weekday and within reach of its window, whose owner may ask for a
 * seat on it (seatRule).
 */
export function alertCandidatesQuery(db: Db, rideIds: string[], now: number) {
  const today = istDate(now);
  return db
    .select({
      rideId: rides.id,
      driverId: rides.driverId,
      rideFrom: rides.fromLocation,
      rideTo: rides.toLocation,
      date: rides.date,
      rideTime: rides.time,
      departsAt: rides.departsAt,
      rideFromLat: rides.fromLat,
      rideFromLng: rides.fromLng,
      rideToLat: rides.toLat,
      rideToLng: rides.toLng,
      viaPlaceIds: rides.viaPlaceIds,
      commuteId: rides.commuteId,
      searchId: savedSearches.id,
      returnOf: savedSearches.returnOf,
      userId: savedSearches.userId,
      fromLocation: savedSearches.fromLocation,
      toLocation: savedSearches.toLocation,
      fromLat: savedSearches.fromLat,
      fromLng: savedSearches.fromLng,
      toLat: savedSearches.toLat,
      toLng: savedSearches.toLng,
      time: savedSearches.time,
      radiusM: savedSearches.radiusM,
      windowMinutes: savedSearches.windowMinutes,
    })
    .from(rides)
    .innerJoin(
      savedSearchCells,
      and(
        // The ride's start: a search is told of rides leaving near its pickup, whatever their
        // drop along the route. Every cell of the route (rides.route_cells) read 4,780 rows of
        // the bench city per publish, so a search picked up mid-route is not told yet (ADR 0049).
        eq(savedSearchCells.cell, rides.fromCell),
        sql`${savedSearchCells.minute} BETWEEN ${rideMinute} - ${WINDOW_MINUTES.max} AND ${rideMinute} + ${WINDOW_MINUTES.max}`,
      ),
    )
    .innerJoin(savedSearches, eq(savedSearches.id, savedSearchCells.searchId))
    .where(
      and(
        inArray(rides.id, rideIds),
        // Unary +: the rides are found by id, never by walking the discover index.
        sql`+${rides.status} = 'active'`,
        sql`+${rides.departsAt} > ${now}`,
        eq(savedSearches.status, "active"),
        sql`(${savedSearches.lastAlertDay} IS NULL OR ${savedSearches.lastAlertDay} < ${today})`,
        sql`${savedSearches.minute} - ${rideMinute} BETWEEN -${savedSearches.windowMinutes} AND ${savedSearches.windowMinutes} + ${PICKUP_LEAD_MINUTES}`,
        sql`((${savedSearches.weekdays} >> CAST(strftime('%w', ${rides.date}) AS INTEGER)) & 1) = 1`,
        // Only a ride the owner may ask a seat on: the seat rule (issue 34).
        seatRule(owner, 1, now),
      ),
    );
}

type Candidate = Awaited<ReturnType<ReturnType<typeof alertCandidatesQuery>["all"]>>[number];

/**
 * The exact match of a candidate pair, or null: the discover search's own rule and search
 * (nearMatchSearch: on a date, no anchor), so an alert names exactly the rides it finds.
 */
function candidateMatch(c: Candidate & { maxDetourMinutes: number | null }): Match | null {
  if (c.rideFromLat === null || c.rideFromLng === null || c.rideToLat === null || c.rideToLng === null) return null;
  const from = placeByName(c.fromLocation);
  const to = placeByName(c.toLocation);
  if (!from || !to) return null;
  const search = nearMatchSearch({
    // The saved points (a place's point when saved), as the rule measured them before.
    from: { ...from, lat: c.fromLat, lng: c.fromLng },
    to: { ...to, lat: c.toLat, lng: c.toLng },
    date: c.date,
    time: c.time,
    radiusKm: c.radiusM / 1000,
    windowMinutes: c.windowMinutes,
  });
  return matchRide(search, {
    ...routeOf({ ...c, fromLat: c.rideFromLat, fromLng: c.rideFromLng, toLat: c.rideToLat, toLng: c.rideToLng }),
    departsAt: c.departsAt,
  });
}

// D1 binds at most 100 parameters a statement: rides are matched this many at a time.
const RIDES_PER_LOOKUP = 40;
// Each alert is two statements (the guarded UPDATE and the notification).
const ALERTS_PER_BATCH = 50;

/**
 * Tells the owners of the saved searches that some just-published rides match (createRide,
 * createCommute, the daily top-up). One alert per search per IST day: the guarded UPDATE of
 * last_alert_day (which re-checks, at write time, that the search is active and its owner may
 * still see and book the ride) gates the notification in the same batch, so concurrent
 * publishes alert a search once. Returns whom to tell (the fan-out's audience).
 */
export async function alertSavedSearches({ db }: ModelCtx, rideIds: string[], now = Date.now()) {
  if (rideIds.length === 0) return { audience: audience() };
  const best = new Map<string, { c: Candidate; score: number }>();
  for (let i = 0; i < rideIds.length; i += RIDES_PER_LOOKUP) {
    const candidates = await alertCandidatesQuery(db, rideIds.slice(i, i + RIDES_PER_LOOKUP), now);
    // The drivers' detour limits, read once (a join read a profile row per candidate pair).
    const drivers = [...new Set(candidates.map((c) => c.driverId))];
    const limits = new Map(
      drivers.length
        ? (
            await db
              .select({ id: userProfiles.userId, max: userProfiles.maxDetourMinutes })
              .from(userProfiles)
              .where(inArray(userProfiles.userId, drivers))
          ).map((p) => [p.id, p.max])
        : [],
    );
    for (const c of candidates) {
      const m = candidateMatch({ ...c, maxDetourMinutes: limits.get(c.driverId) ?? null });
      if (!m) continue;
      // A commute's days all match alike: the best, then the earliest, is the one named.
      const seen = best.get(c.searchId);
      if (!seen || m.score < seen.score || (m.score === seen.score && c.departsAt < seen.c.departsAt))
        best.set(c.searchId, { c, score: m.score });
    }
  }
  const today = istDate(now);
  const notified: string[] = [];
  const pairs = [...best.values()].map((b) => b.c);
  for (let i = 0; i < pairs.length; i += ALERTS_PER_BATCH) {
    const chunk = pairs.slice(i, i + ALERTS_PER_BATCH);
    const statements = chunk.flatMap((c) => [
      db
        .update(savedSearches)
        .set({ lastAlertDay: today })
        .where(
          and(
            eq(savedSearches.id, c.searchId),
            eq(savedSearches.status, "active"),
            sql`(${savedSearches.lastAlertDay} IS NULL OR ${savedSearches.lastAlertDay} < ${today})`,
            // Alerted only of a ride the owner may ask a seat on (the seat rule, issue 34).
            sql`EXISTS (SELECT 1 FROM ${rides} WHERE ${rides.id} = ${c.rideId} AND ${seatRule(owner, 1, now)})`,
          ),
        )
        .returning({ userId: savedSearches.userId }),
      notificationInsertIfChanged(
        db,
        {
          userId: c.userId,
          type: "ride_update",
          title: ALERT_TITLE,
          message: alertMessage(c),
          data: {
            ride_id: c.rideId,
            saved_search_id: c.searchId,
            from: c.rideFrom,
            to: c.rideTo,
            date: c.date,
            time: c.rideTime,
            ...(c.commuteId ? { commute_id: c.commuteId } : {}),
          },
        },
        now,
      ),
    ]);
    const results = (await db.batch(statements as unknown as Parameters<typeof db.batch>[0])) as unknown as unknown[];
    for (let k = 0; k < results.length; k += 2) {
      const updated = results[k] as { userId: string }[];
      if (updated.length) notified.push(updated[0].userId);
    }
  }
  return { audience: audience([...new Set(notified)]) };
}

function alertMessage(c: Candidate): string {
  const when = `${formatWeekdayDate(c.date)} at ${formatTime(c.rideTime)}`;
  const what = c.commuteId
    ? `A weekly commute from ${c.rideFrom} to ${c.rideTo} (next on ${when})`
    : `A ride from ${c.rideFrom} to ${c.rideTo} on ${when}`;
  // A way back (ADR 0055) is named by its outward search, as the list shows it.
  if (c.returnOf)
    return `${what} matches the way back of your saved search ${c.toLocation} → ${c.fromLocation} (back around ${formatTime(c.time)}).`;
  return `${what} matches your saved search ${c.fromLocation} → ${c.toLocation} around ${formatTime(c.time)}.`;
}
