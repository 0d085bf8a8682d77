import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { rides, savedSearches, savedSearchSpots, userProfiles } from "../../db/schema";
import { weekdaysLabel } from "../domain/commutes";
import { RETURN_BEFORE_DEPARTURE } from "../schemas/commutes";
import { newId } from "../domain/ids";
import { type RouteSpot, routeSpots, SPOT_REACHES, searchSpot, spotMinutes } from "../domain/alert-spots";
import { matchRide, routeBox, type Match } from "../domain/ride-match";
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
// a day at most. Matching starts from the ride: saved_search_spots keeps each search once, at
// its pickup's cell of its radius class's grid, and the ride looks up the cells near its route
// (ADR 0049); the exact distances and window are measured here (matchRide, the discover
// search's own rule), and the guarded UPDATE of the lookup row's told_on decides who is told.

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
 * One saved_searches row and its lookup row, as two guarded INSERT … SELECTs: the row only
 * where `guard` holds, the lookup row only if the row was written.
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
  const { klass, cell, reach } = searchSpot(from, radiusM / 1000, input.windowMinutes);
  // In the table's column order.
  const values: (string | number | null)[] = [id, row.userId, from.name, to.name, from.id, to.id];
  values.push(from.lat, from.lng, to.lat, to.lng, from.cell, to.cell, row.time, minute, radiusM);
  values.push(input.windowMinutes, input.weekdays, "active", null, now, row.returnOf);
  const spot: (string | number | null)[] = [
    id,
    klass,
    cell,
    reach,
    minute,
    input.windowMinutes,
    input.weekdays,
    radiusM,
  ];
  spot.push(from.lat, from.lng, to.lat, to.lng, row.returnOf ? 1 : 0, row.userId, from.name, to.name, null, 0);
  const list = (vs: (string | number | null)[]) =>
    sql.join(
      vs.map((v) => sql`${v}`),
      sql`, `,
    );
  return [
    db
      .insert(savedSearches)
      .select(sql`SELECT ${list(values)} WHERE ${guard}`)
      .returning({ id: savedSearches.id }),
    db
      .insert(savedSearchSpots)
      .select(
        sql`SELECT ${list(spot)} WHERE EXISTS (SELECT 1 FROM ${savedSearches} WHERE ${savedSearches.id} = ${id})`,
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

/** Deletes one of the acting user's saved searches (its way back, and their lookup rows); anyone else's is "not found". */
export async function deleteSavedSearch({ db }: ModelCtx, userId: string, searchId: string) {
  const mine = listedWithBack(userId, searchId);
  const [, deleted] = await db.batch([
    db
      .delete(savedSearchSpots)
      .where(sql`${savedSearchSpots.searchId} IN (SELECT ${savedSearches.id} FROM ${savedSearches} WHERE ${mine})`),
    db.delete(savedSearches).where(mine).returning({ id: savedSearches.id }),
  ]);
  if (!deleted.some((r) => r.id === searchId)) throw new NotFoundError(SAVED_SEARCH_NOT_FOUND);
}

// ---------------------------------------------------------------- alerts on publish

const owner = sql`${savedSearchSpots.userId}`;

/** The just-published rides an alert may name (by id): active and ahead, with the driver's detour limit. */
function alertRidesQuery(db: Db, rideIds: string[], now: number) {
  return db
    .select({
      rideId: rides.id,
      rideFrom: rides.fromLocation,
      rideTo: rides.toLocation,
      date: rides.date,
      rideTime: rides.time,
      departsAt: rides.departsAt,
      fromLat: rides.fromLat,
      fromLng: rides.fromLng,
      toLat: rides.toLat,
      toLng: rides.toLng,
      viaPlaceIds: rides.viaPlaceIds,
      commuteId: rides.commuteId,
      maxDetourMinutes: userProfiles.maxDetourMinutes,
    })
    .from(rides)
    .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
    .where(
      and(
        inArray(rides.id, rideIds),
        // Unary +: the rides are found by id, never by walking the discover index.
        sql`+${rides.status} = 'active'`,
        sql`+${rides.departsAt} > ${now}`,
      ),
    );
}
type AlertRide = Awaited<ReturnType<typeof alertRidesQuery>>[number];

/** A saved search as its lookup row holds it. */
type SpotSearch = {
  g: number;
  /** The lookup row's rowid: the guarded UPDATE finds it without a second index. */
  spotRowid: number;
  searchId: string;
  minute: number;
  windowMinutes: number;
  weekdays: number;
  radiusM: number;
  fromLat: number;
  fromLng: number;
  toLat: number;
  toLng: number;
  wayBack: number;
  userId: string;
  fromLocation: string;
  toLocation: string;
};

const hhmm = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
/** A date's bit in a weekdays mask (Sunday 1, as the saved searches keep it). */
const dayBit = (date: string) => 1 << new Date(`${date}T00:00:00Z`).getUTCDay();

/** Rides sharing a route and a time (a commute's days): looked up once, on any of their weekdays. */
type RouteGroup = { rides: AlertRide[]; route: Point[]; minute: number; weekdays: number; spots: RouteSpot[] };
type Point = { lat: number; lng: number };

const KM_PER_DEG = (Math.PI * 6371) / 180;
/** Degrees of latitude per metre of a search's radius, 1% wide so a box never drops a match. */
const LAT_PER_M = 1.01 / 1000 / KM_PER_DEG;
const num = (v: number) => {
  if (!Number.isFinite(v)) throw new Error("alert lookup: not a number");
  return String(v);
};

/**
 * The statement finding the saved searches some routes may alert (exported so a test can
 * EXPLAIN it; ADR 0049, "alerts by radius class"). Each group (rides sharing a route and a
 * time: a commute's days)
 * ranges saved_search_spots_lookup_idx once per cell of each class near its route
 * (routeSpots), minutes from the widest window before the driver passes there to the widest
 * after. The index holds the rest, so a search is dropped before any row but its entry is
 * read: its own window, its weekdays (any of the group's), and both of its places within its
 * radius of the route's box. The cells are a VALUES list joined to the index (ADR 0030).
 */
export function spotSearchesSql(groups: Omit<RouteGroup, "rides">[], today: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error("alert lookup: not a date");
  const rows: string[] = [];
  groups.forEach((group, g) => {
    const box = routeBox(group.route);
    const farthest = Math.max(Math.abs(box.routeSouth), Math.abs(box.routeNorth)) + 0.1;
    const lngPerM = LAT_PER_M / Math.cos((farthest * Math.PI) / 180);
    const near = [box.routeSouth, box.routeNorth, box.routeWest, box.routeEast, lngPerM].map(num).join(", ");
    for (const spot of group.spots) {
      const [first, last] = spotMinutes(spot, group.minute);
      for (const reach of SPOT_REACHES) {
        const row = [g, spot.klass, spot.cell, reach, first - reach, last + reach, first, last, group.weekdays];
        rows.push(`(${row.map(num).join(", ")}, ${near})`);
      }
    }
  });
  if (rows.length === 0) return null;
  const within = (col: string, lo: string, hi: string, perM: string) =>
    `ss.${col} BETWEEN ${lo} - ss.radius_m * ${perM} AND ${hi} + ss.radius_m * ${perM}`;
  const lat = num(LAT_PER_M);
  return `SELECT v.column1 AS g, ss.rowid AS spotRowid, ss.search_id AS searchId, ss.minute AS minute,
      ss.window_minutes AS windowMinutes, ss.weekdays AS weekdays, ss.radius_m AS radiusM,
      ss.from_lat AS fromLat, ss.from_lng AS fromLng, ss.to_lat AS toLat, ss.to_lng AS toLng,
      ss.way_back AS wayBack, ss.user_id AS userId, ss.from_location AS fromLocation,
      ss.to_location AS toLocation
    FROM (VALUES ${rows.join(", ")}) AS v
    CROSS JOIN saved_search_spots AS ss INDEXED BY saved_search_spots_lookup_idx
    WHERE ss.klass = v.column2 AND ss.cell = v.column3 AND ss.reach = v.column4
      AND ss.minute BETWEEN v.column5 AND v.column6
      AND (ss.told_on IS NULL OR ss.told_on < '${today}') AND ss.paused = 0
      AND ss.minute + ss.window_minutes >= v.column7 AND ss.minute - ss.window_minutes <= v.column8
      AND (ss.weekdays & v.column9) <> 0
      AND ${within("from_lat", "v.column10", "v.column11", lat)}
      AND ${within("to_lat", "v.column10", "v.column11", lat)}
      AND ${within("from_lng", "v.column12", "v.column13", "v.column14")}
      AND ${within("to_lng", "v.column12", "v.column13", "v.column14")}`;
}

/** A published ride and a saved search its route may alert. */
type Candidate = { ride: AlertRide; search: SpotSearch };

/**
 * The exact match of a candidate, or null: the discover search's own rule and search
 * (nearMatchSearch: on a date, no anchor), so an alert names exactly the rides it finds.
 */
function candidateMatch({ ride, search: s }: Candidate): Match | null {
  const from = placeByName(s.fromLocation);
  const to = placeByName(s.toLocation);
  if (!from || !to || (s.weekdays & dayBit(ride.date)) === 0) return null;
  const search = nearMatchSearch({
    // The saved points (a place's point when saved), as the rule measured them before.
    from: { ...from, lat: s.fromLat, lng: s.fromLng },
    to: { ...to, lat: s.toLat, lng: s.toLng },
    date: ride.date,
    time: hhmm(s.minute),
    radiusKm: s.radiusM / 1000,
    windowMinutes: s.windowMinutes,
  });
  return matchRide(search, { ...routeOf(ride), departsAt: ride.departsAt });
}

// A lookup's VALUES rows (a city ride's 50-100 cells, a row a reach, about 110 characters
// each) stay under D1's 100 KB a statement.
const SPOTS_PER_LOOKUP = 300;
// Each alert is two statements (the guarded UPDATE and the notification).
const ALERTS_PER_BATCH = 50;

/**
 * Tells the owners of the saved searches that some just-published rides match (createRide,
 * createCommute, the daily top-up), wherever along the route the search's pickup lies. One
 * alert per search per IST day: the guarded UPDATE of the lookup row's told_on (which decides,
 * at write time, that the search is not paused and not yet told today and that its owner may
 * ask a seat on the ride: seatRule) gates the notification in the same batch, so concurrent
 * publishes alert a search once; the lookup then skips it for the rest of the day. Returns
 * whom to tell (the fan-out's audience).
 */
export async function alertSavedSearches({ db }: ModelCtx, rideIds: string[], now = Date.now()) {
  if (rideIds.length === 0) return { audience: audience() };
  const published: AlertRide[] = [];
  // D1 binds at most 100 parameters a statement.
  for (let i = 0; i < rideIds.length; i += 90)
    published.push(...(await alertRidesQuery(db, rideIds.slice(i, i + 90), now)));
  const groups = new Map<string, RouteGroup>();
  for (const r of published) {
    if (r.fromLat === null || r.fromLng === null || r.toLat === null || r.toLng === null) continue;
    const key = [r.fromLat, r.fromLng, r.viaPlaceIds, r.toLat, r.toLng, r.rideTime].join(" ");
    const group = groups.get(key);
    if (group) {
      group.rides.push(r);
      group.weekdays |= dayBit(r.date);
      continue;
    }
    const { from, to, vias } = routeOf(r);
    const route = [from, ...vias.slice(0, 3), to];
    const spots = routeSpots(route);
    groups.set(key, { rides: [r], route, minute: minuteOf(r.rideTime), weekdays: dayBit(r.date), spots });
  }
  // Lookups of at most SPOTS_PER_LOOKUP cells each (a group is never split).
  const lookups: RouteGroup[][] = [];
  let size = Infinity;
  for (const group of groups.values()) {
    if (size + group.spots.length > SPOTS_PER_LOOKUP) lookups.push([]), (size = 0);
    lookups[lookups.length - 1].push(group);
    size += group.spots.length;
  }
  const today = istDate(now);
  const best = new Map<string, { c: Candidate; score: number }>();
  for (const chunk of lookups) {
    const lookup = spotSearchesSql(chunk, today);
    for (const search of lookup ? await db.all<SpotSearch>(sql.raw(lookup)) : []) {
      for (const ride of chunk[search.g].rides) {
        const c = { ride, search };
        const m = candidateMatch(c);
        if (!m) continue;
        // A commute's days all match alike: the best, then the earliest, is the one named.
        const seen = best.get(search.searchId);
        if (!seen || m.score < seen.score || (m.score === seen.score && ride.departsAt < seen.c.ride.departsAt))
          best.set(search.searchId, { c, score: m.score });
      }
    }
  }
  const notified: string[] = [];
  const pairs = [...best.values()].map((b) => b.c);
  for (let i = 0; i < pairs.length; i += ALERTS_PER_BATCH) {
    const chunk = pairs.slice(i, i + ALERTS_PER_BATCH);
    const statements = chunk.flatMap(({ ride: r, search: s }) => [
      db
        .update(savedSearchSpots)
        .set({ toldOn: today })
        .where(
          and(
            // By rowid (the lookup's), still only if it is this search's row.
            sql`${savedSearchSpots}.rowid = ${s.spotRowid}`,
            eq(savedSearchSpots.searchId, s.searchId),
            eq(savedSearchSpots.paused, 0),
            sql`(${savedSearchSpots.toldOn} IS NULL OR ${savedSearchSpots.toldOn} < ${today})`,
            // Alerted only of a ride the owner may ask a seat on (the seat rule, issue 34).
            sql`EXISTS (SELECT 1 FROM ${rides} WHERE ${rides.id} = ${r.rideId} AND ${seatRule(owner, 1, now)})`,
          ),
        )
        .returning({ userId: savedSearchSpots.userId }),
      notificationInsertIfChanged(
        db,
        {
          userId: s.userId,
          type: "ride_update",
          title: ALERT_TITLE,
          message: alertMessage(r, s),
          data: {
            ride_id: r.rideId,
            saved_search_id: s.searchId,
            from: r.rideFrom,
            to: r.rideTo,
            date: r.date,
            time: r.rideTime,
            ...(r.commuteId ? { commute_id: r.commuteId } : {}),
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

function alertMessage(c: AlertRide, s: SpotSearch): string {
  const when = `${formatWeekdayDate(c.date)} at ${formatTime(c.rideTime)}`;
  const what = c.commuteId
    ? `A weekly commute from ${c.rideFrom} to ${c.rideTo} (next on ${when})`
    : `A ride from ${c.rideFrom} to ${c.rideTo} on ${when}`;
  const time = formatTime(hhmm(s.minute));
  // A way back (ADR 0055) is named by its outward search, as the list shows it.
  if (s.wayBack)
    return `${what} matches the way back of your saved search ${s.toLocation} → ${s.fromLocation} (back around ${time}).`;
  return `${what} matches your saved search ${s.fromLocation} → ${s.toLocation} around ${time}.`;
}
