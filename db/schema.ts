// The whole LoopRide data model. D1 has no row-level security and no interactive
// transactions, so the invariants that matter (seat capacity, one live request per
// rider and ride, one referral per user, one payment per rider and ride) live here as
// CHECK constraints and (partial) unique indexes; app/models writes in db.batch so a
// failing statement rolls the whole change back.
//
// Conventions: ids are random text, timestamps are integer milliseconds since the
// epoch (UTC), money is integer paise, booleans are 0/1 integers with a CHECK.
// Foreign keys: a row that belongs to one person alone cascades with them; a row that is
// also someone else's history (messages, conversations, requests, payments and ratings
// of a ride, referrals) is RESTRICT, so removing one person never erases another's data
// (docs/decisions/0012-removing-a-person.md).
import { type SQL, sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  check,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";

const bool = (name: string) => integer(name, { mode: "boolean" });
const createdAt = () => integer("created_at").notNull();

// ---------------------------------------------------------------- accounts

export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    // Stored lower-cased; either e-mail or phone identifies a password account.
    email: text("email"),
    phone: text("phone"),
    createdAt: createdAt(),
    // When the e-mail was proven to be the holder's (Google's verified claim; issue 15 adds
    // e-mail links). Google sign-in links to an existing account only when this is set.
    emailVerifiedAt: integer("email_verified_at"),
    // HMAC of the sign-up client address (never the address): referral self-dealing check.
    signupAddressHash: text("signup_address_hash"),
    // When the person closed their account (issue 16): personal fields were erased then.
    deletedAt: integer("deleted_at"),
    // Suspended platform-wide by LoopRide's operators (issue 37): no sign-in, no session.
    suspendedAt: integer("suspended_at"),
  },
  (t) => [
    uniqueIndex("users_email_unique").on(t.email),
    // The operators' list of suspended accounts (ADR 0058).
    index("users_suspended_idx").on(t.suspendedAt).where(sql`${t.suspendedAt} IS NOT NULL`),
    uniqueIndex("users_phone_unique").on(t.phone),
    check(
      "users_phone_format",
      sql`${t.phone} IS NULL OR (length(${t.phone}) = 10 AND ${t.phone} NOT GLOB '*[^0-9]*')`,
    ),
  ],
);

/** Password credential; the hash string carries its own PBKDF2 parameters. */
export const passwords = sqliteTable("passwords", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  hash: text("hash").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** Identities from external providers (Google). */
export const oauthAccounts = sqliteTable(
  "oauth_accounts",
  {
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerAccountId] }),
    index("oauth_accounts_user_idx").on(t.userId),
    check("oauth_provider_known", sql`${t.provider} IN ('google')`),
  ],
);

/** Server-side sessions: the cookie holds only the signed id. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/** Fixed-window counters for public form rate limits (sign-in, sign-up, newsletter). */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: integer("window_start").notNull(),
  count: integer("count").notNull(),
});

// ---------------------------------------------------------------- profiles

export type VehicleInfo = {
  has_car?: boolean;
  car_type?: "petrol" | "diesel" | "hybrid" | "electric" | null;
  make?: string;
  model?: string;
  year?: string;
  color?: string;
  license_plate?: string;
  insurance_info?: string;
};

export const userProfiles = sqliteTable(
  "user_profiles",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    fullName: text("full_name"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    avatarUrl: text("avatar_url"),
    // R2 key of the uploaded profile photo (migration 0008); avatarUrl then points at it.
    avatarKey: text("avatar_key"),
    residentialArea: text("residential_area"),
    workplace: text("workplace"),
    phoneNumber: text("phone_number"),
    emergencyContact: text("emergency_contact"),
    // Issue 37 (migration 0036): where "Alert my emergency contact" sends the trip link.
    emergencyContactEmail: text("emergency_contact_email"),
    bio: text("bio"),
    upiId: text("upi_id"),
    // JSON object; '{}' until onboarding. "Has vehicle info" means at least one key.
    vehicleInfo: text("vehicle_info", { mode: "json" }).$type<VehicleInfo>().notNull().default(sql`'{}'`),
    smokingAllowed: bool("smoking_allowed").notNull().default(false),
    petsAllowed: bool("pets_allowed").notNull().default(false),
    musicPreference: text("music_preference").notNull().default("moderate"),
    conversationPreference: text("conversation_preference").notNull().default("casual"),
    maxDetourMinutes: integer("max_detour_minutes").notNull().default(15),
    genderPreference: text("gender_preference").notNull().default("any"),
    // Self-declared, private (issue 16): never shown, only women-only rides' rule reads it.
    gender: text("gender"),
    // Ratings received, kept by triggers on ride_ratings (migration 0021): read with the name.
    ratingCount: integer("rating_count").notNull().default(0),
    ratingStars: integer("rating_stars").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    check("profile_music", sql`${t.musicPreference} IN ('quiet','low','moderate','high')`),
    check("profile_conversation", sql`${t.conversationPreference} IN ('quiet','casual','talkative')`),
    check("profile_detour", sql`${t.maxDetourMinutes} BETWEEN 0 AND 60`),
    // The largest detour any driver allows, from one index row: a wide search's score bound (migration 0052).
    index("user_profiles_max_detour_idx").on(t.maxDetourMinutes),
    check("profile_gender", sql`${t.genderPreference} IN ('any','female','male')`),
    check("profile_gender_self", sql`${t.gender} IS NULL OR ${t.gender} IN ('female','male','other')`),
    check(
      "profile_phone_format",
      sql`${t.phoneNumber} IS NULL OR (length(${t.phoneNumber}) = 10 AND ${t.phoneNumber} NOT GLOB '*[^0-9]*')`,
    ),
  ],
);

export const userSettings = sqliteTable("user_settings", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  emailNotifications: bool("email_notifications").notNull().default(true),
  pushNotifications: bool("push_notifications").notNull().default(true),
  rideReminders: bool("ride_reminders").notNull().default(true),
  showProfile: bool("show_profile").notNull().default(true),
  darkMode: bool("dark_mode").notNull().default(false),
  updatedAt: integer("updated_at").notNull(),
  // Issue 20: whether riders with no other relation may message this user about their rides.
  rideInquiries: bool("ride_inquiries").notNull().default(true),
  // Issue 37: the mobile number is shown to the people on one's rides on the day (maySeeContact).
  showPhone: bool("show_phone").notNull().default(true),
});

// ---------------------------------------------------------------- referral credits

export const userCredits = sqliteTable(
  "user_credits",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    credits: integer("credits").notNull().default(0),
    totalEarned: integer("total_earned").notNull().default(0),
    totalSpent: integer("total_spent").notNull().default(0),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [check("credits_non_negative", sql`${t.credits} >= 0 AND ${t.totalEarned} >= 0 AND ${t.totalSpent} >= 0`)],
);

export const creditTransactions = sqliteTable(
  "credit_transactions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    amount: integer("amount").notNull(),
    transactionType: text("transaction_type").notNull(),
    description: text("description").notNull(),
    referenceId: text("reference_id"),
    referenceType: text("reference_type"),
    createdAt: createdAt(),
  },
  (t) => [
    index("credit_tx_user_idx").on(t.userId, t.createdAt),
    // A referral (or any other reference) credits a given user at most once.
    uniqueIndex("credit_tx_reference_unique")
      .on(t.userId, t.referenceType, t.referenceId)
      .where(sql`${t.referenceId} IS NOT NULL`),
    check("credit_tx_type", sql`${t.transactionType} IN ('earned','spent')`),
    check("credit_tx_amount", sql`${t.amount} > 0`),
  ],
);

export const userReferralCodes = sqliteTable(
  "user_referral_codes",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    referralCode: text("referral_code").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("referral_code_unique").on(t.referralCode),
    check(
      "referral_code_format",
      sql`length(${t.referralCode}) = 8 AND ${t.referralCode} GLOB 'LR[A-Z0-9][A-Z0-9][A-Z0-9][A-Z0-9][A-Z0-9][A-Z0-9]'`,
    ),
  ],
);

export const referrals = sqliteTable(
  "referrals",
  {
    id: text("id").primaryKey(),
    referrerId: text("referrer_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    referredUserId: text("referred_user_id").references(() => users.id, { onDelete: "restrict" }),
    referredEmail: text("referred_email"),
    referralCode: text("referral_code").notNull(),
    status: text("status").notNull().default("pending"),
    createdAt: createdAt(),
    completedAt: integer("completed_at"),
  },
  (t) => [
    // The database, not the app, guarantees a user redeems at most one code.
    uniqueIndex("referrals_referred_unique").on(t.referredUserId),
    index("referrals_referrer_idx").on(t.referrerId),
    check("referral_status", sql`${t.status} IN ('pending','completed')`),
    check("referral_not_self", sql`${t.referredUserId} IS NULL OR ${t.referredUserId} <> ${t.referrerId}`),
  ],
);

// ---------------------------------------------------------------- communities

/**
 * A community's name as the one-per-name rule compares it (issue 38, migration 0032): without
 * spaces, tabs, line breaks or no-break spaces, in lower case (SQLite's lower(), ASCII letters).
 * The database computes it, for `communities.name_key` and for a name being looked up.
 */
export const communityNameKey = (name: SQL) =>
  sql`lower(replace(replace(replace(replace(replace(${name}, ' ', ''), char(9), ''), char(10), ''), char(13), ''), char(160), ''))`;

export const communities = sqliteTable(
  "communities",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    type: text("type").notNull().default("residential"),
    location: text("location").notNull(),
    description: text("description").notNull(),
    createdBy: text("created_by")
      .notNull()
      .references(() => users.id),
    // Maintained in the same batch as every membership change (recomputed, not incremented).
    memberCount: integer("member_count").notNull().default(0),
    createdAt: createdAt(),
    // Issue 16 (join rules, migration 0015): open | moderated | domain | invite, and the
    // current invite token (NULL = no link).
    joinMode: text("join_mode").notNull().default("moderated"),
    inviteToken: text("invite_token"),
    // Issue 16 (work e-mail join, migration 0018): the domain members verify an address at.
    emailDomain: text("email_domain"),
    // Issue 16 (community rules, migration 0019): how a shared ride's cost is split
    // (free | equal | per_seat; 'equal' is the split as it was before), and whether rides shared
    // with the community must be women-only.
    pricingMode: text("pricing_mode").notNull().default("equal"),
    womenOnly: bool("women_only").notNull().default(false),
    // Issue 38 (migration 0032): one community per name, however it is spaced or capitalised.
    nameKey: text("name_key").generatedAlwaysAs(communityNameKey(sql`"name"`), { mode: "virtual" }),
  },
  (t) => [
    index("communities_created_idx").on(t.createdAt),
    uniqueIndex("communities_name_key_unique").on(t.nameKey),
    uniqueIndex("communities_invite_token_unique").on(t.inviteToken).where(sql`${t.inviteToken} IS NOT NULL`),
    check("community_join_mode", sql`${t.joinMode} IN ('open','moderated','domain','invite')`),
    check("community_email_domain_lower", sql`${t.emailDomain} IS NULL OR ${t.emailDomain} = lower(${t.emailDomain})`),
    check("community_pricing_mode", sql`${t.pricingMode} IN ('free','equal','per_seat')`),
    index("communities_type_created_idx").on(t.type, t.createdAt),
    check("community_type", sql`${t.type} IN ('residential','workplace','interest')`),
    check("community_member_count", sql`${t.memberCount} >= 0`),
    check("community_name_len", sql`length(${t.name}) >= 3`),
  ],
);

/** One row per user and community: the membership state machine lives in `status`. */
export const communityMembers = sqliteTable(
  "community_members",
  {
    id: text("id").primaryKey(),
    communityId: text("community_id")
      .notNull()
      .references(() => communities.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    role: text("role").notNull().default("member"),
    requestedAt: integer("requested_at").notNull(),
    decidedAt: integer("decided_at"),
    decidedBy: text("decided_by").references(() => users.id),
    // Issue 16 (moderation): suspended until this instant (UTC ms); NULL or past = not suspended.
    suspendedUntil: integer("suspended_until"),
    // Issue 16 (work e-mail join, migration 0018): the work address the member proved (private
    // to them), the domain it was at (the badge) and when. One address verifies one member.
    verifiedEmail: text("verified_email"),
    verifiedDomain: text("verified_domain"),
    verifiedAt: integer("verified_at"),
  },
  (t) => [
    uniqueIndex("community_members_unique").on(t.communityId, t.userId),
    uniqueIndex("community_members_verified_email_unique")
      .on(t.communityId, t.verifiedEmail)
      .where(sql`${t.verifiedEmail} IS NOT NULL`),
    // One verified member per mailbox: the address without its +tag (migration 0027).
    uniqueIndex("community_members_verified_mailbox_unique")
      .on(
        t.communityId,
        sql`(CASE WHEN instr(substr(${t.verifiedEmail}, 1, instr(${t.verifiedEmail}, '@') - 1), '+') > 0 THEN substr(${t.verifiedEmail}, 1, instr(${t.verifiedEmail}, '+') - 1) || substr(${t.verifiedEmail}, instr(${t.verifiedEmail}, '@')) ELSE ${t.verifiedEmail} END)`,
      )
      .where(sql`${t.verifiedEmail} IS NOT NULL`),
    index("community_members_verified_idx").on(t.userId).where(sql`${t.verifiedAt} IS NOT NULL`),
    index("community_members_user_idx").on(t.userId, t.status),
    index("community_members_status_idx").on(t.communityId, t.status, t.requestedAt),
    check("member_status", sql`${t.status} IN ('pending','approved','rejected')`),
    check("member_role", sql`${t.role} IN ('member','moderator','admin')`),
  ],
);

// ---------------------------------------------------------------- rides

export const rides = sqliteTable(
  "rides",
  {
    id: text("id").primaryKey(),
    driverId: text("driver_id")
      .notNull()
      .references(() => users.id),
    communityId: text("community_id").references(() => communities.id, { onDelete: "set null" }),
    fromLocation: text("from_location").notNull(),
    toLocation: text("to_location").notNull(),
    // Local (Asia/Kolkata) calendar date and time, as the rider reads them.
    date: text("date").notNull(),
    time: text("time").notNull(),
    // The same instant in UTC ms: ordering and the 2-hour cancellation rule use it.
    departsAt: integer("departs_at").notNull(),
    seats: integer("seats").notNull(),
    bookedSeats: integer("booked_seats").notNull().default(0),
    // What the whole trip costs the driver, in paise.
    tripCostPaise: integer("trip_cost_paise").notNull(),
    distanceKm: integer("distance_km"),
    notes: text("notes"),
    vehicleType: text("vehicle_type"),
    status: text("status").notNull().default("active"),
    // Set once at completion: how the cost was split.
    splitMode: text("split_mode"),
    createdAt: createdAt(),
    completedAt: integer("completed_at"),
    cancelledAt: integer("cancelled_at"),
    // The driver's reason for cancelling (required within 2 hours of departure).
    cancelReason: text("cancel_reason"),
    // Cancelled by the driver within 2 hours of departure (the reliability record).
    cancelledLate: bool("cancelled_late").notNull().default(false),
    paymentsRequestedAt: integer("payments_requested_at"),
    // Issue 14 (migrations/0010_places.sql): the places behind the names, their points and
    // search-grid cells (app/domain/places.ts cellOf); the distance search ranges from_cell.
    fromPlaceId: text("from_place_id"),
    toPlaceId: text("to_place_id"),
    fromLat: real("from_lat"),
    fromLng: real("from_lng"),
    toLat: real("to_lat"),
    toLng: real("to_lng"),
    fromCell: integer("from_cell"),
    toCell: integer("to_cell"),

    // The commute this ride is an occurrence of (issue 14; migration 0011), else null.
    commuteId: text("commute_id").references((): AnySQLiteColumn => commutes.id),

    // Issue 36 (migration 0034, ADR 0049): the route's via places (place ids, space-separated,
    // in order) and the box around its points, which the distance search filters on.
    viaPlaceIds: text("via_place_ids"),
    routeSouth: real("route_south"),
    routeNorth: real("route_north"),
    routeWest: real("route_west"),
    routeEast: real("route_east"),
    // Issue 16: only women may book (set by a woman driver at creation).
    womenOnly: bool("women_only").notNull().default(false),
    // The comfort lock: seats booked when the driver locked the rest to women (null: none).
    womenLockBooked: integer("women_lock_booked"),
    // Issue 16 (migration 0019): the community's pricing mode when the ride was created (a later
    // rule change moves no price); NULL: no community, or older than the rule (split as before).
    pricingMode: text("pricing_mode"),
    // Issue 37 (migration 0036): the driver's trip status on the day.
    tripStartedAt: integer("trip_started_at"),
    tripEndedAt: integer("trip_ended_at"),
    // Issue 36 (migrations 0045, 0046): the grid cells the route's line passes with the minutes
    // after the departure the driver enters them (JSON, routeCellTimes); triggers copy them
    // into ride_route_cells while the ride is active.
    routeCells: text("route_cells"),
  },
  (t) => [
    // One occurrence per commute and day: the daily top-up inserts nothing twice.
    uniqueIndex("rides_commute_date_unique").on(t.commuteId, t.date).where(sql`${t.commuteId} IS NOT NULL`),
    // The weekday search's next open day of a commute, read from the index alone (migration 0050).
    index("rides_commute_next_idx")
      .on(t.commuteId, t.date, t.status, t.departsAt, t.id)
      .where(sql`${t.commuteId} IS NOT NULL`),
    // The days one top-up run made, for its standing bookings (migration 0028).
    index("rides_commute_created_idx").on(t.createdAt).where(sql`${t.commuteId} IS NOT NULL`),
    index("rides_discover_idx").on(t.status, t.departsAt),
    // Led by from_cell: an index led by status would tempt the planner on every status = ? query.
    // The ends, vias and id cover the widest date search's score bound (migration 0049).
    index("rides_from_cell_idx").on(
      t.fromCell,
      t.status,
      t.departsAt,
      t.fromLat,
      t.fromLng,
      t.toLat,
      t.toLng,
      t.viaPlaceIds,
      t.id,
    ),
    // Issue 17 (migration 0022): a search may range the drop end instead (ADR 0030).
    index("rides_to_cell_idx").on(
      t.toCell,
      t.status,
      t.departsAt,
      t.fromLat,
      t.fromLng,
      t.toLat,
      t.toLng,
      t.viaPlaceIds,
      t.id,
    ),
    index("rides_driver_idx").on(t.driverId, t.departsAt),
    // A driver's rides in one state (badges, Manage Bookings, counts): without it SQLite, which
    // has no statistics here, may pick a (status, ...) index and read every active ride.
    index("rides_driver_status_idx").on(t.driverId, t.status, t.departsAt),
    // Ends with id (migration 0023): Discover reads a community's (or the public) rides in
    // (departs_at, id) order straight from it, without a sort that reads past the page (ADR 0035).
    index("rides_community_idx").on(t.communityId, t.status, t.departsAt, t.id),
    // "Women-only seats" (migration 0025): only those rides, so Discover's filter reads just them
    // in (departs_at, id) order instead of every upcoming ride (ADR 0037). The WHERE must stay
    // exactly womenTerm in app/models/ride-discovery.server.ts, or SQLite will not use the index.
    index("rides_women_idx")
      .on(t.communityId, t.status, t.departsAt, t.id)
      .where(sql`(${t.womenOnly} = 1 OR ${t.womenLockBooked} IS NOT NULL)`),
    // Discover's cost cap (migration 0024): the rupees a seat costs, rounded up, so plain
    // Discover merges one (departs_at, id) run per rupee up to the cap instead of walking every
    // upcoming ride when few are that cheap (ADR 0037). The expression must stay exactly
    // SEAT_RUPEES in app/models/ride-discovery.server.ts, or SQLite will not use the index.
    index("rides_seat_rupees_idx").on(
      t.communityId,
      t.status,
      sql`((${t.tripCostPaise} + 100 * ${t.seats} - 1) / (100 * ${t.seats}))`,
      t.departsAt,
      t.id,
    ),
    // End with id (migration 0026): a place text search merges one run of a place's rides per
    // place and end in (departs_at, id) order straight from them (ADR 0038).
    index("rides_from_idx").on(t.status, t.fromLocation, t.departsAt, t.id),
    index("rides_to_idx").on(t.status, t.toLocation, t.departsAt, t.id),
    check("ride_seats", sql`${t.seats} BETWEEN 1 AND 6`),
    check("ride_booked", sql`${t.bookedSeats} BETWEEN 0 AND ${t.seats}`),
    check("ride_cost", sql`${t.tripCostPaise} >= 0`),
    check("ride_status", sql`${t.status} IN ('active','completed','cancelled')`),
    check("ride_split_mode", sql`${t.splitMode} IS NULL OR ${t.splitMode} IN ('split','standard')`),
    check("ride_pricing_mode", sql`${t.pricingMode} IS NULL OR ${t.pricingMode} IN ('free','equal','per_seat')`),
    check("ride_places_differ", sql`${t.fromLocation} <> ${t.toLocation}`),
    check("ride_date_format", sql`${t.date} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'`),
    check("ride_time_format", sql`${t.time} GLOB '[0-2][0-9]:[0-5][0-9]'`),
  ],
);

/**
 * Active rides per IST departure hour (hour = floor((departs_at + 5.5 h) / 1 h)), kept exact by
 * triggers on rides (migrations/0001_ride_hour_stats.sql), so the Discover banner sums a
 * few hundred hourly rows instead of every upcoming ride. Never written by app code.
 */
export const rideHourStats = sqliteTable("ride_hour_stats", {
  hour: integer("hour").primaryKey(),
  rides: integer("rides").notNull().default(0),
  seats: integer("seats").notNull().default(0),
  bookedSeats: integer("booked_seats").notNull().default(0),
});

/** The same per IST day (day = floor((departs_at + 5.5 h) / 24 h)), for the days after today. */
export const rideDayStats = sqliteTable("ride_day_stats", {
  day: integer("day").primaryKey(),
  rides: integer("rides").notNull().default(0),
  seats: integer("seats").notNull().default(0),
  bookedSeats: integer("booked_seats").notNull().default(0),
});

/**
 * Issue 40 (migrations/0048_co_passenger_totals.sql, ADR 0064): who shared a ride (not
 * cancelled) with whom, both ways, and on how many rides; and how many such people each person
 * has (the dashboard's Co-Passengers). Kept exact by triggers on rides and ride_requests, so
 * the dashboard reads one row instead of a person's whole history. Never written by app code
 * (account deletion removes a person's own rows).
 */
export const coPassengers = sqliteTable(
  "co_passengers",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    otherId: text("other_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rides: integer("rides").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.otherId] })],
);

export const coPassengerCounts = sqliteTable("co_passenger_counts", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  people: integer("people").notNull(),
});

export const rideRequests = sqliteTable(
  "ride_requests",
  {
    id: text("id").primaryKey(),
    rideId: text("ride_id")
      .notNull()
      .references(() => rides.id, { onDelete: "restrict" }),
    riderId: text("rider_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    seats: integer("seats").notNull(),
    status: text("status").notNull().default("pending"),
    notes: text("notes"),
    createdAt: createdAt(),
    decidedAt: integer("decided_at"),
    cancelledAt: integer("cancelled_at"),
    // Issue 16 (reliability record): marked a no-show by the driver after completion, and
    // when the rider disputed it (each at most once).
    noShowAt: integer("no_show_at"),
    noShowDisputedAt: integer("no_show_disputed_at"),
    // Issue 35 (ADR 0046): the most the rider was shown for these seats when asking; the
    // completion never charges more. NULL for older requests.
    quotedPaise: integer("quoted_paise"),
    // Issue 36 (migration 0034): the place along the route where the rider asked to be picked
    // up (a place id); NULL: the ride's start.
    pickupPlaceId: text("pickup_place_id"),
    // Issue 37 (migration 0036): picked up only with the rider's pickup code, so a boarded
    // rider cannot be marked a no-show.
    pickedUpAt: integer("picked_up_at"),
    droppedAt: integer("dropped_at"),
    // ADR 0058 (migration 0041): the 4-digit pickup code, random, set by a trigger on insert so
    // that no insert path has to know of it; shown only to its rider, on the day.
    pickupCode: text("pickup_code"),
  },
  (t) => [
    // One live (pending or accepted) request per rider and ride, enforced by the database.
    uniqueIndex("ride_requests_live_unique").on(t.rideId, t.riderId).where(sql`${t.status} IN ('pending','accepted')`),
    index("ride_requests_ride_idx").on(t.rideId, t.status, t.createdAt),
    index("ride_requests_rider_idx").on(t.riderId, t.createdAt),
    index("ride_requests_rider_status_idx").on(t.riderId, t.status, t.createdAt),
    check("request_seats", sql`${t.seats} BETWEEN 1 AND 6`),
    check("request_status", sql`${t.status} IN ('pending','accepted','rejected','cancelled','expired')`),
  ],
);

export const savedRides = sqliteTable(
  "saved_rides",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rideId: text("ride_id")
      .notNull()
      .references(() => rides.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.rideId] }), index("saved_rides_ride_idx").on(t.rideId)],
);

/** One row per rider of a completed ride: who owes whom, and how it was settled. */
export const payments = sqliteTable(
  "payments",
  {
    id: text("id").primaryKey(),
    rideId: text("ride_id")
      .notNull()
      .references(() => rides.id, { onDelete: "restrict" }),
    payerId: text("payer_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    payeeId: text("payee_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    seats: integer("seats").notNull(),
    amountPaise: integer("amount_paise").notNull(),
    status: text("status").notNull().default("pending"),
    method: text("method"),
    createdAt: createdAt(),
    requestedAt: integer("requested_at"),
    paidAt: integer("paid_at"),
    receivedAt: integer("received_at"),
    // Issue 35: the week's settlement that paid it (a trigger lets it be set once, while unpaid).
    settlementId: text("settlement_id").references((): AnySQLiteColumn => settlements.id),
  },
  (t) => [
    index("payments_settlement_idx").on(t.settlementId),
    // Completing a ride twice can never create a second set of payments.
    uniqueIndex("payments_ride_payer_unique").on(t.rideId, t.payerId),
    index("payments_payer_idx").on(t.payerId, t.createdAt),
    index("payments_payee_idx").on(t.payeeId, t.createdAt),
    check("payment_amount", sql`${t.amountPaise} >= 0`),
    check("payment_seats", sql`${t.seats} BETWEEN 1 AND 6`),
    check("payment_status", sql`${t.status} IN ('pending','requested','paid','received')`),
    check("payment_method", sql`${t.method} IS NULL OR ${t.method} IN ('upi','cash')`),
    check("payment_parties_differ", sql`${t.payerId} <> ${t.payeeId}`),
  ],
);

export const rideRatings = sqliteTable(
  "ride_ratings",
  {
    id: text("id").primaryKey(),
    rideId: text("ride_id")
      .notNull()
      .references(() => rides.id, { onDelete: "restrict" }),
    raterId: text("rater_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    rateeId: text("ratee_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    stars: integer("stars").notNull(),
    comment: text("comment"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("ride_ratings_once").on(t.rideId, t.raterId, t.rateeId),
    index("ride_ratings_ratee_idx").on(t.rateeId),
    check("rating_stars", sql`${t.stars} BETWEEN 1 AND 5`),
    check("rating_not_self", sql`${t.raterId} <> ${t.rateeId}`),
  ],
);

// ---------------------------------------------------------------- notifications and messages

export const notifications = sqliteTable(
  "notifications",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    title: text("title").notNull(),
    message: text("message").notNull(),
    data: text("data", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    read: bool("read").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("notifications_user_idx").on(t.userId, t.createdAt),
    index("notifications_unread_idx").on(t.userId).where(sql`${t.read} = 0`),
    check("notification_type", sql`${t.type} IN ('ride_request','ride_update','message','community')`),
  ],
);

/** One row per pair of users (user_a < user_b), so the chat list is one indexed read. */
export const conversations = sqliteTable(
  "conversations",
  {
    id: text("id").primaryKey(),
    userA: text("user_a")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    userB: text("user_b")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    lastMessageAt: integer("last_message_at"),
    lastMessagePreview: text("last_message_preview"),
    lastSenderId: text("last_sender_id"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("conversations_pair_unique").on(t.userA, t.userB),
    index("conversations_a_idx").on(t.userA, t.lastMessageAt),
    index("conversations_b_idx").on(t.userB, t.lastMessageAt),
    check("conversation_ordered_pair", sql`${t.userA} < ${t.userB}`),
  ],
);

export const messages = sqliteTable(
  "messages",
  {
    id: text("id").primaryKey(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "restrict" }),
    senderId: text("sender_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    receiverId: text("receiver_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    content: text("content").notNull(),
    // Chosen by the sending client so a retried send is stored once.
    clientId: text("client_id"),
    createdAt: createdAt(),
    readAt: integer("read_at"),
  },
  (t) => [
    index("messages_conversation_idx").on(t.conversationId, t.createdAt),
    index("messages_unread_idx").on(t.receiverId, t.conversationId).where(sql`${t.readAt} IS NULL`),
    uniqueIndex("messages_client_unique").on(t.senderId, t.clientId).where(sql`${t.clientId} IS NOT NULL`),
    check("message_length", sql`length(${t.content}) BETWEEN 1 AND 2000`),
    check("message_parties_differ", sql`${t.senderId} <> ${t.receiverId}`),
  ],
);

// ---------------------------------------------------------------- public

export const newsletterSubscribers = sqliteTable("newsletter_subscribers", {
  email: text("email").primaryKey(),
  createdAt: createdAt(),
});

// ---------------------------------------------------------------- issue 15: Web Push and calendar feeds

/** A browser's Web Push subscription (PushManager.subscribe), owned by the user who subscribed in it. */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    // The browser's P-256 public key (65 bytes) and auth secret (16 bytes), base64url.
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_unique").on(t.endpoint),
    index("push_subscriptions_user_idx").on(t.userId),
    check("push_endpoint_https", sql`${t.endpoint} LIKE 'https://%'`),
  ],
);

/** A user's private calendar feed: only the SHA-256 of the secret token in its URL. */
export const calendarFeeds = sqliteTable(
  "calendar_feeds",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("calendar_feeds_token_hash_unique").on(t.tokenHash)],
);

// ---------------------------------------------------------------- issue 15: outbox, e-mail, password recovery

/**
 * Every message to a person outside the app (e-mail, Web Push), one row per person, event and
 * channel, written in the same transaction as the change it is about (a trigger on
 * notifications queues the notification e-mails; migrations/0012_outbox_and_mail.sql). The
 * UNIQUE idempotency key means an event is queued, and so sent, at most once.
 */
export const outbox = sqliteTable(
  "outbox",
  {
    id: text("id").primaryKey(),
    channel: text("channel").notNull().$type<"email" | "push">(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind")
      .notNull()
      .$type<"notification" | "reminder" | "verify_email" | "password_reset" | "work_email_code" | "emergency_alert">(),
    idempotencyKey: text("idempotency_key").notNull(),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    status: text("status").notNull().default("pending").$type<"pending" | "sending" | "sent" | "skipped" | "failed">(),
    attempts: integer("attempts").notNull().default(0),
    // When a pending row is due; while 'sending', when the sender's claim lapses.
    nextAttemptAt: integer("next_attempt_at").notNull(),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: integer("sent_at"),
  },
  (t) => [
    uniqueIndex("outbox_key_unique").on(t.idempotencyKey),
    index("outbox_due_idx").on(t.status, t.nextAttemptAt),
    index("outbox_user_idx").on(t.userId),
    check("outbox_channel", sql`${t.channel} IN ('email','push')`),
    check(
      "outbox_kind",
      sql`${t.kind} IN ('notification','reminder','verify_email','password_reset','work_email_code','emergency_alert')`,
    ),
    check("outbox_status", sql`${t.status} IN ('pending','sending','sent','skipped','failed')`),
  ],
);

/** The local mail sink (MAIL_TRANSPORT=sink): rendered messages, read by /dev/mailbox. */
export const mailSink = sqliteTable(
  "mail_sink",
  {
    id: text("id").primaryKey(),
    idempotencyKey: text("idempotency_key").notNull(),
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    textBody: text("text_body").notNull(),
    htmlBody: text("html_body").notNull(),
    headers: text("headers", { mode: "json" }).$type<Record<string, string>>().notNull().default(sql`'{}'`),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("mail_sink_key_unique").on(t.idempotencyKey), index("mail_sink_created_idx").on(t.createdAt)],
);

/** Password reset links: only the token's SHA-256 is stored; single use, 30 minutes. */
export const passwordResets = sqliteTable(
  "password_resets",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
  },
  (t) => [uniqueIndex("password_resets_token_unique").on(t.tokenHash), index("password_resets_user_idx").on(t.userId)],
);

// ---------------------------------------------------------------- issue 14: recurring commutes

/**
 * A driver's weekly commute pattern (migration 0011). Its occurrences are ordinary rides
 * (rides.commute_id) for the coming 14 days, topped up daily by the Cron Trigger
 * (app/models/commutes.server.ts). Places, seats, cost and community mean what they mean
 * on a ride. `weekdays` is a bit set over SQLite's strftime('%w'): bit 0 Sunday … bit 6 Saturday.
 */
export const commutes = sqliteTable(
  "commutes",
  {
    id: text("id").primaryKey(),
    driverId: text("driver_id")
      .notNull()
      .references(() => users.id),
    communityId: text("community_id").references(() => communities.id, { onDelete: "set null" }),
    fromLocation: text("from_location").notNull(),
    toLocation: text("to_location").notNull(),
    weekdays: integer("weekdays").notNull(),
    time: text("time").notNull(),
    seats: integer("seats").notNull(),
    tripCostPaise: integer("trip_cost_paise").notNull(),
    distanceKm: integer("distance_km"),
    notes: text("notes"),
    vehicleType: text("vehicle_type"),
    // The places behind the names, as on rides (migration 0010); copied into each occurrence.
    fromPlaceId: text("from_place_id"),
    toPlaceId: text("to_place_id"),
    fromLat: real("from_lat"),
    fromLng: real("from_lng"),
    toLat: real("to_lat"),
    toLng: real("to_lng"),
    fromCell: integer("from_cell"),
    toCell: integer("to_cell"),
    // The route (migration 0034), as on rides; copied into each occurrence.
    viaPlaceIds: text("via_place_ids"),
    routeSouth: real("route_south"),
    routeNorth: real("route_north"),
    routeWest: real("route_west"),
    routeEast: real("route_east"),
    // IST calendar dates; the last day is end_date (null: no end).
    startDate: text("start_date").notNull(),
    endDate: text("end_date"),
    status: text("status").notNull().default("active"),
    // Issue 37: every day women-only, or every day's comfort lock on (copied into each day).
    womenOnly: bool("women_only").notNull().default(false),
    womenLock: bool("women_lock").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
    // On a return leg, the outward commute it returns from (migration 0033, ADR 0048).
    returnOf: text("return_of").references((): AnySQLiteColumn => commutes.id),
    // The route's grid cells (migration 0045), copied into each occurrence.
    routeCells: text("route_cells"),
  },
  (t) => {
    // The ends, vias, weekdays and community cover the widest weekday search's score bound
    // (migration 0052), behind either end's cell.
    const boundCover = [
      t.status,
      t.time,
      t.fromLat,
      t.fromLng,
      t.toLat,
      t.toLng,
      t.viaPlaceIds,
      t.weekdays,
      t.communityId,
      t.id,
    ] as const;
    return [
      index("commutes_driver_idx").on(t.driverId, t.createdAt),
      uniqueIndex("commutes_return_of_unique").on(t.returnOf).where(sql`${t.returnOf} IS NOT NULL`),
      index("commutes_status_idx").on(t.status, t.endDate),
      index("commutes_from_cell_idx").on(t.fromCell, ...boundCover),
      index("commutes_to_cell_idx").on(t.toCell, ...boundCover),
      check("commute_weekdays", sql`${t.weekdays} BETWEEN 1 AND 127`),
      check("commute_seats", sql`${t.seats} BETWEEN 1 AND 6`),
      check("commute_cost", sql`${t.tripCostPaise} >= 0`),
      check("commute_status", sql`${t.status} IN ('active','ended')`),
      check("commute_places_differ", sql`${t.fromLocation} <> ${t.toLocation}`),
      check("commute_time_format", sql`${t.time} GLOB '[0-2][0-9]:[0-5][0-9]'`),
      check("commute_start_format", sql`${t.startDate} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'`),
      check("commute_end_after_start", sql`${t.endDate} IS NULL OR ${t.endDate} >= ${t.startDate}`),
    ];
  },
);

// ---------------------------------------------------------------- standing bookings (issue 35)

/**
 * A rider's standing booking of a commute (migration 0028): the weekdays and seats they ride
 * on, kept booked as the daily top-up adds days. `acceptedAt`: the driver accepted it, so
 * new days are accepted at once. A pause is a window of IST dates with nothing asked for.
 */
export const commuteBookings = sqliteTable(
  "commute_bookings",
  {
    id: text("id").primaryKey(),
    commuteId: text("commute_id")
      .notNull()
      .references(() => commutes.id),
    riderId: text("rider_id")
      .notNull()
      .references(() => users.id),
    weekdays: integer("weekdays").notNull(),
    seats: integer("seats").notNull(),
    notes: text("notes"),
    status: text("status").notNull().default("active"),
    acceptedAt: integer("accepted_at"),
    pausedFrom: text("paused_from"),
    pausedUntil: text("paused_until"),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
    endedAt: integer("ended_at"),
    // Migration 0040: where the rider is picked up each day (a place id; null: the start).
    pickupPlaceId: text("pickup_place_id"),
    // The seats' price shown when booking (ADR 0055): the top-up's new days record no more.
    quotedPaise: integer("quoted_paise"),
  },
  (t) => [
    uniqueIndex("commute_bookings_live_unique").on(t.commuteId, t.riderId).where(sql`${t.status} <> 'ended'`),
    index("commute_bookings_commute_idx").on(t.commuteId, t.status, t.createdAt),
    index("commute_bookings_rider_idx").on(t.riderId, t.status),
    check("booking_weekdays", sql`${t.weekdays} BETWEEN 1 AND 127`),
    check("booking_seats", sql`${t.seats} BETWEEN 1 AND 6`),
    check("booking_status", sql`${t.status} IN ('active','paused','ended')`),
    check(
      "booking_pause_window",
      sql`${t.status} <> 'paused' OR (${t.pausedFrom} IS NOT NULL AND ${t.pausedUntil} >= ${t.pausedFrom})`,
    ),
  ],
);

// ---------------------------------------------------------------- ride inquiries (issue 20)

/**
 * The first message a rider sent a driver about one of the driver's rides (one per rider and
 * ride). It names the ride in the chat and keeps the pair's conversation open while the ride
 * is upcoming, even when they share no community or request (app/models/messages.server.ts).
 */
export const rideInquiries = sqliteTable(
  "ride_inquiries",
  {
    rideId: text("ride_id")
      .notNull()
      .references(() => rides.id, { onDelete: "restrict" }),
    riderId: text("rider_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    driverId: text("driver_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "restrict" }),
    messageId: text("message_id")
      .notNull()
      .references(() => messages.id, { onDelete: "restrict" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.rideId, t.riderId] }),
    uniqueIndex("ride_inquiries_message_unique").on(t.messageId),
    index("ride_inquiries_pair_idx").on(t.riderId, t.driverId),
    check("ride_inquiry_parties_differ", sql`${t.riderId} <> ${t.driverId}`),
  ],
);

// ---------------------------------------------------------------- issue 16: report and block

/** Who blocked whom: each is hidden from the other (discover, requests, messages). */
export const userBlocks = sqliteTable(
  "user_blocks",
  {
    blockerId: text("blocker_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    blockedId: text("blocked_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.blockerId, t.blockedId] }),
    index("user_blocks_blocked_idx").on(t.blockedId, t.blockerId),
    check("block_not_self", sql`${t.blockerId} <> ${t.blockedId}`),
  ],
);

/** A member's report about another person, read by the admins of communities both share. */
export const userReports = sqliteTable(
  "user_reports",
  {
    id: text("id").primaryKey(),
    reporterId: text("reporter_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    reportedId: text("reported_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    reason: text("reason").notNull(),
    details: text("details"),
    context: text("context").notNull(),
    createdAt: createdAt(),
    // Issue 37: who reads it (the shared communities' admins, or LoopRide's operators) and
    // what the operators did (NULL: still open).
    queue: text("queue").notNull().default("community"),
    outcome: text("outcome"),
    handledAt: integer("handled_at"),
  },
  (t) => [
    uniqueIndex("user_reports_once").on(t.reporterId, t.reportedId),
    index("user_reports_reported_idx").on(t.reportedId, t.createdAt),
    index("user_reports_queue_idx").on(t.queue, t.handledAt, t.createdAt),
    check("report_queue", sql`${t.queue} IN ('community','operators')`),
    check("report_outcome", sql`${t.outcome} IS NULL OR ${t.outcome} IN ('warned','suspended','closed')`),
    check("report_not_self", sql`${t.reporterId} <> ${t.reportedId}`),
    check(
      "report_reason",
      sql`${t.reason} IN ('harassment','unsafe_driving','no_show','inappropriate','fake_profile','other')`,
    ),
    check("report_context", sql`${t.context} IN ('profile','ride','chat')`),
    check("report_details_len", sql`${t.details} IS NULL OR length(${t.details}) <= 1000`),
  ],
);

// ---------------------------------------------------------------- issue 16: community moderation

/** Every moderator action on a community, for its admins (migration 0015). */
export const communityAuditLog = sqliteTable(
  "community_audit_log",
  {
    id: text("id").primaryKey(),
    communityId: text("community_id")
      .notNull()
      .references(() => communities.id, { onDelete: "cascade" }),
    actorId: text("actor_id")
      .notNull()
      .references(() => users.id),
    action: text("action").notNull(),
    targetUserId: text("target_user_id").references(() => users.id),
    detail: text("detail"),
    createdAt: createdAt(),
  },
  (t) => [
    index("community_audit_log_community_idx").on(t.communityId, t.createdAt),
    check(
      "audit_action",
      sql`${t.action} IN ('approve','reject','clear','promote','remove','suspend','unsuspend','handover','rules','invite')`,
    ),
  ],
);

// ---------------------------------------------------------------- issue 16: work e-mail domain join

/**
 * The one live one-time code per person and community (migration 0018): only an HMAC of the
 * code, made when the e-mail is sent; 10 minutes, 5 tries; a new request replaces the row.
 */
export const communityEmailCodes = sqliteTable(
  "community_email_codes",
  {
    id: text("id").primaryKey(),
    communityId: text("community_id")
      .notNull()
      .references(() => communities.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    domain: text("domain").notNull(),
    codeHash: text("code_hash"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("community_email_codes_member_unique").on(t.communityId, t.userId),
    index("community_email_codes_user_idx").on(t.userId),
    check("email_code_attempts", sql`${t.attempts} BETWEEN 0 AND 5`),
    check("email_code_lower", sql`${t.email} = lower(${t.email})`),
  ],
);

// ---------------------------------------------------------------- issue 14: saved searches and alerts

/**
 * A rider's saved distance-and-time search (migration 0017): places as on rides (name, point,
 * grid cell), the wanted departure `time` (and `minute` of the day), radius, window and
 * weekdays (bit set over strftime('%w'), as on commutes). `last_alert_day` (IST date) is set
 * by the guarded UPDATE that gates each alert: at most one alert per search per IST day
 * (app/models/saved-searches.server.ts).
 */
export const savedSearches = sqliteTable(
  "saved_searches",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    fromLocation: text("from_location").notNull(),
    toLocation: text("to_location").notNull(),
    fromPlaceId: text("from_place_id").notNull(),
    toPlaceId: text("to_place_id").notNull(),
    fromLat: real("from_lat").notNull(),
    fromLng: real("from_lng").notNull(),
    toLat: real("to_lat").notNull(),
    toLng: real("to_lng").notNull(),
    fromCell: integer("from_cell").notNull(),
    toCell: integer("to_cell").notNull(),
    time: text("time").notNull(),
    minute: integer("minute").notNull(),
    radiusM: integer("radius_m").notNull(),
    windowMinutes: integer("window_minutes").notNull(),
    weekdays: integer("weekdays").notNull(),
    status: text("status").notNull().default("active"),
    /** No longer written: saved_search_spots.told_on is the mark (migration 0051, ADR 0049). */
    lastAlertDay: text("last_alert_day"),
    createdAt: createdAt(),
    // "And back" (ADR 0055): the way back is a search of its own that belongs to this one.
    returnOf: text("return_of").references((): AnySQLiteColumn => savedSearches.id, { onDelete: "cascade" }),
  },
  (t) => [
    index("saved_searches_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("saved_searches_return_of_unique").on(t.returnOf).where(sql`${t.returnOf} IS NOT NULL`),
    check("saved_search_time_format", sql`${t.time} GLOB '[0-2][0-9]:[0-5][0-9]'`),
    check(
      "saved_search_minute",
      sql`${t.minute} = CAST(substr(${t.time}, 1, 2) AS INTEGER) * 60 + CAST(substr(${t.time}, 4, 2) AS INTEGER)`,
    ),
    check("saved_search_radius", sql`${t.radiusM} BETWEEN 500 AND 10000`),
    check("saved_search_window", sql`${t.windowMinutes} BETWEEN 0 AND 60`),
    check("saved_search_weekdays", sql`${t.weekdays} BETWEEN 1 AND 127`),
    check("saved_search_status", sql`${t.status} IN ('active','paused')`),
    check("saved_search_places_differ", sql`${t.fromLocation} <> ${t.toLocation}`),
  ],
);

/**
 * The publish-time lookup of saved searches (migration 0051, ADR 0049): one row per search, at
 * its pickup's cell of its radius class's grid (app/domain/alert-spots.ts), with what matching
 * and the alert's text need, so a published ride reads each candidate search once, from the
 * covering index alone: per class, the cells near its route at the minutes it passes them.
 * Written with the search, gone with it.
 */
export const savedSearchSpots = sqliteTable(
  "saved_search_spots",
  {
    searchId: text("search_id")
      .notNull()
      .references(() => savedSearches.id, { onDelete: "cascade" }),
    klass: integer("klass").notNull(),
    cell: integer("cell").notNull(),
    /** The window rounded up to a reach (spotReach): each is ranged apart. */
    reach: integer("reach").notNull(),
    minute: integer("minute").notNull(),
    windowMinutes: integer("window_minutes").notNull(),
    weekdays: integer("weekdays").notNull(),
    radiusM: integer("radius_m").notNull(),
    fromLat: real("from_lat").notNull(),
    fromLng: real("from_lng").notNull(),
    toLat: real("to_lat").notNull(),
    toLng: real("to_lng").notNull(),
    /** 1 for the way back of a search (ADR 0055): the alert names its outward search. */
    wayBack: integer("way_back").notNull(),
    /** The search's owner (copied: the alert is written without reading the search first). */
    userId: text("user_id").notNull(),
    fromLocation: text("from_location").notNull(),
    toLocation: text("to_location").notNull(),
    /** The IST day the search was last alerted (its guarded UPDATE): told today, not looked up. */
    toldOn: text("told_on"),
    /** 1 while the search is paused (trigger saved_search_spots_paused): not looked up. */
    paused: integer("paused").notNull(),
  },
  (t) => [
    index("saved_search_spots_lookup_idx").on(
      t.klass,
      t.cell,
      t.reach,
      t.minute,
      t.toldOn,
      t.paused,
      t.windowMinutes,
      t.weekdays,
      t.radiusM,
      t.fromLat,
      t.fromLng,
      t.toLat,
      t.toLng,
      t.wayBack,
      t.searchId,
      t.userId,
      t.fromLocation,
      t.toLocation,
    ),
    index("saved_search_spots_search_idx").on(t.searchId),
  ],
);
/**
 * Issue 36 (migrations 0045 and 0046, ADR 0049): the corridor index. A row per grid cell an
 * active ride's route passes (rides.route_cells), kept by triggers on rides: `passesAt`, when
 * the driver passes it (a search ranges its pickup's cells by it), and `departsAt`, the ride's
 * departure (a search ranges its drop's cells by it); NULL where the ride is not met that way.
 * The route's box lets a search drop rides far from its other place before reading them.
 */
export const rideRouteCells = sqliteTable(
  "ride_route_cells",
  {
    cell: integer("cell").notNull(),
    passesAt: integer("passes_at"),
    departsAt: integer("departs_at"),
    rideId: text("ride_id").notNull(),
    routeSouth: real("route_south").notNull(),
    routeNorth: real("route_north").notNull(),
    routeWest: real("route_west").notNull(),
    routeEast: real("route_east").notNull(),
  },
  (t) => [
    index("ride_route_cells_pass_idx").on(
      t.cell,
      t.passesAt,
      t.rideId,
      t.routeSouth,
      t.routeNorth,
      t.routeWest,
      t.routeEast,
    ),
    index("ride_route_cells_drop_idx").on(
      t.cell,
      t.departsAt,
      t.rideId,
      t.routeSouth,
      t.routeNorth,
      t.routeWest,
      t.routeEast,
    ),
    index("ride_route_cells_ride_idx").on(t.rideId),
  ],
);
/**
 * Issue 36 (migration 0050, ADR 0049): the corridor index of commutes, the same rows as
 * ride_route_cells keyed by the minute of the IST day: `passesMinute`, when the driver passes
 * the cell (a weekday search ranges its pickup's cells by it), and `departsMinute`, the
 * commute's time (its drop's). Kept by triggers on commutes while the commute is active,
 * with its weekdays and community, so a search filters on the index alone.
 */
export const commuteRouteCells = sqliteTable(
  "commute_route_cells",
  {
    cell: integer("cell").notNull(),
    passesMinute: integer("passes_minute"),
    departsMinute: integer("departs_minute"),
    commuteId: text("commute_id").notNull(),
    routeSouth: real("route_south").notNull(),
    routeNorth: real("route_north").notNull(),
    routeWest: real("route_west").notNull(),
    routeEast: real("route_east").notNull(),
    weekdays: integer("weekdays").notNull(),
    communityId: text("community_id"),
  },
  (t) => [
    index("commute_route_cells_pass_idx").on(
      t.cell,
      t.passesMinute,
      t.commuteId,
      t.routeSouth,
      t.routeNorth,
      t.routeWest,
      t.routeEast,
      t.weekdays,
      t.communityId,
    ),
    index("commute_route_cells_drop_idx").on(
      t.cell,
      t.departsMinute,
      t.commuteId,
      t.routeSouth,
      t.routeNorth,
      t.routeWest,
      t.routeEast,
      t.weekdays,
      t.communityId,
    ),
    index("commute_route_cells_commute_idx").on(t.commuteId),
  ],
);
// ---------------------------------------------------------------- issue 16: community rules

/** A community's approved pickup points (<= 10, places of the place list), in its admins' order (migration 0019). */
export const communityPickupPoints = sqliteTable(
  "community_pickup_points",
  {
    communityId: text("community_id")
      .notNull()
      .references(() => communities.id, { onDelete: "cascade" }),
    placeId: text("place_id").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.communityId, t.placeId] }),
    uniqueIndex("community_pickup_points_position_unique").on(t.communityId, t.position),
    check("pickup_point_position", sql`${t.position} BETWEEN 0 AND 9`),
  ],
);

// ---------------------------------------------------------------- issue 35: weekly settle-up

/** A rider's one payment for a week (IST, Mon-Sun) of rides with one driver (migration 0029). */
export const settlements = sqliteTable(
  "settlements",
  {
    id: text("id").primaryKey(),
    payerId: text("payer_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    payeeId: text("payee_id")
      .notNull()
      .references(() => users.id, { onDelete: "restrict" }),
    /** The week's Monday (IST date). */
    weekStart: text("week_start").notNull(),
    amountPaise: integer("amount_paise").notNull(),
    rides: integer("rides").notNull(),
    method: text("method").notNull(),
    status: text("status").notNull().default("paid"),
    createdAt: createdAt(),
    receivedAt: integer("received_at"),
  },
  (t) => [
    index("settlements_payer_idx").on(t.payerId, t.payeeId, t.weekStart),
    index("settlements_payee_idx").on(t.payeeId, t.weekStart),
    check("settlement_amount", sql`${t.amountPaise} >= 0`),
    check("settlement_rides", sql`${t.rides} > 0`),
    check("settlement_method", sql`${t.method} IN ('upi','cash')`),
    check("settlement_status", sql`${t.status} IN ('paid','received')`),
    check("settlement_parties_differ", sql`${t.payerId} <> ${t.payeeId}`),
  ],
);

// ---------------------------------------------------------------- issue 37: safety on the day

/**
 * Share my trip (migration 0036): a link for someone without an account, showing that one
 * trip. Only the token's SHA-256 is kept; an alert's row has none until the sender mints it.
 * It lives until an hour after the trip ends or until revoked (app/domain/trip.ts).
 */
export const tripShares = sqliteTable(
  "trip_shares",
  {
    id: text("id").primaryKey(),
    rideId: text("ride_id")
      .notNull()
      .references(() => rides.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash"),
    via: text("via").notNull().default("link").$type<"link" | "alert">(),
    createdAt: createdAt(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [
    uniqueIndex("trip_shares_token_unique").on(t.tokenHash),
    index("trip_shares_user_ride_idx").on(t.userId, t.rideId, t.createdAt),
    index("trip_shares_ride_idx").on(t.rideId),
    check("trip_share_via", sql`${t.via} IN ('link','alert')`),
  ],
);

/**
 * What LoopRide's operators did to an account (ADR 0058): a platform-wide suspension (from a
 * report of their queue) and its lifting, with the operator who did it. LoopRide's record.
 */
export const operatorAuditLog = sqliteTable(
  "operator_audit_log",
  {
    id: text("id").primaryKey(),
    actorId: text("actor_id")
      .notNull()
      .references(() => users.id),
    action: text("action").notNull().$type<"suspend" | "lift_suspension">(),
    targetUserId: text("target_user_id")
      .notNull()
      .references(() => users.id),
    reportId: text("report_id"),
    createdAt: createdAt(),
  },
  (t) => [
    index("operator_audit_log_target_idx").on(t.targetUserId, t.createdAt),
    check("operator_audit_action", sql`${t.action} IN ('suspend', 'lift_suspension')`),
  ],
);
