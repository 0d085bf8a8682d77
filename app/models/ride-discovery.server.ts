import { and, asc, count, eq, gte, isNull, lt, ne, sql, type SQL } from "drizzle-orm";
import { type SelectedFields } from "drizzle-orm/sqlite-core";
import {
  communities,
  rideDayStats,
  rideHourStats,
  rideRequests,
  rides,
  savedRides,
  userProfiles,
} from "../../db/schema";
import { cursorParam, parseCursor, type Cursor } from "../domain/cursor";
import { DISCOVER_PAGE_SIZE, MAX_COST_CHOICES, nearPageSize } from "../domain/rides";
import { addDays, istDate, istToInstant } from "../domain/time";
import { CELL_ROW, cellsWithin, straightLineKm, type PlaceRecord } from "../domain/places";
import { ANY_METRO, METRO_STATIONS } from "../domain/metro-stations";
import {
  DETOUR_LATE_MINUTES,
  PASS_SLACK_MINUTES,
  PICKUP_LEAD_MINUTES,
  rankMatches,
  shownMatch,
  type Match,
  type MatchSearch,
  type ShownMatch,
} from "../domain/ride-match";
import type { DiscoverFilters } from "../schemas/ride-search";
import type { Db } from "./db.server";
import { cappedCount, countable } from "./badges.server";
import { type AlsoReads, type ModelCtx } from "./context.server";
import { type Viewer, viewerKind, viewerSql, viewerValues } from "./sessions.server";
import {
  builtOnce,
  forgetBuiltStatement,
  type Preparable,
  type Read,
  type ReadResults,
  readOf,
  runReads,
} from "./statements.server";
import { PLACES, placeByName, viaPlaces } from "./places.server";
import { blockedEitherWay } from "./relations.server";
import { workplaceBadge } from "./work-email.server";
import { isMember, maySeeRide, myCommunityIds, seatRule, womenRuleAllows } from "./permissions.server";
import { aliased, rideColumns, ridePoints, withFairSeat, withFairSeatOnly } from "./ride-columns.server";
import { NO_MATCH_BOUND, scoreBound, scoreBoundColumns } from "./ride-score-bound.server";

// Finding rides: Discover's pages and filters, and the search near two places on a day.

// D1 binds at most 100 parameters: a short text ("a") matches hundreds of the 455 places, so
// the search keeps the first 40 (landmarks, where most rides start, first).
const PLACE_MATCH_CAP = 40;
const placesMatching = (q: string) => {
  const needle = q.toLowerCase();
  const hits = PLACES.filter((p) => p.name.toLowerCase().includes(needle));
  return hits
    .sort((a, b) => (a.kind === b.kind ? 0 : a.kind === "landmark" ? -1 : 1))
    .slice(0, PLACE_MATCH_CAP)
    .map((p) => p.name);
};

const womenTerm = sql`(${rides.womenOnly} = 1 OR ${rides.womenLockBooked} IS NOT NULL)`;
const maxCostTerm = (rupees: number) => sql`${rides.tripCostPaise} <= ${rupees * 100} * ${rides.seats}`;

// What a Discover card and the matching rule read of a ride (ADR 0068): a card never shows the
// notes or the distance, and every list and search reads active rides only. Each column not
// returned is a value less per row for the D1 binding to hand over and the mapper to read.
const { notes: _notes, distanceKm: _distance, status: _status, ...cardRideColumns } = rideColumns;

/**
 * Discover's ride cards as the viewer sees them (driver, community, saved, the viewer's live
 * request; at most one per ride by ride_requests_live_unique, so the card shows Requested or
 * Booked instead of Book Now): the one select both Discover queries start from.
 */
function discoverCards<E extends SelectedFields>(
  db: Db,
  viewerId: string | SQL,
  now: number,
  extra: E,
  source?: SQL,
  on?: SQL,
) {
  const cards = db.select({
    ...cardRideColumns,
    ...ridePoints,
    ...extra,
    driverName: userProfiles.fullName,
    driverAvatarUrl: userProfiles.avatarUrl,
    driverRatingCount: userProfiles.ratingCount,
    driverRatingStars: userProfiles.ratingStars,
    driverVerified: workplaceBadge(rides.driverId, rides.communityId),
    communityName: communities.name,
    saved: sql<number>`${savedRides.rideId} IS NOT NULL`.mapWith(Boolean),
    myRequestId: aliased<string | null>(rideRequests.id, "my_request_id"),
    myRequestStatus: aliased<"pending" | "accepted" | null>(rideRequests.status, "my_request_status"),
    // The seat rule says no (issue 34): the card offers no Book Now. Lists already leave out
    // what the viewer may not see; this covers the rest (a suspension, the driver's standing, a full ride).
    refused: sql<number>`NOT ${seatRule(viewerId, 1, now)}`.mapWith(Boolean).as("refused"),
  });
  // A distance search reaches rides from its cells (and commutes): `source CROSS JOIN rides`,
  // in that order (nearPageQuery). With `on`, each row of `source` stays, its ride's columns
  // all NULL unless `on` holds: a wide date search counts the candidates it read (nearPageQuery).
  const from = source && cards.from(source);
  const joined = !from
    ? cards.from(rides)
    : on
      ? (from.leftJoin(rides, on) as unknown as ReturnType<typeof from.crossJoin<typeof rides>>)
      : from.crossJoin(rides);
  return joined
    .leftJoin(userProfiles, eq(userProfiles.userId, rides.driverId))
    .leftJoin(communities, eq(communities.id, rides.communityId))
    .leftJoin(savedRides, and(eq(savedRides.rideId, rides.id), eq(savedRides.userId, viewerId)))
    .leftJoin(
      rideRequests,
      and(
        eq(rideRequests.rideId, rides.id),
        eq(rideRequests.riderId, viewerId),
        sql`${rideRequests.status} IN ('pending','accepted')`,
      ),
    );
}

/**
 * The departures a Discover list shows: from `from` (now, or the date's start) to `until` (the
 * date's end); on a page reached by "Next page", after the last ride of the page before
 * (`after`), and by "Previous page", before the first ride of the page after (`before`): that
 * list is read backwards, latest first (ADR 0038).
 */
type Range = { from: number; until: number | null; after?: Cursor | null; before?: Cursor | null };

/**
 * An index path's departure range (`when`) and its row filters (`own`): blocks, then Discover's.
 * The lower bound is one term, so SQLite ranges the index on it: the cursor's row value when it
 * is past `from` (a page is then read from its own first ride, however deep), else `from`.
 * A merge's seeks bound the departure only by the arm's last ride, `(departs_at, id) > after`,
 * starting from `start` (the row before any ride the list may show), and by `before`: with a
 * second lower bound beside it, SQLite ranged the index on that one and walked the arm again
 * at every step (ADR 0038).
 */
function pathTerms(viewerId: string | SQL, filters: SQL[], range: Range) {
  const own = sql.join([sql`NOT ${blockedEitherWay(viewerId, sql`${rides.driverId}`)}`, ...filters], sql` AND `);
  if (range.before) {
    // Backwards from the cursor (or the day's end, if it is later) down to `from`.
    const c = range.until !== null && range.before.at >= range.until ? { at: range.until, id: "" } : range.before;
    const stop = sql`departs_at >= ${range.from}`;
    return {
      back: true,
      cmp: sql.raw("<"),
      desc: sql.raw(" DESC"),
      when: sql`(departs_at, id) < (${c.at}, ${c.id}) AND ${stop}`,
      start: { at: c.at, id: c.id },
      before: stop,
      own,
    };
  }
  const cursor = range.after && range.after.at >= range.from ? range.after : null;
  const before = range.until === null ? sql`1` : sql`departs_at < ${range.until}`;
  return {
    back: false,
    cmp: sql.raw(">"),
    desc: sql.raw(""),
    when: sql`${cursor ? sql`(departs_at, id) > (${cursor.at}, ${cursor.id})` : sql`departs_at >= ${range.from}`} AND ${before}`,
    // `(departs_at, id) > (from, '')` is `departs_at >= from`: ids are never empty.
    start: cursor ? { at: cursor.at, id: cursor.id } : { at: range.from, id: "" },
    before,
    own,
  };
}

/**
 * The viewer's communities' rides on `index` that leave no later than the last of the first
 * `first` public rides in `pub` (any time when there are fewer): the union's first `first` can
 * hold no later one. Read backwards (`back`), no earlier than the earliest of them. `rupees`
 * narrows to a cost cap on rides_seat_rupees_idx.
 */
function communitySide(
  viewerId: string | SQL,
  index: string,
  when: SQL,
  own: SQL,
  first: number,
  pub: SQL,
  back: boolean,
  rupees?: SQL,
): SQL {
  const bound = back
    ? sql`departs_at >= (SELECT CASE WHEN count(*) < ${first} THEN 0 ELSE min(departs_at) END FROM ${pub})`
    : sql`departs_at <= (SELECT CASE WHEN count(*) < ${first} THEN ${Number.MAX_SAFE_INTEGER} ELSE max(departs_at) END FROM ${pub})`;
  return sql`SELECT id, departs_at FROM rides INDEXED BY ${sql.raw(index)}
        WHERE community_id IN ${myCommunityIds(viewerId)} AND status = 'active'${rupees ? sql` AND ${rupees}` : sql``} AND ${when} AND ${own}
          AND ${bound}`;
}

/**
 * Issue 17, rows read flat as the city grows. Plain Discover (no place text, not "Community
 * rides only") finds the viewer's first `first` rides in (departs_at, id) order on two paths
 * of rides_community_idx (community_id, status, departs_at, id), reading only rides the viewer
 * may see: the first `first` public rides, and the rides of the viewer's communities that leave
 * no later than the last of those (the union's first `first` can hold no later one). A city that
 * grows around the viewer adds public rides, which only brings that bound nearer; walking
 * rides_discover_idx instead stepped over every ride of someone else's community. Both paths
 * apply Discover's own filters (`filters`). The ids of rows [offset, offset + limit) come out
 * sorted, so only those are joined to their cards; a count (`sorted: false`) takes any `limit` (ADR 0035).
 */
function visibleIds(
  viewerId: string | SQL,
  filters: SQL[],
  range: Range,
  limit: number,
  offset = 0,
  { sorted = true, maxCost, women = false }: { sorted?: boolean; maxCost?: number; women?: boolean } = {},
): SQL {
  const first = offset + limit;
  const terms = pathTerms(viewerId, filters, range);
  const { when, own, back, desc } = terms;
  if (maxCost !== undefined)
    return cheapVisibleIds(viewerId, terms, range.until !== null, maxCost, limit, offset, sorted);
  // "Women-only seats": rides_women_idx holds just those rides, in the same order, so both paths
  // read only them (`filters` carries womenTerm, the index's WHERE; ADR 0037).
  const index = women ? "rides_women_idx" : "rides_community_idx";
  // `pub` is written twice (its rows, and its last departure as the bound): each copy reads
  // `first` index entries, fewer rows than a MATERIALIZED CTE that stores and scans them again.
  const pub = sql`SELECT id, departs_at FROM rides INDEXED BY ${sql.raw(index)}
      WHERE community_id IS NULL AND status = 'active' AND ${when} AND ${own} ORDER BY departs_at${desc}, id${desc} LIMIT ${first}`;
  return sql`(SELECT id, departs_at FROM (SELECT id, departs_at FROM (${pub})
      UNION ALL
      ${communitySide(viewerId, index, when, own, first, sql`(${pub})`, back)})
    ${sorted ? sql`ORDER BY departs_at${desc}, id${desc} ` : sql``}LIMIT ${limit} OFFSET ${offset})`;
}

/** The rupees a seat costs, rounded up: rides_seat_rupees_idx's expression, exactly as written there. */
const SEAT_RUPEES = sql.raw(`(("trip_cost_paise" + 100 * "seats" - 1) / (100 * "seats"))`);

/**
 * visibleIds with a cost cap (at most `maxCost` rupees a seat). Few rides may be that cheap, so
 * walking the public rides in departure order and dropping the dearer ones read every upcoming
 * ride of the city before a page was full. Instead the public side merges, in (departs_at, id)
 * order, one run of rides_seat_rupees_idx per whole rupee from 0 to the cap (a ride's seat costs
 * at most `maxCost` exactly when its rounded-up rupees do), with the same recursive-CTE priority
 * queue as "Community rides only": it reads the page's rides and one more per rupee, however
 * many dearer rides the city has (ADR 0037).
 */
function cheapVisibleIds(
  viewerId: string | SQL,
  terms: ReturnType<typeof pathTerms>,
  dated: boolean,
  maxCost: number,
  limit: number,
  offset: number,
  sorted: boolean,
): SQL {
  const first = offset + limit;
  const { when, own, start, before, back, cmp, desc } = terms;
  // The viewer's communities' rides: on a date from rides_community_idx (that day's rides at
  // most); without one that could be every ride of theirs to the end, so only those at most
  // `maxCost` rupees a seat are read, from rides_seat_rupees_idx (the departure checked on the entry).
  const communities = dated
    ? communitySide(viewerId, "rides_community_idx", when, own, first, sql`pub`, back)
    : communitySide(
        viewerId,
        "rides_seat_rupees_idx",
        when,
        own,
        first,
        sql`pub`,
        back,
        sql`${SEAT_RUPEES} <= ${maxCost}`,
      );
  const next = (rupees: string, after: SQL) =>
    sql`(SELECT rowid FROM rides INDEXED BY rides_seat_rupees_idx WHERE community_id IS NULL AND status = 'active' AND ${SEAT_RUPEES} = ${sql.raw(rupees)}
          AND (departs_at, id) ${cmp} ${after} AND ${before} AND ${own} ORDER BY departs_at${desc}, id${desc} LIMIT 1)`;
  return sql`(WITH RECURSIVE arms(rupees) AS (SELECT 0 UNION ALL SELECT rupees + 1 FROM arms WHERE rupees < ${maxCost}),
      q(rupees, departs_at, id) AS (
        SELECT a.rupees, r.departs_at, r.id FROM arms a JOIN rides r ON r.rowid = ${next("a.rupees", sql`(${start.at}, ${start.id})`)}
        UNION ALL
        SELECT q.rupees, r.departs_at, r.id FROM q JOIN rides r ON r.rowid = ${next("q.rupees", sql`(q.departs_at, q.id)`)}
        ORDER BY 2${desc}, 3${desc} LIMIT ${first}),
      pub(id, departs_at) AS MATERIALIZED (SELECT id, departs_at FROM q)
    SELECT id, departs_at FROM (SELECT id, departs_at FROM pub UNION ALL ${communities})
    ${sorted ? sql`ORDER BY departs_at${desc}, id${desc} ` : sql``}LIMIT ${limit} OFFSET ${offset})`;
}

/**
 * "Community rides only": the viewer's communities' rides in (departs_at, id) order, merged by
 * SQLite itself. A recursive CTE with ORDER BY is a priority queue: it starts with each
 * community's first ride, and every ride it takes out brings in that community's next one (one
 * seek on rides_community_idx), so the page reads its own rides and one more a community,
 * however many rides other communities share. Rows before `offset` are taken out and dropped
 * (the CTE's OFFSET). Walking rides_discover_idx instead read past every other community's
 * rides, and an IN list on rides_community_idx would read all of the viewer's communities'
 * upcoming rides to sort them (ADR 0035). With a place text (`names`) each community's run
 * skips its rides elsewhere: what it reads is the viewer's own world, however busy the place
 * is with other communities' rides (ADR 0038).
 */
function communityMergeIds(
  viewerId: string | SQL,
  filters: SQL[],
  range: Range,
  limit: number,
  offset: number,
  names?: string[],
): SQL {
  const { start, before, own, cmp, desc } = pathTerms(viewerId, names ? [...filters, atPlace(names)] : filters, range);
  const next = (cid: string, after: SQL) =>
    sql`(SELECT rowid FROM rides INDEXED BY rides_community_idx WHERE community_id = ${sql.raw(cid)} AND status = 'active'
          AND (departs_at, id) ${cmp} ${after} AND ${before} AND ${own} ORDER BY departs_at${desc}, id${desc} LIMIT 1)`;
  return sql`(WITH RECURSIVE arms(cid) AS ${myCommunityIds(viewerId)},
      q(cid, departs_at, id) AS (
        SELECT a.cid, r.departs_at, r.id FROM arms a JOIN rides r ON r.rowid = ${next("a.cid", sql`(${start.at}, ${start.id})`)}
        UNION ALL
        SELECT q.cid, r.departs_at, r.id FROM q JOIN rides r ON r.rowid = ${next("q.cid", sql`(q.departs_at, q.id)`)}
        ORDER BY 2${desc}, 3${desc} LIMIT ${limit} OFFSET ${offset})
    SELECT id, departs_at FROM q)`;
}

/** The places a text matched, as a CTE `names(name)`: each name bound once, however often it is read. */
const namesCte = (names: string[]) =>
  sql`names(name) AS (VALUES ${sql.join(
    names.map((n) => sql`(${n})`),
    sql`, `,
  )})`;
/**
 * The place names as SQL string literals, for an IN list checked on every ride a seek reads: a list
 * read from the `names` CTE (or bound) is read again at every run of a correlated seek, up to 40 rows
 * a ride. Only names of PLACES (the app's own fixed list, never a user's text) are written.
 */
const placeLiterals = (names: string[]) =>
  sql.raw(
    names
      .filter((n) => placeByName(n))
      .map((n) => `'${n.replaceAll("'", "''")}'`)
      .join(", "),
  );
/** A ride from or to one of `names`. */
const atPlace = (names: string[]) =>
  sql`(from_location IN (${placeLiterals(names)}) OR to_location IN (${placeLiterals(names)}))`;

/** Discover's filters on the ride itself, whichever index path finds it. */
function rideFilters(viewerId: string | SQL, f: DiscoverFilters): SQL[] {
  return [
    ne(rides.driverId, viewerId),
    womenRuleAllows(viewerId),
    ...(f.women ? [womenTerm] : []),
    ...(f.maxCost !== null ? [maxCostTerm(f.maxCost)] : []),
  ];
}

/** The departure range Discover shows: from now (or the date's start) to the date's end. */
function discoverRange(f: DiscoverFilters, now: number): Range {
  return {
    from: f.date ? Math.max(now, istToInstant(f.date)) : now,
    until: f.date ? istToInstant(addDays(f.date, 1)) : null,
  };
}

/** The page's cursor: "Next page" (`after`) wins over "Previous page" (`before`, read backwards). */
function pageCursors(f: DiscoverFilters) {
  const after = parseCursor(f.after);
  return { after, before: after ? null : parseCursor(f.before) };
}

/** The filter's rupees a seat when it caps the cost (null: Any). */
const costCap = (f: DiscoverFilters) => f.maxCost ?? undefined;

/**
 * A place text ("koramangala"): the rides leaving from or going to any place whose name holds it,
 * in (departs_at, id) order, merged by SQLite from one run of rides_from_idx or rides_to_idx
 * (status, place, departs_at, id) per matching place and end, with the recursive-CTE priority
 * queue of communityMergeIds. Each arm starts from a sentinel row (`from`, or the page's cursor) so
 * its seek is written once; the sentinels come out first and the OFFSET drops them too. A ride whose both
 * ends match comes from its pickup's arm only. The page reads its own rides, one more an arm, and
 * the rides at those places it may not show (someone else's community, a dearer seat): the
 * place's rides, where walking rides_discover_idx read every upcoming ride of the city before a
 * page of a quiet place was full (ADR 0038).
 */
function placeMergeIds(
  viewerId: string | SQL,
  names: string[],
  filters: SQL[],
  range: Range,
  limit: number,
  offset: number,
): SQL {
  const { start, before, own, cmp, desc } = pathTerms(viewerId, filters, range);
  const next = (index: string, column: string, also: SQL) =>
    sql`(SELECT rowid FROM rides INDEXED BY ${sql.raw(index)} WHERE status = 'active' AND ${sql.raw(column)} = q.name
          AND (departs_at, id) ${cmp} (q.departs_at, q.id) AND ${before}${also}
          AND (community_id IS NULL OR ${isMember(viewerId)}) AND ${own} ORDER BY departs_at${desc}, id${desc} LIMIT 1)`;
  return sql`(WITH RECURSIVE ${namesCte(names)},
      q(side, name, departs_at, id) AS (
        SELECT s.side, n.name, ${start.at}, ${start.id} FROM names n CROSS JOIN (SELECT 0 AS side UNION ALL SELECT 1) s
        UNION ALL
        SELECT q.side, q.name, r.departs_at, r.id FROM q JOIN rides r ON r.rowid = CASE q.side
          WHEN 0 THEN ${next("rides_from_idx", "from_location", sql``)}
          ELSE ${next("rides_to_idx", "to_location", sql` AND from_location NOT IN (${placeLiterals(names)})`)} END
        ORDER BY 3${desc}, 4${desc} LIMIT ${limit} OFFSET ${offset + 2 * names.length})
    SELECT id, departs_at FROM q)`;
}

/**
 * The discover page query (exported so a test can EXPLAIN it). Every list reads only rides the
 * viewer may see, in (departs_at, id) order from index paths, and joins only the page's rows to
 * their cards: "Community rides only" (communityMergeIds, at the text's places if any), a place
 * text (placeMergeIds), or plain Discover (visibleIds; ADR 0035).
 */
export function discoverPageQuery(db: Db, viewerId: string | SQL, f: DiscoverFilters, now = Date.now()) {
  // "Next page" carries the last ride shown and "Previous page" the first (ADR 0038): the page
  // starts after, or is read backwards from, that ride instead of reading and dropping every
  // earlier page's rides (an OFFSET). A page number alone (a typed URL) still counts from the start.
  const { after, before } = pageCursors(f);
  const range = { ...discoverRange(f, now), after, before };
  const page = [
    rideFilters(viewerId, f),
    range,
    DISCOVER_PAGE_SIZE + 1,
    after || before ? 0 : (f.page - 1) * DISCOVER_PAGE_SIZE,
  ] as const;
  // Places come from a fixed list (the create form refuses others), so a text is exact on the
  // names it matches; no match means no ride, without touching D1's rows.
  const names = f.q ? placesMatching(f.q) : undefined;
  const vis =
    names && !names.length
      ? sql`(SELECT NULL AS id, NULL AS departs_at WHERE 0)`
      : f.community
        ? communityMergeIds(viewerId, ...page, names)
        : names
          ? placeMergeIds(viewerId, names, ...page)
          : visibleIds(viewerId, ...page, { maxCost: costCap(f), women: f.women });
  return discoverCards(db, viewerId, now, {}, sql`${vis} AS vis`)
    .where(sql`${rides.id} = vis.id`)
    .orderBy(sql`vis.departs_at`, sql`vis.id`);
}

/**
 * A distance-and-time search with its places resolved (app/schemas/ride-search.ts). With
 * `weekdays` (a bit set over strftime('%w')) it looks for regular commutes on those weekdays
 * instead of rides on `date`.
 */
export type NearSearch = {
  /** At most one end may be "Any metro station" (issue 36, item 4; ADR 0062). */
  from: PlaceRecord | typeof ANY_METRO;
  to: PlaceRecord | typeof ANY_METRO;
  date: string;
  time: string;
  radiusKm: number;
  windowMinutes: number;
  weekdays?: number;
  /** On weekdays, "and back" (ADR 0048): only commutes with a return leaving around this time. */
  returnTime?: string;
};

/** How many candidates a distance search ranks (the nearest in time first). */
export const NEAR_CANDIDATES = 200;
/**
 * On weekdays below WIDE_RADIUS_KM, in the corridor's order (its lattice of cells first): each
 * commute is reached through about 1.7 index rows of its route's cells where its one end's row
 * was read before, so fewer are ranked (ADR 0049, migration 0050).
 */
export const WEEKDAY_CANDIDATES = 160;
const candidateCap = (s: Pick<NearSearch, "weekdays">) => (s.weekdays ? WEEKDAY_CANDIDATES : NEAR_CANDIDATES);

/**
 * From this radius a search, on a date or weekdays, ranks its candidates by a score bound first
 * (ADR 0049, "the widest date search", "page 2 and the weekday search"): a 10 km circle's cells
 * hold thousands of corridor rows on the bench city, a 5 km one's about a quarter of them.
 */
export const WIDE_RADIUS_KM = 7.5;
/**
 * How many rides (or commutes) a wide search reads, those whose score bound is lowest, in
 * pages: a bound is looser than the score it bounds, and some read may not be the viewer's to
 * see. Page 1 reads WIDE_PAGES pages' worth, each further page WIDE_MORE_PAGES more (page 2
 * needs the best 20): search-rows.test.ts's dense day, where every bound allows a detour no
 * driver there takes, lost two rides of page 2 with 1.5 (ADR 0049, "page 2 and the weekday search").
 */
export const WIDE_PAGES = 3;
export const WIDE_MORE_PAGES = 2;
const wideCandidates = (s: Pick<NearSearch, "weekdays">, page = 1) =>
  nearPageSize(s.weekdays) * (WIDE_PAGES + WIDE_MORE_PAGES * (Math.max(1, page) - 1));
/** A search ranked by score bound (both ends places, radius from WIDE_RADIUS_KM), dated or weekly. */
const isWide = (s: NearSearch) => s.radiusKm >= WIDE_RADIUS_KM && s.from !== ANY_METRO && s.to !== ANY_METRO;

/**
 * The matching rule's search for a distance search (and a saved search's alert, which must
 * agree with it): the anchor is the end the search ranges its index on (searchSides).
 */
export const nearMatchSearch = (s: NearSearch, date = s.date): MatchSearch => ({
  from: s.from === ANY_METRO ? NO_POINT : s.from,
  to: s.to === ANY_METRO ? NO_POINT : s.to,
  departsAt: istToInstant(date, s.time),
  radiusKm: s.radiusKm,
  windowMinutes: s.windowMinutes,
  // Searches reach rides and commutes through the cells their routes pass (the corridor
  // indexes), so both places may lie anywhere along the route: no anchor.
  ...(metroEnd(s) ? { any: { end: metroEnd(s)!, points: METRO_STATIONS } } : {}),
});

// The "any station" end's own point: never read (MatchSearch.any names that end's points).
const NO_POINT = { lat: Number.NaN, lng: Number.NaN };
/** The end of a search that is "Any metro station", if one is. */
export const metroEnd = (s: Pick<NearSearch, "from" | "to">) =>
  s.from === ANY_METRO ? "from" : s.to === ANY_METRO ? "to" : null;

/** A ride or commute row as the matching rule reads it: its route and its driver's detour limit. */
export function routeOf(r: {
  fromLat: number | null;
  fromLng: number | null;
  toLat: number | null;
  toLng: number | null;
  viaPlaceIds: string | null;
  maxDetourMinutes: number | null;
}) {
  return {
    from: { lat: r.fromLat ?? NaN, lng: r.fromLng ?? NaN },
    to: { lat: r.toLat ?? NaN, lng: r.toLng ?? NaN },
    vias: viaPlaces(r.viaPlaceIds),
    maxDetourMinutes: r.maxDetourMinutes ?? 0,
  };
}

/** "HH:MM" a number of minutes from `time`, kept within the day. */
const shiftTime = (time: string, minutes: number) => {
  const [h, m] = time.split(":").map(Number);
  const t = Math.min(23 * 60 + 59, Math.max(0, h * 60 + m + minutes));
  return `${String(Math.floor(t / 60)).padStart(2, "0")}:${String(t % 60).padStart(2, "0")}`;
};

/**
 * Where a distance search ranges its index (ADR 0030). Each end is a list of the grid cells
 * its circle reaches, inlined as integer literals (a 10 km radius reaches about 80 cells, near
 * the 100 parameters D1 binds). One end is ranged on its cell index, cell by cell; the other
 * end's circle and the route's box only filter. The ranged end is the one whose circle
 * holds fewer places of the place list: rides start and end where places
 * are, so the sparser end reads fewer rows (HSR Layout has 96 places within 10 km, Whitefield
 * 41). A tie ranges the pickup end.
 */
type SearchSides = {
  ranged: "from" | "to";
  rangedCellRows: SQL;
  /** Both places near the ride's same end or within the radius of its route box (the corridor's prefilter). */
  alongRoute: SQL;
};

// Every distance search asks this of both its ends, and the answer for a place and a radius
// never changes: counted once per isolate (455 distances each), not per request. The radius
// is free within its bounds, so the memo is capped rather than grown without end.
const placesWithinMemo = new Map<string, number>();
const placesWithin = (p: PlaceRecord, km: number) => {
  const key = `${p.id}:${km}`;
  let n = placesWithinMemo.get(key);
  if (n === undefined) {
    n = PLACES.reduce((sum, q) => sum + (straightLineKm(p, q) <= km ? 1 : 0), 0);
    if (placesWithinMemo.size >= 5_000) placesWithinMemo.clear();
    placesWithinMemo.set(key, n);
  }
  return n;
};
const KM_PER_DEG = (Math.PI * 6371) / 180;

/**
 * A point within `km` of `p` as plain arithmetic (D1 may lack SQL math functions): a flat
 * circle in degrees, 1% wider than the haversine circle rankMatches measures, so it drops only
 * rides rankMatches would drop, before they are looked up, joined and sorted. Literals only.
 */
function nearPointSql(table: "rides" | "c" | "r", end: "from" | "to", p: PlaceRecord, km: number): SQL {
  const k = Math.cos((p.lat * Math.PI) / 180);
  const r = (km * 1.01) / KM_PER_DEG;
  const lat = `${table}.${end}_lat`;
  const lng = `${table}.${end}_lng`;
  return sql.raw(
    `((${lat} - ${p.lat}) * (${lat} - ${p.lat}) + (${lng} - ${p.lng}) * (${lng} - ${p.lng}) * ${k * k} <= ${r * r})`,
  );
}

/** The end a distance search ranges its index on: the one with fewer places within the radius. */
export const anchorOf = ({ from, to, radiusKm }: Pick<NearSearch, "from" | "to" | "radiusKm">) => {
  // "Any metro station" has no cells: the place at the other end is the anchor.
  if (from === ANY_METRO) return "to";
  if (to === ANY_METRO) return "from";
  return placesWithin(to, radiusKm) < placesWithin(from, radiusKm) ? "to" : "from";
};

/**
 * A point within `km` of the box around a route (issue 36): a flat box in degrees, 1% wider,
 * holding every point within `km` of the route's line, so it drops only rides the rule drops.
 * Rows without a box (no points) never pass it. Literals only.
 */
function nearRouteSql(table: "rides" | "c" | "rc", p: { lat: number; lng: number }, km: number): SQL {
  const dLat = (km * 1.01) / KM_PER_DEG;
  const dLng = (km * 1.01) / (KM_PER_DEG * Math.cos(((Math.abs(p.lat) + dLat) * Math.PI) / 180));
  return sql.raw(
    `(${table}.route_south <= ${p.lat + dLat} AND ${table}.route_north >= ${p.lat - dLat} AND ${table}.route_west <= ${p.lng + dLng} AND ${table}.route_east >= ${p.lng - dLng})`,
  );
}

function searchSides(s: NearSearch): SearchSides {
  const cells = (p: PlaceRecord) => cellsWithin(p.lat, p.lng, s.radiusKm).map((c) => String(Math.trunc(c)));
  const ranged = anchorOf(s);
  // anchorOf never ranges an "Any metro station" end.
  const rangedPlace = (ranged === "from" ? s.from : s.to) as PlaceRecord;
  return {
    ranged,
    rangedCellRows: sql.raw(
      cells(rangedPlace)
        .map((c) => `(${c})`)
        .join(", "),
    ),
    // The old rule's rows pass without a route box (rows older than migration 0034); "any
    // station": some station near the route's box.
    alongRoute: sql`${endAlongRoute("from", s.from, s.radiusKm)} AND ${endAlongRoute("to", s.to, s.radiusKm)}`,
  };
}

/** One end of a date search near the ride's same end or within the radius of its route box. */
const endAlongRoute = (side: "from" | "to", end: NearSearch["from"], km: number): SQL =>
  end === ANY_METRO
    ? nearAnyStationSql("rides", km)
    : sql`(${nearPointSql("rides", side, end, km)} OR ${nearRouteSql("rides", end, km)})`;

/** The route box's prefilter of one end, read from the corridor index's own columns. */
const boxNear = (end: NearSearch["from"], km: number): SQL =>
  end === ANY_METRO ? nearAnyStationSql("rc", km) : nearRouteSql("rc", end, km);

/**
 * Some metro station within `km` of the route's box (nearRouteSql, one term a station). SQLite
 * caps an expression's depth at 100, and a chain of 83 ORs is 83 deep: the terms are paired
 * into a balanced tree (7 deep).
 */
const nearAnyStationSql = (table: "rides" | "c" | "rc", km: number): SQL => {
  const balanced = (terms: SQL[]): SQL =>
    terms.length === 1
      ? terms[0]
      : sql`(${balanced(terms.slice(0, terms.length >> 1))} OR ${balanced(terms.slice(terms.length >> 1))})`;
  return balanced(METRO_STATIONS.map((st) => nearRouteSql(table, st, km)));
};

/**
 * A search on weekdays looks for regular commutes, not every one-off ride of the next two
 * weeks (ADR 0028: the widest such scan read ~6,800 rows of the city dataset). Active
 * commutes are reached through the cells their routes pass (commute_route_cells, migration
 * 0050), as a date search reaches rides: once per cell of the sparser end's circle, a pickup's
 * cells by the minute of the day the driver passes them (the window widened by
 * PASS_SLACK_MINUTES), a drop's by the commute's time (the window plus PICKUP_LEAD_MINUTES;
 * a commute without route cells by its end's negated cell, picked up at its start, as on
 * rides). The index holds the route's box, the weekdays and the community, so a commute
 * passing nowhere near the other place, on none of the weekdays or that the viewer may not
 * see is left out without reading it. Each commute, once, then brings its next open occurrence on one of the
 * wanted weekdays as the row's ride (rides_commute_next_idx, from the index alone); the outer
 * query applies the full rule. A window does not wrap past midnight.
 */
function commuteCorridor(
  s: NearSearch,
  weekdays: number,
  sides: SearchSides,
  viewerId: string,
  communityOnly: boolean,
) {
  return sql`(${commuteCorridorIds(s, weekdays, sides, viewerId, communityOnly)}) AS corridor`;
}

/** commuteCorridor's commute ids, each once. */
function commuteCorridorIds(
  s: NearSearch,
  weekdays: number,
  sides: SearchSides,
  viewerId: string,
  communityOnly: boolean,
) {
  const communities = myCommunityIds(viewerId);
  const keep = sql`${boxNear(s.from, s.radiusKm)} AND ${boxNear(s.to, s.radiusKm)} AND (rc.weekdays & ${weekdays}) <> 0
    AND ${communityOnly ? sql`rc.community_id IN ${communities}` : sql`(rc.community_id IS NULL OR rc.community_id IN ${communities})`}`;
  const [h, m] = s.time.split(":").map(Number);
  const [from, until] = [h * 60 + m - s.windowMinutes, h * 60 + m + s.windowMinutes];
  const cells = sql`(VALUES ${latticeFirst(s, sides)}) AS cells`;
  if (sides.ranged === "from")
    return sql`SELECT DISTINCT rc.commute_id AS id FROM ${cells}
      CROSS JOIN commute_route_cells rc INDEXED BY commute_route_cells_pass_idx
      WHERE rc.cell = cells.column1 AND rc.passes_minute BETWEEN ${from - PASS_SLACK_MINUTES} AND ${until + 1} AND ${keep}`;
  // A commute without route cells has its end's cell negated: picked up at its start, so at
  // most DETOUR_LATE_MINUTES after it leaves, not PICKUP_LEAD_MINUTES (as on rides).
  return sql`SELECT DISTINCT rc.commute_id AS id FROM ${cells}
    CROSS JOIN commute_route_cells rc INDEXED BY commute_route_cells_drop_idx
    WHERE ((rc.cell = cells.column1 AND rc.departs_minute BETWEEN ${from - PICKUP_LEAD_MINUTES} AND ${until})
        OR (rc.cell = -cells.column1 AND rc.departs_minute BETWEEN ${from - DETOUR_LATE_MINUTES - 1} AND ${until}))
      AND ${keep}`;
}

/**
 * The ranged end's cells, every third row and column first: a route crossing the circle
 * meets one of those before its neighbours' rows repeat it, so a page that reaches the
 * candidate cap reads fewer index rows (bench city: 345 instead of 501 for 200 commutes).
 */
function latticeFirst(s: NearSearch, sides: SearchSides): SQL {
  const p = (sides.ranged === "from" ? s.from : s.to) as PlaceRecord;
  const apart = (c: number) => (Math.floor(c / CELL_ROW) % 3 === 0 && c % 3 === 0 ? 0 : 1);
  const cells = cellsWithin(p.lat, p.lng, s.radiusKm).map(Math.trunc);
  return sql.raw(
    cells
      .sort((x, y) => apart(x) - apart(y) || x - y)
      .map((c) => `(${c})`)
      .join(", "),
  );
}

/** The next open occurrence of the commute `corridor.id` on one of `weekdays`. */
const nextOccurrence = (weekdays: number, now: number, today: string) =>
  sql`${rides.id} = (SELECT r.id FROM rides r INDEXED BY rides_commute_next_idx
    WHERE r.commute_id = corridor.id AND r.date >= ${today} AND r.status = 'active' AND r.departs_at >= ${now}
      AND (${weekdays} >> CAST(strftime('%w', r.date) AS INTEGER)) & 1
    ORDER BY r.date LIMIT 1)`;

/** The commute `corridor.id` has an active return leaving within the window of `time` (commutes_return_of_unique). */
const hasReturnAround = (time: string, windowMinutes: number) =>
  sql`EXISTS (SELECT 1 FROM commutes back WHERE back.return_of = corridor.id AND back.status = 'active'
    AND back.time BETWEEN ${shiftTime(time, -windowMinutes)} AND ${shiftTime(time, windowMinutes)})`;

/**
 * The candidates of a distance search (exported so a test can EXPLAIN it): active rides the
 * viewer may see whose route passes within the radius of `from` and `to`, in the window. On a
 * date, ride_route_cells_pass_idx (cell, passes_at) or ride_route_cells_drop_idx (cell,
 * departs_at) is ranged once per cell of one end (`searchSides`); on weekdays
 * commutes_from_cell_idx or commutes_to_cell_idx. The exact distances are measured afterwards.
 */
export function nearPageQuery(db: Db, viewerId: string, s: NearSearch, f: NearFilters, now = Date.now()) {
  return nearPageStatement(db, nearValues(viewerId, s, now), s, f);
}

type NearFilters = Pick<DiscoverFilters, "maxCost" | "community"> & Partial<Pick<DiscoverFilters, "page">>;

/**
 * What a distance search's statement takes from the request rather than from the search: the
 * viewer, the clock and the bounds the clock moves (each window's start is now at the latest).
 * Worked out here, outside the statement, so that one search's text is the same for every
 * viewer at every instant and can be built once (builtOnce, ADR 0068).
 */
type NearValues = {
  viewerId: string;
  now: number;
  today: string;
  /** A pickup along the route is up to PICKUP_LEAD_MINUTES after the ride leaves. */
  earliest: number;
  /** A pickup cell's pass, the window widened by PASS_SLACK_MINUTES. */
  passFrom: number;
  /** A ride without route cells, picked up at its start: DETOUR_LATE_MINUTES after it leaves at most. */
  endsFrom: number;
};

function nearValues(viewerId: string, s: NearSearch, now: number): NearValues {
  const at = nearMatchSearch(s).departsAt;
  const after = (minutes: number) => Math.max(now, at - minutes * 60_000);
  return {
    viewerId,
    now,
    today: istDate(now),
    earliest: after(s.windowMinutes + PICKUP_LEAD_MINUTES),
    passFrom: after(s.windowMinutes + PASS_SLACK_MINUTES),
    endsFrom: after(s.windowMinutes + DETOUR_LATE_MINUTES + 1),
  };
}

/** nearPageQuery's statement, every request-bound value from `v` (nearValues). */
function nearPageStatement(db: Db, v: NearValues, s: NearSearch, f: NearFilters) {
  const { viewerId, now, earliest } = v;
  const m = nearMatchSearch(s);
  const sides = searchSides(s);
  const at = m.departsAt;
  // The cells are a VALUES list joined to the index: one seek a cell, where an IN list also
  // steps through its own temporary table (a row read a cell, ADR 0030).
  const cells = sql`(VALUES ${sides.rangedCellRows}) AS cells`;
  const latest = at + s.windowMinutes * 60_000;
  // On a date, the corridor index (ADR 0049): every ride whose route passes a cell of the
  // sparser end's circle, each once, then the ride by its id, so a pickup and a drop both
  // mid-route are reached. A pickup's cells are ranged by the time the driver passes them
  // (the window, widened by PASS_SLACK_MINUTES), a drop's by the departure; the route's box,
  // in the index, leaves out rides passing nowhere near the other place before they are read.
  // Each ride once, or (`nearest`) the wideCandidates nearest in time, where a wide search
  // fills up with rides passing mid-route.
  const corridorIds = (nearest = false) => {
    const box = sql`${boxNear(s.from, s.radiusKm)} AND ${boxNear(s.to, s.radiusKm)}`;
    const [select, time] = nearest
      ? [sql`SELECT`, sql.raw(sides.ranged === "from" ? "rc.passes_at" : "rc.departs_at")]
      : [sql`SELECT DISTINCT`, null];
    const order = time
      ? sql` GROUP BY rc.ride_id ORDER BY min(abs(${time} - ${at})), rc.ride_id LIMIT ${wideCandidates(s, f.page)}`
      : sql``;
    if (sides.ranged === "from") {
      return sql`${select} rc.ride_id AS id FROM ${cells}
        CROSS JOIN ride_route_cells rc INDEXED BY ride_route_cells_pass_idx
        WHERE rc.cell = cells.column1 AND rc.passes_at BETWEEN ${v.passFrom} AND ${latest + 60_000} AND ${box}${order}`;
    }
    // A ride without route cells has its end's cell negated: picked up at its start, so at
    // most DETOUR_LATE_MINUTES after it leaves, not PICKUP_LEAD_MINUTES.
    return sql`${select} rc.ride_id AS id FROM ${cells}
      CROSS JOIN ride_route_cells rc INDEXED BY ride_route_cells_drop_idx
      WHERE ((rc.cell = cells.column1 AND rc.departs_at BETWEEN ${earliest} AND ${latest})
          OR (rc.cell = -cells.column1 AND rc.departs_at BETWEEN ${v.endsFrom} AND ${latest}))
        AND ${box}${order}`;
  };
  const corridor = () => sql`(${corridorIds()}) AS corridor`;
  // A wide search (ADR 0049, "the widest date search"): the rides whose ranged end lies in its
  // circle, ranked by their score bound from rides_{end}_cell_idx alone, the lowest
  // wideCandidates read. Rides passing mid-route (nearest in time) fill up only when fewer end
  // there: the compound's LIMIT stops before the corridor is read otherwise.
  const wide = () => {
    const end = sides.ranged;
    const place = (end === "from" ? s.from : s.to) as PlaceRecord;
    const search = { ...m, from: s.from as PlaceRecord, to: s.to as PlaceRecord };
    const ends = sql`SELECT id, ${scoreBound(search)} AS bound, dep FROM (SELECT r.id AS id, ${scoreBoundColumns("r", search)}
      FROM ${cells} CROSS JOIN rides r INDEXED BY ${sql.raw(`rides_${end}_cell_idx`)}
      WHERE ${sql.raw(`r.${end}_cell`)} = cells.column1 AND r.status = 'active'
        AND r.departs_at BETWEEN ${earliest} AND ${latest} AND ${nearPointSql("r", end, place, s.radiusKm)})`;
    // Ties in the bound go as the page breaks ties in the score: earlier departure, then id.
    // "LIMIT -1" keeps the sort in SQLite's sorter, which D1 counts by the rows taken out of it
    // (the compound's LIMIT): "LIMIT n" there keeps the n best in a temporary index, and every
    // ride put in it is a row read (244 for 80 on the bench city).
    return sql`(SELECT DISTINCT id FROM (
      SELECT id FROM (SELECT id, bound, dep FROM (${ends}) WHERE bound < ${NO_MATCH_BOUND} ORDER BY bound, dep, id LIMIT -1)
      UNION ALL SELECT id FROM (${corridorIds(true)})
      LIMIT ${wideCandidates(s, f.page)})) AS corridor`;
  };
  // The same on weekdays (ADR 0049, "the widest weekday search"): the commutes ending in the
  // circle on a wanted weekday that the viewer may see, by their bound from
  // commutes_{end}_cell_idx alone (minutes off from the commute's time of day), the corridor's
  // commutes filling up; each then brings its next open day (nextOccurrence).
  const wideWeekdays = (weekdays: number) => {
    const end = sides.ranged;
    const place = (end === "from" ? s.from : s.to) as PlaceRecord;
    const search = { ...m, from: s.from as PlaceRecord, to: s.to as PlaceRecord };
    const [h, mm] = s.time.split(":").map(Number);
    // Minutes off as on every day of the commute: its "HH:MM" against the wanted time.
    const minutes = "CAST(substr(c.time, 1, 2) AS INTEGER) * 60 + CAST(substr(c.time, 4, 2) AS INTEGER)";
    const dep = `(${minutes} - ${h * 60 + mm})`;
    const communities = myCommunityIds(viewerId);
    const ends = sql`SELECT id, ${scoreBound(search)} AS bound, dep FROM (SELECT c.id AS id, ${scoreBoundColumns("c", search, dep)}
      FROM ${cells} CROSS JOIN commutes c INDEXED BY ${sql.raw(`commutes_${end}_cell_idx`)}
      WHERE ${sql.raw(`c.${end}_cell`)} = cells.column1 AND c.status = 'active'
        AND c.time BETWEEN ${shiftTime(s.time, -(s.windowMinutes + PICKUP_LEAD_MINUTES))} AND ${shiftTime(s.time, s.windowMinutes)}
        AND (c.weekdays & ${weekdays}) <> 0
        AND ${f.community ? sql`c.community_id IN ${communities}` : sql`(c.community_id IS NULL OR c.community_id IN ${communities})`}
        AND ${nearPointSql("c", end, place, s.radiusKm)})`;
    return sql`(SELECT DISTINCT id FROM (
      SELECT id FROM (SELECT id, bound, dep FROM (${ends}) WHERE bound < ${NO_MATCH_BOUND} ORDER BY bound, dep, id LIMIT -1)
      UNION ALL SELECT id FROM (${commuteCorridorIds(s, weekdays, sides, viewerId, Boolean(f.community))})
      LIMIT ${wideCandidates(s, f.page)})) AS corridor`;
  };
  const source = s.weekdays
    ? isWide(s)
      ? wideWeekdays(s.weekdays)
      : commuteCorridor(s, s.weekdays, sides, viewerId, Boolean(f.community))
    : isWide(s)
      ? wide()
      : corridor();
  const byDeparture: SQL[] = s.weekdays
    ? [
        nextOccurrence(s.weekdays, now, v.today),
        ...(s.returnTime ? [hasReturnAround(s.returnTime, s.windowMinutes)] : []),
        sql`+${rides.status} = 'active'`,
      ]
    : [
        sql`${rides.id} = corridor.id`,
        sql`+${rides.status} = 'active'`,
        sql`+${rides.departsAt} BETWEEN ${earliest} AND ${latest}`,
      ];
  const where: SQL[] = [
    ...byDeparture,
    sides.alongRoute,
    ne(rides.driverId, viewerId),
    // "Community rides only" is narrower than visibleRideCondition, but a blocked pair still
    // do not see each other's rides (as discoverWhere).
    ...(f.community
      ? [
          sql`${rides.communityId} IN ${myCommunityIds(viewerId)}`,
          sql`NOT ${blockedEitherWay(viewerId, sql`${rides.driverId}`)}`,
        ]
      : [maySeeRide(viewerId)]),
    // As Discover's lists: no ride the women-only rule keeps from the viewer (it was shown, with Book Now).
    womenRuleAllows(viewerId),
  ];
  if (f.maxCost !== null) where.push(maxCostTerm(f.maxCost));
  const candidates = discoverCards(
    db,
    viewerId,
    now,
    {
      fromLat: rides.fromLat,
      fromLng: rides.fromLng,
      toLat: rides.toLat,
      toLng: rides.toLng,
      viaPlaceIds: rides.viaPlaceIds,
      maxDetourMinutes: userProfiles.maxDetourMinutes,
    },
    source,
    isWide(s) ? and(...where) : undefined,
  )
    .where(isWide(s) ? undefined : and(...where))
    .$dynamic();
  // On a date the candidates are the nearest in time (minutes off is half the score). On
  // weekdays an occurrence's minutes off is its commute's, whatever the day, so the soonest
  // were no better a cut than the index's order, and sorting them cost a row each (ADR 0030).
  // Rides whose both ends are near the rider's (the old rule's matches) come first, so rides
  // that may match only along their route never push them past the cut (ADR 0049).
  // "Any metro station" has no point to be near: its candidates are the nearest in time.
  const bothEnds =
    s.from === ANY_METRO || s.to === ANY_METRO
      ? sql`1`
      : sql`${nearPointSql("rides", "from", s.from, s.radiusKm)} AND ${nearPointSql("rides", "to", s.to, s.radiusKm)}`;
  return (
    s.weekdays || isWide(s)
      ? candidates
      : candidates.orderBy(sql`NOT (${bothEnds})`, sql`abs(${rides.departsAt} - ${m.departsAt})`, asc(rides.id))
  ).limit(candidateCap(s));
}

/** "100+ rides found": counting every match would read every upcoming ride. */
export const FOUND_CAP = 100;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const IST_OFFSET = 19_800_000;

/**
 * Discover Rides: one page of upcoming rides, the (capped) filtered count and the city-wide
 * banner stats, in one round trip. The stats add the per-day totals kept by triggers
 * (ride_day_stats) for the days after today, the per-hour totals (ride_hour_stats) for
 * the rest of today, and an exact count of this hour's remaining rides: about a hundred
 * rows however many rides are upcoming. They cover public rides only (the triggers skip
 * community rides), so the banner never counts rides a viewer may not see.
 */
export async function discoverRides(
  { db }: ModelCtx,
  viewerId: string,
  f: DiscoverFilters,
  now = Date.now(),
  near?: NearSearch,
  also: readonly (AlsoReads[number] | Read)[] = [],
) {
  // `also`: the page's other reads (the viewer's saved searches), in the same round trip; a
  // Read is already built (builtOnce), a query is built here.
  const nearPage = near ? nearPageRead(db, viewerId, near, f, now) : undefined;
  const reads = discoverReads(db, { userId: viewerId }, f, now, nearPage);
  const alsoReads = also.map((q) => ("statement" in q ? (q as Read) : readOf(db, q as unknown as Preparable)));
  const rows = await runReads(db, [...reads, ...alsoReads]);
  return {
    ...discoverFrom(rows.slice(0, reads.length) as unknown as DiscoverRows, f, now, near),
    also: rows.slice(reads.length),
  };
}

/**
 * How many distance searches keep their statement built (ADR 0068): a search's text holds its
 * places, radius, day and time, so the keys are many; the latest few are the ones asked again
 * (the same search's next page, a return to its results, a corridor many riders search).
 */
export const NEAR_SHAPES_KEPT = 64;
const nearKeys = new Set<string>();

/** What shapes a distance search's text: everything of the search and its filters but the viewer and the clock. */
export const nearShapeKey = (s: NearSearch, f: NearFilters) =>
  `near:${[
    typeof s.from === "string" ? s.from : s.from.id,
    typeof s.to === "string" ? s.to : s.to.id,
    s.date,
    s.time,
    s.radiusKm,
    s.windowMinutes,
    s.weekdays ?? "",
    s.returnTime ?? "",
    f.maxCost ?? "",
    f.community ? 1 : 0,
    f.page ?? 1,
  ].join("|")}`;

/**
 * A distance search's page read: its statement built once per search (about 15 KB of SQL from
 * a few hundred drizzle chunks on the widest), each request binding its own viewer and clock.
 */
function nearPageRead(db: Db, viewerId: string, s: NearSearch, f: NearFilters, now: number) {
  const key = nearShapeKey(s, f);
  // Oldest first out: a Set iterates in insertion order, and a key asked again moves to the end.
  nearKeys.delete(key);
  nearKeys.add(key);
  if (nearKeys.size > NEAR_SHAPES_KEPT) {
    const oldest = nearKeys.values().next().value as string;
    nearKeys.delete(oldest);
    forgetBuiltStatement(oldest);
  }
  return builtOnce(db, key, nearValues(viewerId, s, now), (v) => nearPageStatement(db, v, s, f));
}

/**
 * Discover's list reads (not a distance search's, whose page is nearPageQuery): its page, the
 * count and the banner's three totals. The first page's statements without a text, date or
 * cursor (the page everyone opens, and its few fixed filters: a cost cap, "Community rides
 * only", women-only seats; ADR 0063, 0068) are built once per isolate, for a user or for a
 * session's owner, so they can ride in the session's round trip (auth.server.ts). A text, a
 * date and a cursor make keys without end, and a date's range is computed from the clock.
 * `nearPage`: a distance search's page instead, which counts itself.
 */
export function discoverReads(db: Db, viewer: Viewer, f: DiscoverFilters, now: number, nearPage?: Read<NearRow[]>) {
  // Buckets are IST hours and days (departs_at shifted by +5:30), so hours nest in days.
  const nextHour = Math.floor((now + IST_OFFSET) / HOUR) + 1;
  const tomorrow = Math.floor((now + IST_OFFSET) / DAY) + 1;
  const firstHourOfTomorrow = tomorrow * 24;
  // A text, "Community rides only" or a cost cap counts only its page (below).
  const pageOnly = Boolean(f.q || f.community || costCap(f) !== undefined);
  // A cost cap of the form's own choices only (₹10 steps): a typed URL's any rupee is built per call.
  const formCap = f.maxCost === null || f.maxCost % MAX_COST_CHOICES.step === 0;
  const fixed = !f.q && !f.date && !f.after && !f.before && f.page === 1 && formCap;
  const values = { ...viewerValues(viewer), now };
  // The filters are in the key: every one of them but the viewer and the clock shapes the text.
  const key = `${viewerKind(viewer)}:${JSON.stringify(f)}`;
  const viewerRead = <Q extends Preparable>(part: string, make: (viewerId: string | SQL, now: number) => Q) =>
    fixed
      ? builtOnce(db, `discover:${part}:${key}`, values, (v) => make(viewerSql(v), v.now))
      : readOf(db, make(viewerSql(values), now));
  const totals = (t: typeof rideHourStats | typeof rideDayStats) => ({
    rides: sql<number>`coalesce(sum(${t.rides}), 0)`.mapWith(Number),
    seatsOpen: sql<number>`coalesce(sum(${t.seats} - ${t.bookedSeats}), 0)`.mapWith(Number),
    bookedSeats: sql<number>`coalesce(sum(${t.bookedSeats}), 0)`.mapWith(Number),
  });
  return [
    nearPage ?? viewerRead("page", (viewerId, at) => discoverPageQuery(db, viewerId, f, at)),
    // A text search, "Community rides only" and a cost cap count only their page ("25+ rides
    // found"): counting every match of a popular place, or a hundred rides of a viewer's few
    // communities among all upcoming rides, would walk thousands of rides, and counting a
    // hundred cheap rides read 678 rows of the bench's large city (ADR 0037).
    // Those pages, and a distance search (which ranks its candidates itself), never read
    // the count: it is a no-op lookup by id (a capped count still read 583 rows of the
    // bench's place search, ADR 0030).
    nearPage || pageOnly
      ? builtOnce(db, "discover:no-count", {}, () =>
          cappedCount(db, countable(db).from(rides).where(eq(rides.id, "")), 0),
        )
      : viewerRead("count", (viewerId, at) =>
          db
            .select({ n: count() })
            .from(
              sql`${visibleIds(viewerId, rideFilters(viewerId, f), discoverRange(f, at), FOUND_CAP + 1, 0, { sorted: false, maxCost: costCap(f), women: f.women })} AS capped`,
            ),
        ),
    builtOnce(db, "discover:later-days", { tomorrow }, (v) =>
      db.select(totals(rideDayStats)).from(rideDayStats).where(gte(rideDayStats.day, v.tomorrow)),
    ),
    builtOnce(db, "discover:later-today", { nextHour, firstHourOfTomorrow }, (v) =>
      db
        .select(totals(rideHourStats))
        .from(rideHourStats)
        .where(and(gte(rideHourStats.hour, v.nextHour), lt(rideHourStats.hour, v.firstHourOfTomorrow))),
    ),
    builtOnce(db, "discover:this-hour", { now, hourEnd: nextHour * HOUR - IST_OFFSET }, (v) =>
      db
        .select({
          rides: count(),
          seatsOpen: sql<number>`coalesce(sum(${rides.seats} - ${rides.bookedSeats}), 0)`.mapWith(Number),
          bookedSeats: sql<number>`coalesce(sum(${rides.bookedSeats}), 0)`.mapWith(Number),
        })
        .from(rides)
        .where(
          and(
            isNull(rides.communityId),
            eq(rides.status, "active"),
            gte(rides.departsAt, v.now),
            lt(rides.departsAt, v.hourEnd),
          ),
        ),
    ),
  ] as const;
}

type DiscoverRows = ReadResults<ReturnType<typeof discoverReads>>;

/** Discover's page, count and banner, from the rows of discoverReads (or a distance search's). */
export function discoverFrom(
  [page, found, laterDays, laterToday, thisHour]: DiscoverRows,
  f: DiscoverFilters,
  now: number,
  near?: NearSearch,
) {
  const pageOnly = Boolean(f.q || f.community || costCap(f) !== undefined);
  const zero = { rides: 0, seatsOpen: 0, bookedSeats: 0 };
  const parts = [laterDays[0] ?? zero, laterToday[0] ?? zero, thisHour[0] ?? zero];
  const sum = (k: keyof typeof zero) => parts.reduce((n, p) => n + p[k], 0);
  const stats = { rides: sum("rides"), seatsOpen: sum("seatsOpen"), bookedSeats: sum("bookedSeats") };
  if (near) {
    // Ranked by walking distance plus minutes off (app/domain/ride-match.ts), every candidate,
    // then paged. On weekdays each ride is measured against the wanted time on its own day.
    // A wide search's rides the viewer may not see (or that fail the filters) are rows without a
    // ride: counted as candidates read, never shown.
    // Ranked as small records (a row's route and the row itself), and only the shown page's
    // cards built: a wide search ranks up to 50 rows of 30 columns to show 10 (ADR 0068).
    const rows = (page as NearRow[])
      .filter((r) => r.id !== null)
      .map((row) => ({ id: row.id as string, departsAt: row.departsAt, date: row.date, row, ...routeOf(row) }));
    const byDay = near.weekdays
      ? [...new Set(rows.map((r) => r.date))].map((d) =>
          rankMatches(
            nearMatchSearch(near, d),
            rows.filter((r) => r.date === d),
          ),
        )
      : [rankMatches(nearMatchSearch(near), rows)];
    const ranked = byDay
      .flat()
      .sort((a, b) => a.match.score - b.match.score || a.departsAt - b.departsAt || a.id.localeCompare(b.id));
    const size = nearPageSize(near.weekdays);
    const start = (f.page - 1) * size;
    // The points stay: a search result's card draws its small route map (issue 36).
    const shown = ranked.slice(start, start + size).map(({ row: { maxDetourMinutes: _m, ...r }, vias, match }) => ({
      ...withFairSeat({ ...r, vias: vias.map((v) => v.name) }),
      match: shownMatch(match),
    }));
    // Every match is counted; past the candidate cap there may be more than were ranked.
    return {
      rides: shown as (ReturnType<typeof withFairSeat<DiscoverRow>> & { match?: ShownMatch; vias?: string[] })[],
      hasMore: ranked.length > start + size,
      nextAfter: null,
      prevBefore: null,
      reachedStart: false,
      found: ranked.length,
      foundMore: page.length >= (isWide(near) ? wideCandidates(near, f.page) : candidateCap(near)),
      stats,
    };
  }
  // Read backwards ("Previous page"), the page holds the rides just before its cursor: the latest
  // DISCOVER_PAGE_SIZE of them; the cursor's own ride follows it.
  const back = Boolean(pageCursors(f).before);
  // Backwards, the cursor's ride follows the page (if the page found any ride); a page that found
  // DISCOVER_PAGE_SIZE or fewer has reached the first ride, and is page 1 whatever its number.
  const hasMore = back ? page.length > 0 : page.length > DISCOVER_PAGE_SIZE;
  const reachedStart = back && page.length <= DISCOVER_PAGE_SIZE;
  // A page past the last (a typed or stale link) found none: it says so, not "40 rides found".
  // A backwards page that reached the first ride is page 1, whatever its number says.
  const earlier = reachedStart ? 0 : (f.page - 1) * DISCOVER_PAGE_SIZE;
  const shown = page.length === 0 ? 0 : earlier + Math.min(page.length, DISCOVER_PAGE_SIZE);
  const n = pageOnly ? shown : Math.min(found[0]?.n ?? 0, FOUND_CAP);
  // The browse list draws no maps: its points go, to keep the page small.
  const rows = (back ? page.slice(-DISCOVER_PAGE_SIZE) : page.slice(0, DISCOVER_PAGE_SIZE)).map(
    withFairSeatOnly,
  ) as (ReturnType<typeof withFairSeatOnly<DiscoverRow>> & { match?: Match; vias?: string[] })[];
  const first = rows[0];
  const last = rows[rows.length - 1];
  return {
    rides: rows,
    hasMore,
    // "Next page" starts after the last ride shown, "Previous page" ends before the first (ADR 0038).
    nextAfter: hasMore && last ? cursorParam(last.departsAt, last.id) : null,
    prevBefore: first && !reachedStart ? cursorParam(first.departsAt, first.id) : null,
    reachedStart,
    found: n,
    foundMore: pageOnly ? hasMore : (found[0]?.n ?? 0) > FOUND_CAP,
    stats,
  };
}

type NearRow = Awaited<ReturnType<ReturnType<typeof nearPageQuery>["all"]>>[number];
type DiscoverRow = Awaited<ReturnType<ReturnType<typeof discoverPageQuery>["all"]>>[number];

export type DiscoverRide = Awaited<ReturnType<typeof discoverRides>>["rides"][number];
