import { sql, type SQL } from "drizzle-orm";
import { communityMembers, payments, rideRequests, rides, userProfiles } from "../../db/schema";
import { contactDates } from "../domain/day-of-ride";
import { requestsClosedReason } from "../domain/rides";
import { formatDateTimeShort, istDate } from "../domain/time";
import { blockedEitherWay } from "./relations.server";

// THE rules for who may see a ride or a commute, and who may hold a seat on a ride day
// (issue 34; docs/ARCHITECTURE.md, "One rule for each act"). Every path that shows, asks
// for or accepts a seat composes these: the single request and accept, "book every day",
// "accept all", saved-search alerts, Discover's and the commute page's Book buttons. A new
// path must use them too; test/integration/seat-rule-differential.test.ts proves that the
// paths answer alike. Who holds a role in a community is the last rule here (holdsRole).
//
// The seat facts are SQL over the `rides` row in scope, written with the table's own name
// (`rides.community_id`), never a drizzle column: in a single-table select drizzle writes a
// selected column unqualified, and inside a subquery on community_members a bare
// `community_id` would mean the member's column. Every caller has `rides` in scope unaliased.

export const WOMEN_ONLY_REFUSED = "This ride is for women only.";
export const SEATS_LOCKED_TO_WOMEN = "The remaining seats on this ride are for women only.";
export const NOT_IN_COMMUNITY = "You are not a member of this ride's community, so you cannot book it.";
export const OWN_RIDE = "You cannot request a seat on your own ride.";
export const BLOCKED_PAIR = "This seat cannot be booked: one of you has blocked the other.";
export const DRIVER_NOT_IN_GOOD_STANDING = "The driver cannot take bookings on this community's rides at the moment.";
export const RIDER_NOT_IN_COMMUNITY =
  "This rider is no longer a member of the ride's community, so the seat cannot be given.";
export const RIDE_FULL = "This ride is full.";

export const suspendedMessage = (until: number) =>
  `You are suspended from this community until ${formatDateTimeShort(until)}: you cannot share or book its rides until then.`;
const riderSuspendedMessage = (until: number) =>
  `This rider is suspended from the ride's community until ${formatDateTimeShort(until)}, so the seat cannot be given.`;

/** The person (a user id, or a column) has declared herself a woman in her private profile. */
export const isWoman = (userId: string | SQL) =>
  sql`EXISTS (SELECT 1 FROM ${userProfiles} WHERE ${userProfiles.userId} = ${userId} AND ${userProfiles.gender} = 'female')`;

/**
 * The women-only rule (issue 16), over the `rides` row in scope: a ride that is women-only or
 * comfort-locked takes only women. Part of the seat rule below; Discover's lists filter on it
 * so that a man is not shown rides he could never book.
 */
export const womenRuleAllows = (riderId: string | SQL) =>
  sql`((${rides.womenOnly} = 0 AND ${rides.womenLockBooked} IS NULL) OR ${isWoman(riderId)})`;

/** The viewer's approved communities, as a list for `IN`. */
export const myCommunityIds = (viewerId: string | SQL) =>
  sql`(SELECT ${communityMembers.communityId} FROM ${communityMembers} WHERE ${communityMembers.userId} = ${viewerId} AND ${communityMembers.status} = 'approved')`;

/**
 * The viewer is an approved member of the ride's community: one seek on community_members_unique.
 * A seek run once per candidate ride (a merge's) uses this, not the membership list, which SQLite
 * would read again at every run.
 */
export const isMember = (viewerId: string | SQL) =>
  sql`EXISTS (SELECT 1 FROM ${communityMembers} WHERE ${communityMembers.communityId} = ${rides.communityId} AND ${communityMembers.userId} = ${viewerId} AND ${communityMembers.status} = 'approved')`;

/**
 * MAY SEE A RIDE (docs/decisions/0008-rides-behaviour.md): everyone signed in sees a public
 * ride; a ride shared with a community only its approved members, its driver and, with
 * `withRequests`, riders who hold a live request on it (their booking stays theirs after they
 * leave, to cancel it). A blocked pair do not see each other's rides, except a seat already
 * accepted. Unary + keeps each caller's own index choice. Lists read the viewer's membership
 * list once; `withRequests` is for reading one ride by id, and seeks that one membership.
 */
export function maySeeRide(viewerId: string | SQL, { withRequests = false } = {}): SQL {
  const member = withRequests ? isMember(viewerId) : sql`+${rides.communityId} IN ${myCommunityIds(viewerId)}`;
  const terms = [sql`+${rides.communityId} IS NULL`, member];
  const blocked = blockedEitherWay(viewerId, sql`${rides.driverId}`);
  const open = sql`(NOT ${blocked} AND (${sql.join(terms, sql` OR `)}))`;
  const all = [sql`+${rides.driverId} = ${viewerId}`, open];
  if (withRequests) {
    // Live requests only: a cancelled or rejected one gives no sight of a community's ride.
    all.push(
      sql`EXISTS (SELECT 1 FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rides.id} AND ${rideRequests.riderId} = ${viewerId} AND (${rideRequests.status} = 'accepted' OR (${rideRequests.status} = 'pending' AND NOT ${blocked})))`,
    );
  }
  return sql`(${sql.join(all, sql` OR `)})`;
}

/**
 * MAY SEE A PAYMENT (issue 35): its payer and its payee, no one else; a week's statement is
 * its payments, so the same two. `payments` in scope.
 */
export const maySeePayment = (viewerId: string | SQL) =>
  sql`(${payments.payerId} = ${viewerId} OR ${payments.payeeId} = ${viewerId})`;

/**
 * MAY SEE A COMMUTE: the ride rule for the pattern row (`commutes` in scope, by its name). A
 * public commute, or one of the viewer's communities, unless either blocked the other; the
 * driver; a rider with a live request on one of its days (to cancel it).
 */
export function maySeeCommute(viewerId: string): SQL {
  const blocked = blockedEitherWay(viewerId, sql.raw("commutes.driver_id"));
  return sql`(commutes.driver_id = ${viewerId}
    OR (NOT ${blocked} AND (commutes.community_id IS NULL OR EXISTS (SELECT 1 FROM community_members cm
        WHERE cm.community_id = commutes.community_id AND cm.user_id = ${viewerId} AND cm.status = 'approved')))
    OR EXISTS (SELECT 1 FROM ride_requests rq JOIN rides o ON o.id = rq.ride_id
        WHERE o.commute_id = commutes.id AND rq.rider_id = ${viewerId}
          AND (rq.status = 'accepted' OR (rq.status = 'pending' AND NOT ${blocked}))))`;
}

/**
 * An approved member of the community (a column, or an id), not suspended at `now`: who may
 * share and book its rides. A removed member's row is 'rejected'; a leaver has none. The daily
 * top-up asks it of a commute's driver (a removed or suspended driver's days are not added).
 */
export function inGoodStanding(communityId: SQL | string, userId: SQL | string, now: number): SQL {
  return sql`EXISTS (SELECT 1 FROM community_members cm WHERE cm.community_id = ${communityId} AND cm.user_id = ${userId}
    AND cm.status = 'approved' AND (cm.suspended_until IS NULL OR cm.suspended_until <= ${now}))`;
}

/**
 * The facts that decide whether a rider (an id, or a column such as ride_requests.rider_id)
 * may hold seats on the `rides` row in scope, as SQL booleans. `seatRule` is all of them;
 * `seatFactColumns` selects them so that a path can say which one refused.
 */
function seatFacts(riderId: string | SQL, now: number) {
  const community = sql.raw("rides.community_id");
  return {
    // Unary +: each caller reaches its rides on an index of its own choosing.
    open: sql`(+rides.status = 'active' AND +rides.departs_at > ${now})`,
    notOwn: sql`(rides.driver_id <> ${riderId})`,
    unblocked: sql`(NOT ${blockedEitherWay(riderId, sql.raw("rides.driver_id"))})`,
    // Approved and not suspended; a removed member's row is 'rejected', a leaver has none.
    member: sql`(rides.community_id IS NULL OR ${inGoodStanding(community, riderId, now)})`,
    women: sql`((rides.women_only = 0 AND rides.women_lock_booked IS NULL)
      OR EXISTS (SELECT 1 FROM user_profiles up WHERE up.user_id = ${riderId} AND up.gender = 'female'))`,
    // A driver removed from, or suspended by, the ride's community takes no new riders on it.
    driver: sql`(rides.community_id IS NULL OR ${inGoodStanding(community, sql.raw("rides.driver_id"), now)})`,
  };
}

/** The seats fit: `seats` more (a number, or a column) on top of the accepted ones. */
const seatsFit = (seats: number | SQL) => sql`(rides.booked_seats + ${seats} <= rides.seats)`;

/**
 * MAY ASK FOR / MAY BE GIVEN `seats` SEATS on the `rides` row in scope: the ride is active and
 * ahead, not the rider's own, no block either way, the rider an approved, unsuspended member of
 * its community (if any), the women-only rule and comfort lock, the driver still in good
 * standing there, and the seats free. Asking (every request path's guarded INSERT) and
 * accepting (every accept path's guarded UPDATE, per day, at accept time) are this one rule;
 * one live request per rider and ride is the partial unique index's.
 */
export function seatRule(riderId: string | SQL, seats: number | SQL, now: number): SQL {
  return sql`(${sql.join([...Object.values(seatFacts(riderId, now)), seatsFit(seats)], sql` AND `)})`;
}

export type SeatFacts = {
  status: string;
  departsAt: number;
  seats: number;
  bookedSeats: number;
  womenOnly: boolean | number;
  womenLockBooked: number | null;
  open: number;
  notOwn: number;
  unblocked: number;
  member: number;
  women: number;
  driver: number;
  suspendedUntil: number | null;
};

/**
 * The seat facts as columns of a select over `rides`, with what the messages need (the ride's
 * state and seats, the rider's running suspension). Raw names throughout (see the top).
 */
export function seatFactColumns(riderId: string | SQL, now: number, when?: SQL) {
  const f = seatFacts(riderId, now);
  // `when`: the facts that read other tables are read only for the rows it selects (a list of
  // requests needs them for the pending ones only); elsewhere they are NULL.
  const only = (x: SQL) => (when ? sql`CASE WHEN ${when} THEN ${x} END` : x);
  return {
    factStatus: sql<string>`rides.status`.as("fact_status"),
    factDepartsAt: sql<number>`rides.departs_at`.as("fact_departs_at"),
    factSeats: sql<number>`rides.seats`.as("fact_seats"),
    factBookedSeats: sql<number>`rides.booked_seats`.as("fact_booked_seats"),
    factWomenOnly: sql<number>`rides.women_only`.as("fact_women_only"),
    factWomenLockBooked: sql<number | null>`rides.women_lock_booked`.as("fact_women_lock_booked"),
    factOpen: sql<number>`${only(f.open)}`.as("fact_open"),
    factNotOwn: sql<number>`${only(f.notOwn)}`.as("fact_not_own"),
    factUnblocked: sql<number>`${only(f.unblocked)}`.as("fact_unblocked"),
    factMember: sql<number>`${only(f.member)}`.as("fact_member"),
    factWomen: sql<number>`${only(f.women)}`.as("fact_women"),
    factDriver: sql<number>`${only(f.driver)}`.as("fact_driver"),
    factSuspendedUntil: sql<number | null>`${only(sql`(SELECT cm.suspended_until FROM community_members cm
      WHERE cm.community_id = rides.community_id AND cm.user_id = ${riderId} AND cm.suspended_until > ${now})`)}`.as(
      "fact_suspended_until",
    ),
  };
}

type FactKey = keyof ReturnType<typeof seatFactColumns>;
const FACT_KEYS = Object.keys(seatFactColumns("", 0)) as FactKey[];

/**
 * A row selected with seatFactColumns, split into the facts (as SeatFacts) and the rest, so a
 * page sends its own fields and the decision, not the facts.
 */
export function splitSeatFacts<T extends Record<FactKey, unknown>>(
  row: T,
): { rest: Omit<T, FactKey>; facts: SeatFacts } {
  const rest: Record<string, unknown> = { ...row };
  for (const k of FACT_KEYS) delete rest[k];
  const r = row as Record<string, unknown>;
  const facts: SeatFacts = {
    status: r.factStatus as string,
    departsAt: Number(r.factDepartsAt),
    seats: Number(r.factSeats),
    bookedSeats: Number(r.factBookedSeats),
    womenOnly: Number(r.factWomenOnly),
    womenLockBooked: (r.factWomenLockBooked as number | null) ?? null,
    open: Number(r.factOpen),
    notOwn: Number(r.factNotOwn),
    unblocked: Number(r.factUnblocked),
    member: Number(r.factMember),
    women: Number(r.factWomen),
    driver: Number(r.factDriver),
    suspendedUntil: (r.factSuspendedUntil as number | null) ?? null,
  };
  return { rest: rest as Omit<T, FactKey>, facts };
}

/** A row selected with seatFactColumns, as SeatFacts. */
export const seatFactsOf = (row: Record<FactKey, unknown>): SeatFacts => splitSeatFacts(row).facts;

export type SeatRefusal = {
  kind: "own" | "closed" | "blocked" | "member" | "suspended" | "women" | "driver" | "full";
  message: string;
  available?: number;
};

/**
 * Why the seat rule refuses `seats` seats (null: it allows them), in the words of whoever acts:
 * the rider asking, or the driver accepting. The same facts, in the same order, as seatRule.
 */
export function seatRefusal(
  f: SeatFacts,
  seats: number,
  now: number,
  actor: "rider" | "driver" = "rider",
): SeatRefusal | null {
  if (!f.notOwn) return { kind: "own", message: OWN_RIDE };
  if (!f.open) {
    const departed = f.status === "active" && f.departsAt <= now;
    if (actor === "rider")
      return {
        kind: "closed",
        message: departed ? "This ride has already departed." : "This ride is no longer available.",
      };
    return {
      kind: "closed",
      message:
        requestsClosedReason({ status: f.status, departsAt: f.departsAt }, now) ?? "This ride is no longer available.",
    };
  }
  if (!f.unblocked) return { kind: "blocked", message: BLOCKED_PAIR };
  if (!f.member) {
    if (f.suspendedUntil)
      return {
        kind: "suspended",
        message: actor === "rider" ? suspendedMessage(f.suspendedUntil) : riderSuspendedMessage(f.suspendedUntil),
      };
    return { kind: "member", message: actor === "rider" ? NOT_IN_COMMUNITY : RIDER_NOT_IN_COMMUNITY };
  }
  if (!f.women) return { kind: "women", message: f.womenOnly ? WOMEN_ONLY_REFUSED : SEATS_LOCKED_TO_WOMEN };
  if (!f.driver) return { kind: "driver", message: DRIVER_NOT_IN_GOOD_STANDING };
  const available = f.seats - f.bookedSeats;
  if (seats > available)
    return {
      kind: "full",
      message:
        available <= 0
          ? RIDE_FULL
          : `Only ${available} seat${available === 1 ? " is" : "s are"} available for this ride.`,
      available,
    };
  return null;
}

// ---------------------------------------------------------------- the day of a ride (issue 37)

/**
 * MAY SEE CONTACT: on the `rides` row in scope, the viewer and the person (a column) are the
 * driver and one of its accepted riders, either way round; the ride is active (an ended or
 * cancelled trip closes it) and its IST day is today, or tomorrow from 18:00 (contactDates); and
 * neither blocked the other (`person`: they appear to each other as the day's contacts). On top:
 * `vehicle`, the person is the driver (the car's model, colour and registration number, for the
 * riders); `phone`, the person left "Show my mobile number" on (a missing settings row is the
 * default, on). Every page that shows a number or a car composes this.
 */
export function maySeeContact(viewerId: string, personId: SQL, now: number, what: "person" | "phone" | "vehicle"): SQL {
  const accepted = (riderId: string | SQL) =>
    sql`EXISTS (SELECT 1 FROM ride_requests cr WHERE cr.ride_id = rides.id AND cr.rider_id = ${riderId}
      AND cr.status = 'accepted')`;
  const dates = contactDates(now).map((d) => sql`${d}`);
  const terms = [
    sql`rides.status = 'active'`,
    sql`rides.date IN (${sql.join(dates, sql`, `)})`,
    sql`((rides.driver_id = ${viewerId} AND ${accepted(personId)})
      OR (rides.driver_id = ${personId} AND ${accepted(viewerId)}))`,
    sql`NOT ${blockedEitherWay(viewerId, personId)}`,
  ];
  // The car is the driver's, shown to the riders.
  if (what === "vehicle") terms.push(sql`rides.driver_id = ${personId}`);
  if (what === "phone")
    terms.push(sql`NOT EXISTS (SELECT 1 FROM user_settings cs WHERE cs.user_id = ${personId} AND cs.show_phone = 0)`);
  return sql`(${sql.join(terms, sql` AND `)})`;
}

// ---------------------------------------------------------------- LoopRide's operators (issue 37)

/** The operators' addresses, lower-cased, from the checked environment's OPERATOR_EMAILS. */
export const operatorEmails = (list: string | undefined) =>
  (list ?? "")
    .split(",")
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);

/**
 * IS AN OPERATOR: the person's e-mail is in OPERATOR_EMAILS and proven theirs (whoever signed
 * up first with an operator's address, without confirming it, gains nothing), and the account
 * is open. Only operators read the operators' queue and act on it.
 */
export function isOperatorSql(userId: string | SQL, list: string | undefined): SQL {
  const emails = operatorEmails(list);
  if (emails.length === 0) return sql`0`;
  return sql`EXISTS (SELECT 1 FROM users op WHERE op.id = ${userId} AND op.email_verified_at IS NOT NULL
    AND op.deleted_at IS NULL AND op.suspended_at IS NULL AND op.email IN (${sql.join(
      emails.map((e) => sql`${e}`),
      sql`, `,
    )}))`;
}

// ---------------------------------------------------------------- community roles

export type CommunityRole = "member" | "moderator" | "admin";
const RANK: Record<CommunityRole, number> = { member: 0, moderator: 1, admin: 2 };

/**
 * HOLDS A ROLE in a community, from the person's membership row only (issue 34): an approved
 * row's role ranks member 0, moderator 1, admin 2; no row, or one not approved, ranks -1. The
 * creator is an ordinary admin row, handed over, left and removed like any other.
 */
export function roleRank(membership: { status: string; role: string } | null | undefined): number {
  if (membership?.status !== "approved") return -1;
  return RANK[membership.role as CommunityRole] ?? -1;
}

/** Whether the membership holds at least `role`. */
export const holdsRole = (membership: { status: string; role: string } | null | undefined, role: CommunityRole) =>
  roleRank(membership) >= RANK[role];

/** holdsRole in SQL, for guarded statements and batched reads: an approved row with at least `role`. */
export function holdsRoleSql(userId: string | SQL, communityId: string | SQL, role: CommunityRole): SQL {
  const roles = (Object.keys(RANK) as CommunityRole[]).filter((r) => RANK[r] >= RANK[role]);
  return sql`EXISTS (SELECT 1 FROM community_members hr WHERE hr.community_id = ${communityId} AND hr.user_id = ${userId}
    AND hr.status = 'approved' AND hr.role IN (${sql.join(
      roles.map((r) => sql`${r}`),
      sql`, `,
    )}))`;
}

// ---------------------------------------------------------------- the trip on the day (issue 37)

/**
 * MAY RUN THE TRIP (start, picked up, dropped, end) of the `rides` row in scope: its driver,
 * while the ride is active, on the ride's own IST day. Every trip-status write is guarded by
 * it; app/models/trip.server.ts says which part refused.
 */
export const mayRunTrip = (driverId: string, now: number): SQL =>
  sql`(rides.driver_id = ${driverId} AND rides.status = 'active' AND rides.date = ${istDate(now)})`;

/**
 * IS ON THE TRIP of the `rides` row in scope: its driver or a rider holding an accepted seat.
 * Who may share the trip or alert their emergency contact about it, and see its status.
 */
export const isOnTrip = (userId: string): SQL =>
  sql`(rides.driver_id = ${userId} OR EXISTS (SELECT 1 FROM ride_requests ot WHERE ot.ride_id = rides.id
    AND ot.rider_id = ${userId} AND ot.status = 'accepted'))`;
