// Whole-database invariants as plain SQL, one query per check returning the offending rows
// (a violation names the rows involved). No runtime imports: the vitest runner
// (invariants.ts) and the Playwright specs (through wrangler's D1 CLI) share this one set.

export type Check = { name: string; sql: string };

// Text columns a user can write, with the longest value the forms accept (in UTF-16 code
// units, the unit zod measures). SQLite's length() counts characters and stops at the first
// NUL, so the length is checked in JavaScript (invariants.ts), not in SQL.
export const USER_TEXT_COLUMNS: Array<{ table: string; column: string; max: number; nullable: boolean; key: string }> =
  [
    { table: "user_profiles", column: "full_name", max: 100, nullable: true, key: "user_id" },
    { table: "user_profiles", column: "residential_area", max: 100, nullable: true, key: "user_id" },
    { table: "user_profiles", column: "workplace", max: 100, nullable: true, key: "user_id" },
    { table: "user_profiles", column: "bio", max: 500, nullable: true, key: "user_id" },
    { table: "user_profiles", column: "emergency_contact", max: 120, nullable: true, key: "user_id" },
    { table: "user_profiles", column: "upi_id", max: 60, nullable: true, key: "user_id" },
    { table: "communities", column: "name", max: 80, nullable: false, key: "id" },
    { table: "communities", column: "location", max: 120, nullable: false, key: "id" },
    { table: "communities", column: "description", max: 1000, nullable: false, key: "id" },
    { table: "rides", column: "notes", max: 500, nullable: true, key: "id" },
    { table: "ride_requests", column: "notes", max: 500, nullable: true, key: "id" },
    { table: "messages", column: "content", max: 2000, nullable: false, key: "id" },
    { table: "conversations", column: "last_message_preview", max: 2000, nullable: true, key: "id" },
    { table: "ride_ratings", column: "comment", max: 500, nullable: true, key: "id" },
    { table: "notifications", column: "title", max: 400, nullable: false, key: "id" },
    { table: "notifications", column: "message", max: 2000, nullable: false, key: "id" },
  ];

export const CHECKS: Check[] = [
  // Seats: the booked count is exactly the accepted seats, within the ride's capacity.
  {
    name: "ride booked_seats equals the sum of accepted request seats and fits the ride",
    sql: `SELECT r.id, r.seats, r.booked_seats,
            (SELECT coalesce(sum(q.seats), 0) FROM ride_requests q WHERE q.ride_id = r.id AND q.status = 'accepted') AS accepted
          FROM rides r
          WHERE r.booked_seats <> (SELECT coalesce(sum(q.seats), 0) FROM ride_requests q WHERE q.ride_id = r.id AND q.status = 'accepted')
             OR r.booked_seats < 0 OR r.booked_seats > r.seats OR r.seats NOT BETWEEN 1 AND 6`,
  },
  {
    name: "rides have valid money, places, dates and states",
    sql: `SELECT id, trip_cost_paise, date, time, status, from_location, to_location FROM rides
          WHERE typeof(trip_cost_paise) <> 'integer' OR trip_cost_paise < 0 OR trip_cost_paise > 1000000000
             OR from_location = to_location OR trim(from_location) = '' OR trim(to_location) = ''
             OR date NOT GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]' OR time NOT GLOB '[0-2][0-9]:[0-5][0-9]'
             OR status NOT IN ('active','completed','cancelled')
             OR (status = 'completed' AND completed_at IS NULL)
             OR (status = 'cancelled' AND cancelled_at IS NULL)`,
  },
  {
    name: "a profile's rating totals equal the ratings the person received",
    sql: `SELECT p.user_id, p.rating_count, p.rating_stars FROM user_profiles p
          WHERE p.rating_count <> (SELECT count(*) FROM ride_ratings r WHERE r.ratee_id = p.user_id)
             OR p.rating_stars <> (SELECT coalesce(sum(r.stars), 0) FROM ride_ratings r WHERE r.ratee_id = p.user_id)`,
  },
  {
    name: "at most one live (pending or accepted) request per rider and ride",
    sql: `SELECT ride_id, rider_id, count(*) AS n FROM ride_requests WHERE status IN ('pending','accepted') GROUP BY ride_id, rider_id HAVING n > 1`,
  },
  {
    name: "ride requests: valid seats and state, never by the ride's own driver",
    sql: `SELECT q.id, q.seats, q.status FROM ride_requests q JOIN rides r ON r.id = q.ride_id
          WHERE q.seats NOT BETWEEN 1 AND 6 OR q.status NOT IN ('pending','accepted','rejected','cancelled','expired')
             OR q.rider_id = r.driver_id
             OR (q.status IN ('accepted','rejected','expired') AND q.decided_at IS NULL)
             OR (q.status = 'cancelled' AND q.cancelled_at IS NULL)`,
  },
  // Closed rides (issue 19): no request left pending on a completed or cancelled ride, and a
  // completed ride's payments are exactly its accepted riders.
  {
    name: "no pending request on a completed or cancelled ride",
    sql: `SELECT q.id, r.status FROM ride_requests q JOIN rides r ON r.id = q.ride_id WHERE q.status = 'pending' AND r.status <> 'active'`,
  },
  {
    name: "a completed ride has one payment per accepted rider and none for anyone else",
    sql: `SELECT r.id FROM rides r WHERE r.status = 'completed' AND (
            EXISTS (SELECT 1 FROM ride_requests q WHERE q.ride_id = r.id AND q.status = 'accepted'
                      AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.ride_id = r.id AND p.payer_id = q.rider_id))
            OR EXISTS (SELECT 1 FROM payments p WHERE p.ride_id = r.id
                      AND NOT EXISTS (SELECT 1 FROM ride_requests q WHERE q.ride_id = r.id AND q.status = 'accepted' AND q.rider_id = p.payer_id)))`,
  },
  // Communities: the stored member count is exact.
  {
    name: "community member_count equals its approved members",
    sql: `SELECT c.id, c.member_count,
            (SELECT count(*) FROM community_members m WHERE m.community_id = c.id AND m.status = 'approved') AS approved
          FROM communities c
          WHERE c.member_count <> (SELECT count(*) FROM community_members m WHERE m.community_id = c.id AND m.status = 'approved')`,
  },
  {
    name: "community memberships: one per user, valid status and role",
    sql: `SELECT community_id, user_id, count(*) AS n FROM community_members
          GROUP BY community_id, user_id
          HAVING n > 1 OR max(status NOT IN ('pending','approved','rejected')) OR max(role NOT IN ('member','moderator','admin'))`,
  },
  {
    name: "communities have a valid type",
    sql: `SELECT id, type FROM communities WHERE type NOT IN ('residential','workplace','interest')`,
  },
  // Money: never negative, one payment per rider and completed ride, owed to the driver.
  {
    name: "payments: non-negative, for completed rides, from an accepted rider to the driver",
    sql: `SELECT p.id, p.amount_paise, p.status, r.status AS ride_status FROM payments p JOIN rides r ON r.id = p.ride_id
          WHERE typeof(p.amount_paise) <> 'integer' OR p.amount_paise < 0 OR r.status <> 'completed' OR p.payee_id <> r.driver_id
             OR p.payer_id = p.payee_id
             OR p.status NOT IN ('pending','requested','paid','received') OR (p.method IS NOT NULL AND p.method NOT IN ('upi','cash'))
             OR NOT EXISTS (SELECT 1 FROM ride_requests q WHERE q.ride_id = p.ride_id AND q.rider_id = p.payer_id AND q.status = 'accepted')`,
  },
  {
    name: "one payment per rider and ride",
    sql: `SELECT ride_id, payer_id, count(*) AS n FROM payments GROUP BY ride_id, payer_id HAVING n > 1`,
  },
  {
    name: "credits: never negative and equal to earned minus spent",
    sql: `SELECT user_id, credits, total_earned, total_spent FROM user_credits
          WHERE credits < 0 OR total_earned < 0 OR total_spent < 0 OR credits <> total_earned - total_spent`,
  },
  {
    name: "credit balances match their transactions",
    sql: `SELECT c.user_id, c.total_earned,
            (SELECT coalesce(sum(amount), 0) FROM credit_transactions t WHERE t.user_id = c.user_id AND t.transaction_type = 'earned') AS earned
          FROM user_credits c
          WHERE c.total_earned <> (SELECT coalesce(sum(amount), 0) FROM credit_transactions t WHERE t.user_id = c.user_id AND t.transaction_type = 'earned')
             OR c.total_spent <> (SELECT coalesce(sum(amount), 0) FROM credit_transactions t WHERE t.user_id = c.user_id AND t.transaction_type = 'spent')`,
  },
  {
    name: "one referral per referred user, never self",
    sql: `SELECT referred_user_id, count(*) AS n FROM referrals WHERE referred_user_id IS NOT NULL GROUP BY referred_user_id
          HAVING n > 1 OR max(referred_user_id = referrer_id)`,
  },
  // Ratings: only between people who shared the (completed) ride.
  {
    name: "ratings: 1..5 stars, between the driver and an accepted rider of a completed ride",
    sql: `SELECT g.id, g.stars FROM ride_ratings g JOIN rides r ON r.id = g.ride_id
          WHERE g.stars NOT BETWEEN 1 AND 5 OR typeof(g.stars) <> 'integer' OR g.rater_id = g.ratee_id OR r.status <> 'completed'
             OR (g.rater_id <> r.driver_id AND NOT EXISTS (SELECT 1 FROM ride_requests q WHERE q.ride_id = r.id AND q.rider_id = g.rater_id AND q.status = 'accepted'))
             OR (g.ratee_id <> r.driver_id AND NOT EXISTS (SELECT 1 FROM ride_requests q WHERE q.ride_id = r.id AND q.rider_id = g.ratee_id AND q.status = 'accepted'))`,
  },
  // Messages: between two different people, in their own conversation.
  {
    name: "messages belong to their pair's conversation",
    sql: `SELECT m.id FROM messages m JOIN conversations c ON c.id = m.conversation_id
          WHERE m.sender_id = m.receiver_id
             OR NOT ((c.user_a = m.sender_id AND c.user_b = m.receiver_id) OR (c.user_b = m.sender_id AND c.user_a = m.receiver_id))`,
  },
  {
    name: "one message per sender and client id",
    sql: `SELECT sender_id, client_id, count(*) AS n FROM messages WHERE client_id IS NOT NULL GROUP BY sender_id, client_id HAVING n > 1`,
  },
  {
    name: "notifications: known type, non-empty text, a JSON object as data",
    sql: `SELECT id, type FROM notifications
          WHERE type NOT IN ('ride_request','ride_update','message','community')
             OR trim(title) = '' OR trim(message) = '' OR json_valid(data) = 0 OR json_type(data) <> 'object'`,
  },
  {
    name: "profiles: valid phone, preferences and vehicle JSON",
    sql: `SELECT user_id FROM user_profiles
          WHERE (phone_number IS NOT NULL AND (length(phone_number) <> 10 OR phone_number GLOB '*[^0-9]*'))
             OR max_detour_minutes NOT BETWEEN 0 AND 60 OR typeof(max_detour_minutes) <> 'integer'
             OR music_preference NOT IN ('quiet','low','moderate','high')
             OR conversation_preference NOT IN ('quiet','casual','talkative')
             OR gender_preference NOT IN ('any','female','male')
             OR json_valid(vehicle_info) = 0 OR json_type(vehicle_info) <> 'object'
             OR (upi_id IS NOT NULL AND upi_id NOT GLOB '*?@[A-Za-z][A-Za-z]*')`,
  },
  {
    name: "users: e-mail stored lower-case, phone 10 digits",
    sql: `SELECT id, email, phone FROM users
          WHERE (email IS NOT NULL AND (email <> lower(email) OR email NOT LIKE '%_@_%'))
             OR (phone IS NOT NULL AND (length(phone) <> 10 OR phone GLOB '*[^0-9]*'))`,
  },
  {
    name: "newsletter addresses are lower-case e-mail addresses",
    sql: `SELECT email FROM newsletter_subscribers WHERE email NOT LIKE '%_@_%' OR email <> trim(email)`,
  },
];

/** The check called `name` (its exact name); throws on a typo, so a caller cannot check nothing. */
export function invariantSql(name: string): string {
  const check = CHECKS.find((c) => c.name === name);
  if (!check) throw new Error(`no invariant check named ${JSON.stringify(name)}`);
  return check.sql;
}

/** One statement counting the offending rows of the named check. */
export const violationCountSql = (name: string) => `SELECT count(*) AS n FROM (${invariantSql(name)})`;
