// A city-shaped dataset for the rows-read budget: every hot table holds several times
// the 1,000-row budget, so a query that scans a table (or aggregates without a bound)
// fails the test, while indexed, limited queries read a few hundred rows at most. Rows
// are generated inside SQLite (recursive CTEs) because tens of thousands of factory
// calls would take minutes in the test runtime; the shapes follow db/factories.ts.
import { env } from "./env";
import { conversationIdFor } from "~/domain/conversation";
import { ALL_PLACES } from "~/domain/curated-places";
import { istDate } from "~/domain/time";
import { createDb } from "~/models/db.server";
import { topUpCommutes } from "~/models/commutes.server";
import { cellsWithin } from "~/domain/places";
import { searchSpot } from "~/domain/alert-spots";
import { routeCellTimes } from "~/domain/ride-match";
import { placeByName } from "~/models/places.server";
import { BASE, signedInUser } from "./worker";
import { debugFetch } from "./worker-fetch";

export type CityScale = {
  busyId: string;
  partnerId: string;
  conversationId: string;
  rideId: string;
  requestedRideId: string;
  communityId: string;
  /** The busy user's commute (issue 14), with pending requests on its days; and someone else's public one. */
  commuteId: string;
  otherCommuteId: string;
  /** Standing bookings (issue 35) on the running commutes, the busy rider's five among them. */
  standingBookings: number;
  /** The busy rider's commutes: an accepted seat on each of their days. */
  riderCommuteIds: string[];
};

/** How many standing bookings the city holds (issue 35: the top-up's bench). */
export const CITY_STANDING_BOOKINGS = 2000;
/** The busy rider's standing bookings: the public running commutes k1, k3, k5, k7, k9. */
const ROUTE_BOXES = ["rides", "commutes"].map(
  (t) =>
    `UPDATE ${t} SET route_south = min(from_lat, to_lat), route_north = max(from_lat, to_lat), route_west = min(from_lng, to_lng), route_east = max(from_lng, to_lng) WHERE from_lat IS NOT NULL AND to_lat IS NOT NULL`,
);
/**
 * Their route cells and minutes (the corridor index, ADR 0049), as ridePlaceColumns gives a published
 * ride: rides and commutes here go from the place at i to the one at i + 1..5 of ALL_PLACES,
 * so every such pair's cells are computed once; the triggers of migration 0045 copy them
 * into ride_route_cells. One statement per offset keeps each under D1's 100 KB.
 */
const ROUTE_CELLS = [1, 2, 3, 4, 5].flatMap((d) => {
  const pairs = ALL_PLACES.map((p, i) => {
    const [a, b] = [placeByName(p.name)!, placeByName(ALL_PLACES[(i + d) % ALL_PLACES.length].name)!];
    return `('${a.name.replace(/'/g, "''")}', '${b.name.replace(/'/g, "''")}', '${JSON.stringify(routeCellTimes([a, b], cellsWithin))}')`;
  });
  return ["rides", "commutes"].map(
    (t) => `WITH pairs(f, t, cells) AS (VALUES ${pairs.join(", ")})
      UPDATE ${t} SET route_cells = (SELECT cells FROM pairs WHERE f = ${t}.from_location AND t = ${t}.to_location)
      WHERE EXISTS (SELECT 1 FROM pairs WHERE f = ${t}.from_location AND t = ${t}.to_location)`,
  );
});
const RIDER_COMMUTES = ["k1", "k3", "k5", "k7", "k9"];

const DAY = 86_400_000;
const MIGRATION_0010 = Object.values(
  import.meta.glob("../../migrations/0010_places.sql", { query: "?raw", import: "default", eager: true }),
)[0] as string;

export async function seedCityScale(
  busyId: string,
  now = Date.now(),
  commuterId = busyId,
  riderId = busyId,
): Promise<CityScale> {
  const places = ALL_PLACES.map((p) => `'${p.name.replace(/'/g, "''")}'`);
  const placeCase = (expr: string) =>
    `(CASE (${expr}) % ${places.length} ${places.map((p, i) => `WHEN ${i} THEN ${p}`).join(" ")} END)`;
  const seq = (n: number) => `WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${n - 1})`;
  const users = 2000;
  const stmts: string[] = [
    // 2,000 commuters with profiles and settings.
    `${seq(users)} INSERT INTO users (id, email, phone, created_at) SELECT 'u' || n, 'city' || n || '@example.test', NULL, ${now - 90 * DAY} FROM seq`,
    `${seq(users)} INSERT INTO user_profiles (user_id, full_name, first_name, phone_number, emergency_contact, vehicle_info, created_at, updated_at)
       SELECT 'u' || n, 'Commuter ' || n, 'Commuter', '9' || printf('%09d', n), 'Kin ' || n || ' 8' || printf('%09d', n),
              '{"has_car":true,"car_type":"petrol"}', ${now - 90 * DAY}, ${now - 90 * DAY} FROM seq`,
    `${seq(users)} INSERT INTO user_settings (user_id, updated_at) SELECT 'u' || n, ${now} FROM seq`,
    // 300 communities; every commuter is an approved member of two, the busy user of 40.
    `${seq(300)} INSERT INTO communities (id, name, type, location, description, created_by, member_count, created_at)
       SELECT 'c' || n, 'Community ' || n, CASE n % 3 WHEN 0 THEN 'residential' WHEN 1 THEN 'workplace' ELSE 'interest' END,
              'Bengaluru', 'Neighbours sharing rides ' || n, 'u' || n, 0, ${now - 60 * DAY} - n * 1000 FROM seq`,
    `${seq(users)} INSERT INTO community_members (id, community_id, user_id, status, role, requested_at)
       SELECT 'm' || n, 'c' || (n % 300), 'u' || n, 'approved', CASE WHEN n < 300 THEN 'admin' ELSE 'member' END, ${now - 60 * DAY} FROM seq`,
    `${seq(users)} INSERT INTO community_members (id, community_id, user_id, status, role, requested_at)
       SELECT 'm2-' || n, 'c' || ((n * 7 + 1) % 300), 'u' || n, CASE WHEN n % 10 = 0 THEN 'pending' ELSE 'approved' END, 'member', ${now - 50 * DAY}
       FROM seq WHERE (n * 7 + 1) % 300 <> n % 300`,
    `${seq(40)} INSERT INTO community_members (id, community_id, user_id, status, role, requested_at)
       SELECT 'mb' || n, 'c' || (n * 7), ?1, 'approved', CASE WHEN n = 0 THEN 'admin' ELSE 'member' END, ${now - 40 * DAY} FROM seq`,
    // 6,000 rides: 3,000 active in the coming two weeks, 3,000 completed in the past.
    `${seq(6000)} INSERT INTO rides (id, driver_id, community_id, from_location, to_location, date, time, departs_at, seats, booked_seats, trip_cost_paise, distance_km, notes, vehicle_type, status, created_at, completed_at)
       SELECT 'r' || n, 'u' || (n % ${users}), CASE WHEN n % 2 = 0 THEN 'c' || (n % 300) END,
              ${placeCase("n")}, ${placeCase("n + 1 + n / 7 % 5")},
              strftime('%Y-%m-%d', t / 1000 + 19800, 'unixepoch'), strftime('%H:%M', t / 1000 + 19800, 'unixepoch'), t,
              3, 0, 24000 + (n % 20) * 1000, 12, 'Ride ' || n, 'petrol',
              CASE WHEN n < 3000 THEN 'active' ELSE 'completed' END, ${now - 30 * DAY}, CASE WHEN n >= 3000 THEN t END
       FROM (SELECT n, CASE WHEN n < 3000 THEN ${now} + 3600000 + (n * 403000) % ${14 * DAY - 7200000} ELSE ${now} - (n - 2999) * 600000 END AS t FROM seq)`,
    // The busy user drives 60 upcoming rides, each with 4 pending requests and 1 accepted.
    `${seq(60)} INSERT INTO rides (id, driver_id, community_id, from_location, to_location, date, time, departs_at, seats, booked_seats, trip_cost_paise, distance_km, notes, vehicle_type, status, created_at)
       SELECT 'b' || n, ?1, 'c0', ${placeCase("n")}, ${placeCase("n + 3")},
              strftime('%Y-%m-%d', t / 1000 + 19800, 'unixepoch'), strftime('%H:%M', t / 1000 + 19800, 'unixepoch'), t,
              6, 1, 30000, 15, 'Busy ride ' || n, 'petrol', 'active', ${now - DAY}
       FROM (SELECT n, ${now} + 7200000 + n * 3 * 3600000 AS t FROM seq)`,
    `${seq(300)} INSERT INTO ride_requests (id, ride_id, rider_id, seats, status, notes, created_at, decided_at)
       SELECT 'bq' || n, 'b' || (n / 5), 'u' || (n + 1), 1, CASE WHEN n % 5 = 0 THEN 'accepted' ELSE 'pending' END,
              'Pickup near gate ' || n, ${now - DAY} + n * 1000, CASE WHEN n % 5 = 0 THEN ${now} END FROM seq`,
    // 6,000 requests on other rides (not accepted, so seat counts stay consistent), 150 by the busy user.
    `${seq(6000)} INSERT INTO ride_requests (id, ride_id, rider_id, seats, status, created_at)
       SELECT 'q' || n, 'r' || n, 'u' || ((n * 13 + 1) % ${users}), 1,
              CASE n % 3 WHEN 0 THEN 'pending' WHEN 1 THEN 'rejected' ELSE 'cancelled' END, ${now - 20 * DAY} + n * 1000
       FROM seq WHERE (n * 13 + 1) % ${users} <> n % ${users}`,
    `${seq(150)} INSERT INTO ride_requests (id, ride_id, rider_id, seats, status, created_at)
       SELECT 'bq-r' || n, 'r' || (n * 19 + 7), ?1, 1, CASE WHEN n = 1 THEN 'pending' WHEN n % 2 = 0 THEN 'rejected' ELSE 'cancelled' END, ${now - 10 * DAY} + n * 1000 FROM seq`,
    // 6,000 notifications, 1,500 of them the busy user's (200 unread).
    `${seq(4500)} INSERT INTO notifications (id, user_id, type, title, message, data, read, created_at)
       SELECT 'n' || n, 'u' || (n % ${users}), 'ride_update', 'Ride update', 'Something happened ' || n, '{}', n % 2, ${now - 20 * DAY} + n * 1000 FROM seq`,
    `${seq(1500)} INSERT INTO notifications (id, user_id, type, title, message, data, read, created_at)
       SELECT 'nb' || n, ?1, 'ride_request', 'New ride request', 'Someone asked for a seat ' || n, '{}', CASE WHEN n < 1300 THEN 1 ELSE 0 END, ${now - 20 * DAY} + n * 1000 FROM seq`,
    // The busy user's 1,000-message conversation with u1 (the last 20 unread), 150 other
    // conversations, and 3,000 messages between other commuters.
    `INSERT INTO conversations (id, user_a, user_b, last_message_at, last_message_preview, last_sender_id, created_at)
       SELECT ?2, min(?1, 'u1'), max(?1, 'u1'), ${now}, 'Message 999', 'u1', ${now - 10 * DAY}`,
    `${seq(1000)} INSERT INTO messages (id, conversation_id, sender_id, receiver_id, content, created_at, read_at)
       SELECT 'bm' || n, ?2, CASE n % 2 WHEN 0 THEN 'u1' ELSE ?1 END, CASE n % 2 WHEN 0 THEN ?1 ELSE 'u1' END,
              'Message ' || n, ${now - 1000 * 60_000} + n * 60000, CASE WHEN n < 980 THEN ${now} END FROM seq`,
    `${seq(150)} INSERT INTO conversations (id, user_a, user_b, last_message_at, last_message_preview, last_sender_id, created_at)
       SELECT min(?1, 'u' || (n + 2)) || max(?1, 'u' || (n + 2)), min(?1, 'u' || (n + 2)), max(?1, 'u' || (n + 2)), ${now - DAY} + n * 1000, 'Hello ' || n, 'u' || (n + 2), ${now - 10 * DAY} FROM seq`,
    `${seq(1500)} INSERT INTO conversations (id, user_a, user_b, last_message_at, last_message_preview, last_sender_id, created_at)
       SELECT min('u' || (200 + n), 'u' || (200 + n + 1 + n % 97)) || max('u' || (200 + n), 'u' || (200 + n + 1 + n % 97)), min('u' || (200 + n), 'u' || (200 + n + 1 + n % 97)), max('u' || (200 + n), 'u' || (200 + n + 1 + n % 97)), ${now - DAY}, 'Hi', 'u' || (200 + n), ${now - 10 * DAY} FROM seq`,
    `${seq(3000)} INSERT INTO messages (id, conversation_id, sender_id, receiver_id, content, created_at, read_at)
       SELECT 'om' || n, min('u' || (200 + n / 2), 'u' || (200 + n / 2 + 1 + (n / 2) % 97)) || max('u' || (200 + n / 2), 'u' || (200 + n / 2 + 1 + (n / 2) % 97)), 'u' || (200 + n / 2), 'u' || (200 + n / 2 + 1 + (n / 2) % 97), 'Hi ' || n, ${now - DAY} + n, ${now} FROM seq`,
    // 2,000 commute patterns (issue 14), the first 60 running (the top-up below gives them
    // their days; every other one has ended), half of them shared with a community; and the
    // commuter's Mon-Fri commute (another
    // user: the busy user's Manage Bookings is already at its budget's edge).
    `${seq(2000)} INSERT INTO commutes (id, driver_id, community_id, from_location, to_location, weekdays, time, seats, trip_cost_paise, start_date, end_date, status, created_at, updated_at)
       SELECT 'k' || n, 'u' || (n % ${users}), CASE WHEN n % 2 = 0 THEN 'c' || (n % 300) END, ${placeCase("n + 2")}, ${placeCase("n + 5")},
              62, printf('%02d:%02d', 6 + n % 4, (n * 5) % 60), 3, 20000 + (n % 10) * 1000, '${istDate(now)}',
              CASE WHEN n < 60 THEN NULL ELSE '${istDate(now)}' END, CASE WHEN n < 60 THEN 'active' ELSE 'ended' END, ${now - 5 * DAY} + n, ${now - 5 * DAY} FROM seq`,
    `INSERT INTO commutes (id, driver_id, community_id, from_location, to_location, weekdays, time, seats, trip_cost_paise, start_date, status, created_at, updated_at)
       VALUES ('kb', ?3, NULL, ${places[0]}, ${places[3]}, 62, '23:59', 6, 30000, '${istDate(now)}', 'active', ${now - DAY}, ${now - DAY})`,
    // Issue 17: the busy user's community c0 is a big one (every 4th commuter a member, 60
    // more asking to join), so its member lists must page to stay within the HTML budget.
    `${seq(500)} INSERT OR IGNORE INTO community_members (id, community_id, user_id, status, role, requested_at)
       SELECT 'mc' || n, 'c0', 'u' || (n * 4 + 1), CASE WHEN n < 440 THEN 'approved' ELSE 'pending' END, 'member', ${now - 30 * DAY} + (n / 3) * 1000 FROM seq`,
    // Counters exactly as the app keeps them.
    `UPDATE communities SET member_count = (SELECT count(*) FROM community_members m WHERE m.community_id = communities.id AND m.status = 'approved')`,
    // Every ride's and commute's places, points and grid cells, exactly as migration 0010 maps
    // the fixed places (the commutes before the top-up below, which copies them to their days).
    ...MIGRATION_0010.split("--> statement-breakpoint")
      .filter((st) => /UPDATE `rides`/.test(st))
      .flatMap((st) => [st, st.replaceAll("`rides`", "`commutes`")]),
    // Their route boxes, as migration 0034 gives existing rows (issue 36).
    ...ROUTE_BOXES,
    ...ROUTE_CELLS,
  ];
  const conversationId = conversationIdFor(busyId, "u1");
  await env.DB.batch(
    stmts.map((s) => {
      const st = env.DB.prepare(s);
      const params = [busyId, conversationId, commuterId].slice(
        0,
        s.includes("?3") ? 3 : s.includes("?2") ? 2 : s.includes("?1") ? 1 : 0,
      );
      return params.length ? st.bind(...params) : st;
    }),
  );
  await topUpCommutes({ db: createDb(env.DB) }, now);
  await seedSavedSearches(busyId, now);
  // Five regular riders wait on every day of the commuter's commute.
  await env.DB.prepare(
    `${seq(5)} INSERT INTO ride_requests (id, ride_id, rider_id, seats, status, created_at)
       SELECT 'kq' || r.id || '-' || n, r.id, 'u' || (n + 1), 1, 'pending', ${now} FROM rides r, seq WHERE r.commute_id = 'kb'`,
  ).run();
  await seedStandingBookings(riderId, now);
  // r14 is shared with c14, one of the busy user's communities; r26 with c26, which they are
  // not in, but they still wait on a seat on it (bq-r1, pending: only a live request keeps it in sight).
  return {
    busyId,
    partnerId: "u1",
    conversationId,
    rideId: "r14",
    requestedRideId: "r26",
    communityId: "c0",
    commuteId: "kb",
    otherCommuteId: "k1",
    standingBookings: CITY_STANDING_BOOKINGS,
    riderCommuteIds: RIDER_COMMUTES,
  };
}

/**
 * Issue 35: 2,000 standing bookings on the 60 running commutes (about 33 riders each, for 3
 * seats: demand well over supply, so the top-up's seat guarantees matter). Per commute the
 * first four bookings were accepted by the driver (one more than the seats), the rest wait;
 * every fifth books Mon, Wed and Fri only. Written after the seeding top-up, so the days that
 * exist carry none of their requests (the pages' budgets stay as measured); the next top-up
 * asks for them on its new days. The busy rider booked five public commutes first, was
 * accepted, and holds an accepted seat on each of their days (as bookCommute leaves it).
 */
async function seedStandingBookings(riderId: string, now: number) {
  const others = CITY_STANDING_BOOKINGS - RIDER_COMMUTES.length;
  const seq = `WITH RECURSIVE seq(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM seq WHERE n < ${others - 1})`;
  const riderIn = RIDER_COMMUTES.map((k) => `'${k}'`).join(", ");
  await env.DB.batch(
    [
      // Commute k(n % 60), its (n / 60)th booking, by u(100 + c + 59 j): never its driver u(c),
      // never twice on one commute.
      `${seq} INSERT INTO commute_bookings (id, commute_id, rider_id, weekdays, seats, status, accepted_at, created_at, updated_at)
         SELECT 'sb' || n, 'k' || (n % 60), 'u' || ((100 + n % 60 + (n / 60) * 59) % 2000),
                CASE WHEN n % 5 = 4 THEN 42 ELSE 62 END, 1, 'active', CASE WHEN n / 60 < 4 THEN ${now - 3 * DAY} END,
                ${now - 3 * DAY} + n, ${now - 3 * DAY} + n FROM seq`,
      `INSERT INTO commute_bookings (id, commute_id, rider_id, weekdays, seats, status, accepted_at, created_at, updated_at)
         SELECT 'sbr-' || id, id, ?1, 62, 1, 'active', ${now - 4 * DAY}, ${now - 4 * DAY}, ${now - 4 * DAY}
         FROM commutes WHERE id IN (${riderIn})`,
      `INSERT INTO ride_requests (id, ride_id, rider_id, seats, status, created_at, decided_at)
         SELECT 'rq-' || id, id, ?1, 1, 'accepted', ${now - 4 * DAY}, ${now - 4 * DAY}
         FROM rides WHERE commute_id IN (${riderIn}) AND status = 'active'`,
      `UPDATE rides SET booked_seats = 1 WHERE commute_id IN (${riderIn}) AND status = 'active'`,
    ].map((s) => (s.includes("?1") ? env.DB.prepare(s).bind(riderId) : env.DB.prepare(s))),
  );
}

/**
 * The city with its busy user and a regular commuter signed in, and `visit`: a page with D1
 * counting on (DEBUG_TIMING=1), as the commuter for commute pages and paths ending in
 * `#commuter`, as the busy rider (issue 35) for paths ending in `#rider`, as nobody for the
 * landing page, as the busy user for the rest.
 */
export async function signedInCity(now = Date.now()) {
  const busy = await signedInUser({ fullName: "Busy Commuter" });
  const commuter = await signedInUser({ fullName: "Regular Commuter" });
  const rider = await signedInUser({ fullName: "Busy Rider" });
  const city = await seedCityScale(busy.id, now, commuter.id, rider.id);
  const visit = (path: string) =>
    debugFetch(`${BASE}${path.replace(/#.*$/, "")}`, {
      headers:
        path === "/"
          ? {}
          : {
              Cookie:
                path.startsWith("/commutes/") || path.endsWith("#commuter")
                  ? commuter.cookie
                  : path.endsWith("#rider")
                    ? rider.cookie
                    : busy.cookie,
            },
    });
  return { city, visit };
}

/**
 * The busy user's own pages on the city (their rides and requests, chats, community, commute,
 * the commuter's My Rides): the budget test and the flat-rows test both visit them.
 */
export const ownWorldPages = (city: CityScale) => [
  "/dashboard",
  "/dashboard/rides?tab=manage",
  "/dashboard/rides?tab=created",
  "/dashboard/rides?tab=booked",
  "/dashboard/messages",
  `/dashboard/messages?c=${city.conversationId}`,
  "/communities",
  `/communities/${city.communityId}`,
  `/communities/${city.communityId}?tab=moderation`,
  `/communities/${city.communityId}?tab=audit`,
  `/rides/${city.rideId}`,
  `/rides/${city.requestedRideId}`,
  `/rides/${city.rideId}/book`,
  "/rides/b0",
  "/rides/b0/completion",
  `/people/${city.partnerId}`,
  `/commutes/${city.commuteId}`,
  "/dashboard/rides?tab=created#commuter",
];

/** How many saved searches the city holds (issue 14): commuters' alerts, the busy user's three among them. */
export const CITY_SAVED_SEARCHES = 5000;

/**
 * 5,000 saved searches (issue 14, item 5) between the fixed places, at commute hours (07:00-10:00
 * and 17:00-20:00 in 5-minute steps), mostly within 2 km and +-15 min, some up to 10 km and
 * +-60 min; every tenth paused. Their lookup rows as the app writes them (searchSpot), as
 * literal multi-row INSERTs (D1 binds 100 parameters).
 */
async function seedSavedSearches(busyId: string, now: number) {
  const names = ALL_PLACES.map((p) => p.name);
  const RADII = [2, 2, 2, 1, 3, 5, 10, 2, 0.5, 2];
  const WINDOWS = [15, 15, 30, 60, 15];
  const q = (v: string) => `'${v.replace(/'/g, "''")}'`;
  const searches: string[] = [];
  const spots: string[] = [];
  for (let n = 0; n < CITY_SAVED_SEARCHES; n++) {
    const from = placeByName(names[n % names.length])!;
    let to = placeByName(names[(n * 7 + 3) % names.length])!;
    if (to.id === from.id) to = placeByName(names[(n * 7 + 4) % names.length])!;
    const slot = (n * 13) % 72;
    const minute = (slot < 36 ? 7 * 60 : 17 * 60) + (slot % 36) * 5;
    const time = `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
    const radiusKm = RADII[n % RADII.length];
    const id = `ss${n}`;
    const owner = n < 3 ? busyId : `u${n % 2000}`;
    searches.push(
      `(${q(id)}, ${q(owner)}, ${q(from.name)}, ${q(to.name)}, ${q(from.id)}, ${q(to.id)}, ${from.lat}, ${from.lng}, ${to.lat}, ${to.lng}, ${from.cell}, ${to.cell}, '${time}', ${minute}, ${radiusKm * 1000}, ${WINDOWS[n % WINDOWS.length]}, ${n % 4 === 0 ? 127 : 62}, '${n % 10 === 9 ? "paused" : "active"}', NULL, ${now - 10 * DAY + n})`,
    );
    const window = WINDOWS[n % WINDOWS.length];
    const { klass, cell, reach } = searchSpot(from, radiusKm, window);
    spots.push(
      `(${q(id)}, ${klass}, ${cell}, ${reach}, ${minute}, ${window}, ${n % 4 === 0 ? 127 : 62}, ${radiusKm * 1000}, ${from.lat}, ${from.lng}, ${to.lat}, ${to.lng}, 0, ${q(owner)}, ${q(from.name)}, ${q(to.name)}, NULL, ${n % 10 === 9 ? 1 : 0})`,
    );
  }
  // Statements under D1's 100 KB limit.
  const chunks = (rows: string[], head: string, per: number) => {
    const out: string[] = [];
    for (let i = 0; i < rows.length; i += per) out.push(`${head} VALUES ${rows.slice(i, i + per).join(", ")}`);
    return out;
  };
  const statements = [
    ...chunks(
      searches,
      "INSERT INTO saved_searches (id, user_id, from_location, to_location, from_place_id, to_place_id, from_lat, from_lng, to_lat, to_lng, from_cell, to_cell, time, minute, radius_m, window_minutes, weekdays, status, last_alert_day, created_at)",
      300,
    ),
    // In the table's column order.
    ...chunks(spots, "INSERT INTO saved_search_spots", 500),
  ];
  await env.DB.batch(statements.map((st) => env.DB.prepare(st)));
}

/**
 * Doubles the city around the busy user (issue 17: rows read exactly flat as the city grows):
 * 2,000 more commuters in 300 more communities, 6,000 more rides (half public, half shared with
 * the new communities: 3,000 upcoming), their requests, notifications, chats and commutes. None
 * of it is the busy user's, or in their communities, or with the people they ride or chat with:
 * their world stays as it was, the city around it grows. Ids continue where seedCityScale's end.
 * Nothing new leaves within the current hour: the new one-off rides leave an hour from now at
 * the earliest and the new commutes start tomorrow. Discover's banner counts this hour's
 * remaining public rides exactly, one row each (discoverRides), so a city with more rides
 * leaving this hour reads more there, a growth ADR 0035 records rather than hides.
 */
export async function growCity(now = Date.now()) {
  const places = ALL_PLACES.map((p) => `'${p.name.replace(/'/g, "''")}'`);
  const placeCase = (expr: string) =>
    `(CASE (${expr}) % ${places.length} ${places.map((p, i) => `WHEN ${i} THEN ${p}`).join(" ")} END)`;
  // n runs from `from` to `from + count - 1`.
  const seq = (from: number, count: number) =>
    `WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${from + count - 1})`;
  const U0 = 2000,
    C0 = 300,
    R0 = 6000;
  const user = (expr: string) => `'u' || (${U0} + (${expr}) % 2000)`;
  const stmts = [
    `${seq(U0, 2000)} INSERT INTO users (id, email, phone, created_at) SELECT 'u' || n, 'city' || n || '@example.test', NULL, ${now - 90 * DAY} FROM seq`,
    `${seq(U0, 2000)} INSERT INTO user_profiles (user_id, full_name, first_name, phone_number, emergency_contact, vehicle_info, created_at, updated_at)
       SELECT 'u' || n, 'Commuter ' || n, 'Commuter', '9' || printf('%09d', n), 'Kin ' || n || ' 8' || printf('%09d', n),
              '{"has_car":true,"car_type":"petrol"}', ${now - 90 * DAY}, ${now - 90 * DAY} FROM seq`,
    `${seq(U0, 2000)} INSERT INTO user_settings (user_id, updated_at) SELECT 'u' || n, ${now} FROM seq`,
    `${seq(C0, 300)} INSERT INTO communities (id, name, type, location, description, created_by, member_count, created_at)
       SELECT 'c' || n, 'Community ' || n, CASE n % 3 WHEN 0 THEN 'residential' WHEN 1 THEN 'workplace' ELSE 'interest' END,
              'Bengaluru', 'Neighbours sharing rides ' || n, ${user("n")}, 0, ${now - 60 * DAY} - n * 1000 FROM seq`,
    `${seq(U0, 2000)} INSERT INTO community_members (id, community_id, user_id, status, role, requested_at)
       SELECT 'm' || n, 'c' || (${C0} + n % 300), 'u' || n, 'approved', CASE WHEN n % 2000 < 300 THEN 'admin' ELSE 'member' END, ${now - 60 * DAY} FROM seq`,
    // Rides: 3,000 upcoming and 3,000 completed, the even ones shared with a new community.
    `${seq(R0, 6000)} INSERT INTO rides (id, driver_id, community_id, from_location, to_location, date, time, departs_at, seats, booked_seats, trip_cost_paise, distance_km, notes, vehicle_type, status, created_at, completed_at)
       SELECT 'r' || n, ${user("n")}, CASE WHEN n % 2 = 0 THEN 'c' || (${C0} + n % 300) END,
              ${placeCase("n")}, ${placeCase("n + 1 + n / 7 % 5")},
              strftime('%Y-%m-%d', t / 1000 + 19800, 'unixepoch'), strftime('%H:%M', t / 1000 + 19800, 'unixepoch'), t,
              3, 0, 24000 + (n % 20) * 1000, 12, 'Ride ' || n, 'petrol',
              CASE WHEN n < ${R0 + 3000} THEN 'active' ELSE 'completed' END, ${now - 30 * DAY}, CASE WHEN n >= ${R0 + 3000} THEN t END
       FROM (SELECT n, CASE WHEN n < ${R0 + 3000} THEN ${now} + 3600000 + (n * 409000) % ${14 * DAY - 7200000} ELSE ${now} - (n - ${R0 + 2999}) * 600000 END AS t FROM seq)`,
    `${seq(R0, 6000)} INSERT INTO ride_requests (id, ride_id, rider_id, seats, status, created_at)
       SELECT 'q' || n, 'r' || n, ${user("n * 13 + 1")}, 1,
              CASE n % 3 WHEN 0 THEN 'pending' WHEN 1 THEN 'rejected' ELSE 'cancelled' END, ${now - 20 * DAY} + n * 1000
       FROM seq WHERE (n * 13 + 1) % 2000 <> n % 2000`,
    `${seq(10_000, 4500)} INSERT INTO notifications (id, user_id, type, title, message, data, read, created_at)
       SELECT 'n' || n, ${user("n")}, 'ride_update', 'Ride update', 'Something happened ' || n, '{}', n % 2, ${now - 20 * DAY} + n * 1000 FROM seq`,
    `${seq(0, 1500)} INSERT INTO conversations (id, user_a, user_b, last_message_at, last_message_preview, last_sender_id, created_at)
       SELECT min(a, b) || max(a, b), min(a, b), max(a, b), ${now - DAY}, 'Hi', a, ${now - 10 * DAY}
       FROM (SELECT 'u' || (${U0 + 200} + n) AS a, 'u' || (${U0 + 200} + n + 1 + n % 97) AS b FROM seq)`,
    `${seq(0, 3000)} INSERT INTO messages (id, conversation_id, sender_id, receiver_id, content, created_at, read_at)
       SELECT 'gm' || n, min(a, b) || max(a, b), a, b, 'Hi ' || n, ${now - DAY} + n, ${now}
       FROM (SELECT n, 'u' || (${U0 + 200} + n / 2) AS a, 'u' || (${U0 + 200} + n / 2 + 1 + (n / 2) % 97) AS b FROM seq)`,
    `${seq(2000, 2000)} INSERT INTO commutes (id, driver_id, community_id, from_location, to_location, weekdays, time, seats, trip_cost_paise, start_date, end_date, status, created_at, updated_at)
       SELECT 'k' || n, ${user("n")}, CASE WHEN n % 2 = 0 THEN 'c' || (${C0} + n % 300) END, ${placeCase("n + 2")}, ${placeCase("n + 5")},
              62, printf('%02d:%02d', 6 + n % 4, (n * 5) % 60), 3, 20000 + (n % 10) * 1000, '${istDate(now + DAY)}',
              CASE WHEN n < 2060 THEN NULL ELSE '${istDate(now + DAY)}' END, CASE WHEN n < 2060 THEN 'active' ELSE 'ended' END, ${now - 5 * DAY} + n, ${now - 5 * DAY} FROM seq`,
    `UPDATE communities SET member_count = (SELECT count(*) FROM community_members m WHERE m.community_id = communities.id AND m.status = 'approved') WHERE id IN (SELECT 'c' || n FROM (${seq(C0, 300)} SELECT n FROM seq))`,
    ...MIGRATION_0010.split("--> statement-breakpoint")
      .filter((st) => /UPDATE `rides`/.test(st))
      .flatMap((st) => [st, st.replaceAll("`rides`", "`commutes`")]),
    // Their route boxes, as migration 0034 gives existing rows (issue 36).
    ...ROUTE_BOXES,
    ...ROUTE_CELLS,
  ];
  await env.DB.batch(stmts.map((s) => env.DB.prepare(s)));
  await topUpCommutes({ db: createDb(env.DB) }, now);
}
