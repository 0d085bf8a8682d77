// Data factories shared by the tests and the demo seed: realistic Bengaluru defaults,
// every row written through drizzle exactly as the app would store it.
import { eq, sql } from "drizzle-orm";
import { conversationIdFor } from "../app/domain/conversation";
import { computeCostBreakdown } from "../app/domain/cost-split";
import { newId } from "../app/domain/ids";
import { addDays, istDate, istToInstant } from "../app/domain/time";
import { refreshMemberCount } from "../app/models/community-rows.server";
import { placeByName, ridePlaceColumns } from "../app/models/places.server";
import { searchSpot } from "../app/domain/alert-spots";
import type { Db } from "../app/models/db.server";
import { hashPassword } from "../app/utils/password.server";
import {
  communities,
  communityMembers,
  commuteBookings,
  commutes,
  conversations,
  messages,
  notifications,
  passwords,
  payments,
  rideRatings,
  rideRequests,
  rides,
  userProfiles,
  userSettings,
  users,
  type VehicleInfo,
} from "./schema";

/**
 * `random` and `now` (the demo seed's): every id a create* makes is drawn from the seeded PRNG
 * and every time it defaults is `now`, so seeding twice writes the same rows. Tests pass neither.
 */
export type Ctx = { db: Db; random?: () => number; now?: number };
/** The id a create* gives its row: from the context's PRNG when it has one. */
const ctxId = (ctx: Ctx) => (ctx.random ? idFrom(ctx.random) : undefined);
let seq = 0;
const next = () => `${Date.now().toString(36)}${(seq++).toString(36)}${newId(4)}`;
const ID_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
/** A PRNG (mulberry32) that gives the same numbers for the same seed: repeatable demo data. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 16-character id (as newId) drawn from a seeded PRNG. */
export const idFrom = (random: () => number) =>
  Array.from({ length: 16 }, () => ID_ALPHABET[Math.floor(random() * 36)]).join("");

export type UserOptions = {
  email?: string | null;
  phone?: string | null;
  fullName?: string | null;
  password?: string;
  pepper?: string;
  /** false: a profile without phone and vehicle answers (needs onboarding); null: no profile at all. */
  onboarded?: boolean | null;
  profile?: Partial<typeof userProfiles.$inferInsert>;
  settings?: Partial<typeof userSettings.$inferInsert>;
  createdAt?: number;
  /** When the e-mail was verified (issue 15: only verified addresses get notification e-mails). */
  emailVerifiedAt?: number | null;
};

/**
 * Pure builders: the rows a factory would write, without touching the database. The
 * async factories below insert exactly these rows; the city-scale bench seed
 * (scripts/bench/seed.ts) inserts millions of them in multi-row batches. Every builder
 * takes an optional `id` (and the bench passes `random`) so a seeded PRNG can make the
 * output deterministic.
 */
export type BuildExtras = { id?: string; random?: () => number };

export type UserRows = {
  user: typeof users.$inferInsert;
  settings: typeof userSettings.$inferInsert;
  profile: typeof userProfiles.$inferInsert | null;
  password: typeof passwords.$inferInsert | null;
};

/** A user's rows; `passwordHash` (already hashed) stands in for `password` + `pepper`. */
export function buildUser(opts: UserOptions & BuildExtras & { passwordHash?: string } = {}): UserRows {
  const id = opts.id ?? newId();
  const random = opts.random ?? Math.random;
  const now = opts.createdAt ?? Date.now();
  const fullName = opts.fullName === undefined ? "Test Commuter" : opts.fullName;
  const email = opts.email === undefined ? `user-${next()}@example.test` : opts.email;
  const [firstName, ...rest] = (fullName ?? "").split(/\s+/);
  const vehicle: VehicleInfo = { has_car: false, car_type: null };
  let profile: UserRows["profile"] = null;
  if (opts.onboarded !== null) {
    const onboarded = opts.onboarded ?? true;
    profile = {
      userId: id,
      fullName,
      firstName: firstName || null,
      lastName: rest.join(" ") || null,
      phoneNumber: onboarded ? `9${String(Math.floor(random() * 1e9)).padStart(9, "0")}` : null,
      vehicleInfo: onboarded ? vehicle : {},
      createdAt: now,
      updatedAt: now,
      ...opts.profile,
    };
  }
  return {
    user: {
      id,
      email: email?.toLowerCase() ?? null,
      phone: opts.phone ?? null,
      createdAt: now,
      emailVerifiedAt: opts.emailVerifiedAt ?? null,
    },
    settings: { userId: id, updatedAt: now, ...opts.settings },
    profile,
    password: opts.passwordHash ? { userId: id, hash: opts.passwordHash, updatedAt: now } : null,
  };
}

export async function createUser(ctx: Ctx, opts: UserOptions = {}) {
  const { db } = ctx;
  let passwordHash: string | undefined;
  if (opts.password) {
    if (!opts.pepper) throw new Error("createUser: a password needs the pepper it is hashed with");
    passwordHash = await hashPassword(opts.password, opts.pepper);
  }
  const rows = buildUser({
    ...opts,
    passwordHash,
    id: ctxId(ctx),
    random: ctx.random,
    createdAt: opts.createdAt ?? ctx.now,
  });
  const extra = [];
  if (rows.profile) extra.push(db.insert(userProfiles).values(rows.profile));
  if (rows.password) extra.push(db.insert(passwords).values(rows.password));
  await db.batch([db.insert(users).values(rows.user), db.insert(userSettings).values(rows.settings), ...extra]);
  return {
    id: rows.user.id,
    email: opts.email === undefined ? rows.user.email : opts.email,
    fullName: opts.fullName === undefined ? "Test Commuter" : opts.fullName,
  };
}

export type CommunityOptions = {
  createdBy: string;
  name?: string;
  type?: "residential" | "workplace" | "interest";
  location?: string;
  description?: string;
  createdAt?: number;
};

/** The community row and its creator's admin membership; `memberCount` is left to the caller (0 by default). */
export function buildCommunity(opts: CommunityOptions & BuildExtras & { memberId?: string; memberCount?: number }) {
  const id = opts.id ?? newId();
  const now = opts.createdAt ?? Date.now();
  const community = {
    id,
    name: opts.name ?? `Commuters ${next()}`,
    type: opts.type ?? "residential",
    location: opts.location ?? "HSR Layout, Bengaluru",
    description: opts.description ?? "Neighbours sharing the daily commute across Bengaluru.",
    createdBy: opts.createdBy,
    createdAt: now,
  };
  const admin: typeof communityMembers.$inferInsert = {
    id: opts.memberId ?? newId(),
    communityId: id,
    userId: opts.createdBy,
    status: "approved",
    role: "admin",
    requestedAt: now,
    decidedAt: now,
    decidedBy: opts.createdBy,
  };
  return { community, admin, memberCount: opts.memberCount ?? 0 };
}

/** A community with its creator as an approved admin member. */
export async function createCommunity(ctx: Ctx, opts: CommunityOptions) {
  const { db } = ctx;
  const { community: row, admin } = buildCommunity({
    ...opts,
    id: ctxId(ctx),
    memberId: ctxId(ctx),
    createdAt: opts.createdAt ?? ctx.now,
  });
  await db.batch([
    db.insert(communities).values(row),
    db.insert(communityMembers).values(admin),
    refreshMemberCount(db, row.id),
  ]);
  return row;
}

export type MemberOptions = {
  communityId: string;
  userId: string;
  status?: "pending" | "approved" | "rejected";
  role?: "member" | "moderator" | "admin";
  at?: number;
};

export function buildMember(opts: MemberOptions & BuildExtras) {
  const now = opts.at ?? Date.now();
  const status = opts.status ?? "approved";
  return {
    id: opts.id ?? newId(),
    communityId: opts.communityId,
    userId: opts.userId,
    status,
    role: opts.role ?? "member",
    requestedAt: now,
    decidedAt: status === "pending" ? null : now,
  };
}

export async function addMember(ctx: Ctx, opts: MemberOptions) {
  const { db } = ctx;
  const row = buildMember({ ...opts, id: ctxId(ctx), at: opts.at ?? ctx.now });
  await db.batch([db.insert(communityMembers).values(row), refreshMemberCount(db, opts.communityId)]);
  return row;
}

export type RideOptions = {
  driverId: string;
  fromLocation?: string;
  toLocation?: string;
  /** IST date; defaults to tomorrow in Bengaluru. */
  date?: string;
  time?: string;
  seats?: number;
  bookedSeats?: number;
  tripCostPaise?: number;
  communityId?: string | null;
  notes?: string | null;
  status?: "active" | "completed" | "cancelled";
  createdAt?: number;
  /** A pickup or drop point other than the place's own (distance-search tests). */
  fromPoint?: { lat: number; lng: number };
  toPoint?: { lat: number; lng: number };
  /** Via places of the route, in order (issue 36). */
  vias?: string[];
  /** The driver's car, as publishing copies it from the profile (its fair cost depends on it). */
  vehicleType?: string | null;
};

const viasNamed = (names: string[] = []) => names.map((n) => placeByName(n)!);

export function buildRide(opts: RideOptions & BuildExtras & { now?: number }) {
  const date = opts.date ?? addDays(istDate(opts.now), 1);
  const time = opts.time ?? "08:30";
  const fromLocation = opts.fromLocation ?? "HSR Layout";
  const toLocation = opts.toLocation ?? "Manyata Tech Park";
  return {
    id: opts.id ?? newId(),
    driverId: opts.driverId,
    communityId: opts.communityId ?? null,
    fromLocation,
    toLocation,
    ...ridePlaceColumns(
      placeByName(fromLocation),
      placeByName(toLocation),
      { from: opts.fromPoint, to: opts.toPoint },
      viasNamed(opts.vias),
    ),
    date,
    time,
    departsAt: istToInstant(date, time),
    seats: opts.seats ?? 3,
    bookedSeats: opts.bookedSeats ?? 0,
    tripCostPaise: opts.tripCostPaise ?? 30000,
    notes: opts.notes ?? null,
    vehicleType: opts.vehicleType ?? null,
    status: opts.status ?? "active",
    createdAt: opts.createdAt ?? opts.now ?? Date.now(),
    completedAt: opts.status === "completed" ? (opts.now ?? Date.now()) : null,
    cancelledAt: opts.status === "cancelled" ? (opts.now ?? Date.now()) : null,
  };
}

export async function createRide(ctx: Ctx, opts: RideOptions & BuildExtras) {
  const { db } = ctx;
  const row = buildRide({ id: ctxId(ctx), now: ctx.now, ...opts });
  await db.insert(rides).values(row);
  return row;
}

export type RideRequestOptions = {
  rideId: string;
  riderId: string;
  seats?: number;
  status?: "pending" | "accepted" | "rejected" | "cancelled";
  notes?: string | null;
  createdAt?: number;
  /** Where the rider asked to be picked up, by place name (issue 36); none: the ride's start. */
  pickup?: string;
};

/** The request row only: whoever inserts an accepted one must also add its seats to the ride's booked_seats. */
export function buildRideRequest(opts: RideRequestOptions & BuildExtras) {
  const now = opts.createdAt ?? Date.now();
  const status = opts.status ?? "pending";
  return {
    id: opts.id ?? newId(),
    rideId: opts.rideId,
    riderId: opts.riderId,
    seats: opts.seats ?? 1,
    status,
    notes: opts.notes ?? null,
    pickupPlaceId: opts.pickup ? placeByName(opts.pickup)!.id : null,
    createdAt: now,
    decidedAt: status === "accepted" || status === "rejected" ? now : null,
    cancelledAt: status === "cancelled" ? now : null,
  };
}

/** A request; an accepted one also takes its seats on the ride, as accepting would. */
export async function createRideRequest(ctx: Ctx, opts: RideRequestOptions) {
  const { db } = ctx;
  const row = buildRideRequest({ ...opts, id: ctxId(ctx), createdAt: opts.createdAt ?? ctx.now });
  const status = row.status;
  const insert = db.insert(rideRequests).values(row);
  if (status === "accepted") {
    await db.batch([
      insert,
      db
        .update(rides)
        .set({ bookedSeats: sql`${rides.bookedSeats} + ${row.seats}` })
        .where(eq(rides.id, opts.rideId)),
    ]);
  } else {
    await insert;
  }
  return row;
}

export type NotificationOptions = {
  userId: string;
  type?: "ride_request" | "ride_update" | "message" | "community";
  title?: string;
  message?: string;
  data?: Record<string, unknown>;
  read?: boolean;
  createdAt?: number;
};

export function buildNotification(opts: NotificationOptions & BuildExtras) {
  return {
    id: opts.id ?? newId(),
    userId: opts.userId,
    type: opts.type ?? "ride_update",
    title: opts.title ?? "Ride update",
    message: opts.message ?? "Your ride request was updated.",
    data: opts.data ?? {},
    read: opts.read ?? false,
    createdAt: opts.createdAt ?? Date.now(),
  };
}

export async function createNotification(ctx: Ctx, opts: NotificationOptions) {
  const { db } = ctx;
  const row = buildNotification({ ...opts, id: ctxId(ctx), createdAt: opts.createdAt ?? ctx.now });
  await db.insert(notifications).values(row);
  return row;
}

export type MessageOptions = {
  senderId: string;
  receiverId: string;
  content?: string;
  createdAt?: number;
  read?: boolean;
};

/**
 * The message row and the pair's conversation row as it stands after this message
 * (inserting many: keep the last one per conversation).
 */
export function buildMessage(opts: MessageOptions & BuildExtras) {
  const now = opts.createdAt ?? Date.now();
  const [userA, userB] =
    opts.senderId < opts.receiverId ? [opts.senderId, opts.receiverId] : [opts.receiverId, opts.senderId];
  const conversationId = conversationIdFor(userA, userB);
  const content = opts.content ?? "Hi! Is there a seat tomorrow morning?";
  const message = {
    id: opts.id ?? newId(),
    conversationId,
    senderId: opts.senderId,
    receiverId: opts.receiverId,
    content,
    createdAt: now,
    readAt: opts.read ? now : null,
  };
  const conversation = {
    id: conversationId,
    userA,
    userB,
    createdAt: now,
    lastMessageAt: now,
    lastMessagePreview: content.slice(0, 120),
    lastSenderId: opts.senderId,
  };
  return { message, conversation };
}

/** A message, creating the pair's conversation on first use. */
export async function createMessage(ctx: Ctx, opts: MessageOptions) {
  const { db } = ctx;
  const { message: row, conversation } = buildMessage({
    ...opts,
    id: ctxId(ctx),
    createdAt: opts.createdAt ?? ctx.now,
  });
  const now = row.createdAt;
  const content = row.content;
  await db.batch([
    db
      .insert(conversations)
      .values(conversation)
      .onConflictDoUpdate({
        target: conversations.id,
        set: { lastMessageAt: now, lastMessagePreview: content.slice(0, 120), lastSenderId: opts.senderId },
      }),
    db.insert(messages).values(row),
  ]);
  return row;
}

export type CompletedRideOptions = Omit<RideOptions, "status" | "bookedSeats"> & {
  /** Accepted riders; each gets one payment, computed by the app's own cost split. */
  riders: { riderId: string; seats?: number; name?: string }[];
  /** Everyone (driver and riders) an approved member of the ride's community: split mode. */
  split?: boolean;
  community?: { name: string; type: string } | null;
  /** 'received' (settled, the default), 'paid' (awaiting the driver) or 'pending'. */
  paymentStatus?: "pending" | "paid" | "received";
  /** Stars each rider gives the driver, and the driver each rider (ratings left after the ride). */
  ratings?: { raterId: string; rateeId: string; stars: number; comment?: string }[];
};

/**
 * A past ride as completing it leaves it: accepted requests (booked_seats = their seats),
 * status completed with its split mode, one payment per rider with the amount the cost split
 * gives (settled by default) and ratings. Statements in one batch; the rides triggers keep
 * the discover stats right (the ride passes through active, as in the app).
 */
/**
 * The rows of a past ride as completing it leaves it (pure): the ride (completed, booked_seats =
 * the accepted seats), its accepted requests, one payment per rider and the ratings. With
 * `random`, every id comes from it (a seeded city is the same on every run).
 */
export function buildCompletedRide(opts: CompletedRideOptions & BuildExtras & { now?: number }) {
  const rowId = () => (opts.random ? idFrom(opts.random) : newId());
  const ride = buildRide({ ...opts, id: opts.id ?? rowId(), status: "active" });
  const riders = opts.riders.map((r) => ({
    ...buildRideRequest({
      id: rowId(),
      rideId: ride.id,
      riderId: r.riderId,
      seats: r.seats ?? 1,
      status: "accepted",
      createdAt: ride.departsAt - 86_400_000,
    }),
    name: r.name ?? null,
  }));
  const split = Boolean(opts.split && ride.communityId);
  const breakdown = computeCostBreakdown({
    tripCostPaise: ride.tripCostPaise,
    seatsOffered: ride.seats,
    community: split ? (opts.community ?? { name: "", type: "residential" }) : null,
    driverInCommunity: split,
    riders: riders.map((r) => ({ userId: r.riderId, name: r.name, seats: r.seats, sameCommunity: split })),
  });
  const completedAt = ride.departsAt + 75 * 60_000;
  const status = opts.paymentStatus ?? "received";
  const completion = {
    status: "completed" as const,
    bookedSeats: riders.reduce((n, r) => n + r.seats, 0),
    completedAt,
    splitMode: breakdown.mode,
    paymentsRequestedAt: completedAt + 60_000,
  };
  return {
    ride: { ...ride, ...completion },
    requests: riders.map(({ name: _name, ...r }) => r),
    payments: breakdown.riders.map((line) => ({
      id: rowId(),
      rideId: ride.id,
      payerId: line.userId,
      payeeId: ride.driverId,
      seats: line.seats,
      amountPaise: line.amountPaise,
      status,
      method: status === "pending" ? null : "upi",
      createdAt: completedAt,
      requestedAt: completedAt + 60_000,
      paidAt: status === "pending" ? null : completedAt + 3 * 3_600_000,
      receivedAt: status === "received" ? completedAt + 5 * 3_600_000 : null,
    })),
    ratings: (opts.ratings ?? []).map((r) => ({
      id: rowId(),
      rideId: ride.id,
      raterId: r.raterId,
      rateeId: r.rateeId,
      stars: r.stars,
      comment: r.comment ?? null,
      createdAt: completedAt + 2 * 3_600_000,
    })),
    completion,
    breakdown,
  };
}

/**
 * A past ride as completing it leaves it (buildCompletedRide's rows). Statements in one batch;
 * the rides triggers keep the discover stats right (the ride passes through active, as in the app).
 */
export async function createCompletedRide(ctx: Ctx, opts: CompletedRideOptions) {
  const { db } = ctx;
  const built = buildCompletedRide({ random: ctx.random, now: ctx.now, ...opts });
  const {
    status: _s,
    bookedSeats: _b,
    completedAt: _c,
    splitMode: _m,
    paymentsRequestedAt: _p,
    ...active
  } = built.ride;
  await db.batch([
    db.insert(rides).values({ ...active, status: "active", bookedSeats: 0 }),
    ...built.requests.map((r) => db.insert(rideRequests).values(r)),
    db.update(rides).set(built.completion).where(eq(rides.id, built.ride.id)),
    ...built.payments.map((p) => db.insert(payments).values(p)),
    ...built.ratings.map((r) => db.insert(rideRatings).values(r)),
  ] as unknown as Parameters<typeof db.batch>[0]);
  return { ...built.ride, breakdown: built.breakdown };
}

// ---------------------------------------------------------------- issue 14: recurring commutes

export type CommuteOptions = {
  driverId: string;
  fromLocation?: string;
  /** Via places of the route, in order (issue 36). */
  vias?: string[];
  toLocation?: string;
  /** Bit set over strftime('%w') (bit 0 Sunday); defaults to Monday-Friday. */
  weekdays?: number;
  time?: string;
  seats?: number;
  tripCostPaise?: number;
  communityId?: string | null;
  /** IST date; defaults to today in Bengaluru. */
  startDate?: string;
  endDate?: string | null;
  status?: "active" | "ended";
  /** A return leg: the outward commute it returns from (ADR 0048). */
  returnOf?: string | null;
  /** The driver's car, copied to every occurrence. */
  vehicleType?: string | null;
};

/** A commute pattern row (its occurrences come from topUpCommutes, as in the app). */
export function buildCommute(opts: CommuteOptions & BuildExtras & { now?: number }) {
  const now = opts.now ?? Date.now();
  return {
    id: opts.id ?? newId(),
    driverId: opts.driverId,
    communityId: opts.communityId ?? null,
    fromLocation: opts.fromLocation ?? "HSR Layout",
    toLocation: opts.toLocation ?? "Manyata Tech Park",
    weekdays: opts.weekdays ?? 0b0111110,
    time: opts.time ?? "08:30",
    seats: opts.seats ?? 3,
    tripCostPaise: opts.tripCostPaise ?? 30000,
    distanceKm: null,
    notes: null,
    vehicleType: opts.vehicleType ?? null,
    ...ridePlaceColumns(
      placeByName(opts.fromLocation ?? "HSR Layout"),
      placeByName(opts.toLocation ?? "Manyata Tech Park"),
      {},
      viasNamed(opts.vias),
    ),
    startDate: opts.startDate ?? istDate(now),
    endDate: opts.endDate ?? null,
    status: opts.status ?? "active",
    createdAt: now,
    updatedAt: now,
    returnOf: opts.returnOf ?? null,
  };
}

export async function createCommutePattern({ db }: Ctx, opts: CommuteOptions) {
  const row = buildCommute(opts);
  await db.insert(commutes).values(row);
  return row;
}

export type CommuteBookingOptions = {
  commuteId: string;
  riderId: string;
  /** Bit set over strftime('%w'); defaults to Monday-Friday. */
  weekdays?: number;
  seats?: number;
  status?: "active" | "paused" | "ended";
  /** The driver accepted the standing booking (its new days are accepted at once). */
  accepted?: boolean;
  pausedFrom?: string | null;
  pausedUntil?: string | null;
  /** The pickup point's place id (issue 36); none: the commute's start. */
  pickupPlaceId?: string | null;
};

/** A standing booking row (issue 35), as bookCommute writes it; its requests are not made here. */
export function buildCommuteBooking(opts: CommuteBookingOptions & BuildExtras & { now?: number }) {
  const now = opts.now ?? Date.now();
  return {
    id: opts.id ?? newId(),
    commuteId: opts.commuteId,
    riderId: opts.riderId,
    weekdays: opts.weekdays ?? 0b0111110,
    seats: opts.seats ?? 1,
    notes: null,
    status: opts.status ?? "active",
    acceptedAt: opts.accepted ? now : null,
    pausedFrom: opts.pausedFrom ?? null,
    pausedUntil: opts.pausedUntil ?? null,
    createdAt: now,
    updatedAt: now,
    endedAt: opts.status === "ended" ? now : null,
    pickupPlaceId: opts.pickupPlaceId ?? null,
  };
}

export async function createCommuteBooking({ db }: Ctx, opts: CommuteBookingOptions) {
  const row = buildCommuteBooking(opts);
  await db.insert(commuteBookings).values(row);
  return row;
}

// ---------------------------------------------------------------- issue 14: saved searches

export type SavedSearchOptions = {
  userId: string;
  from?: string;
  to?: string;
  time?: string;
  radiusKm?: number;
  windowMinutes?: number;
  /** Bit set over strftime('%w'); defaults to Monday-Friday. */
  weekdays?: number;
  status?: "active" | "paused";
};

/**
 * A saved search row and its lookup cells (every grid cell its pickup circle touches), as
 * app/models/saved-searches.server.ts saveSearch writes them; for bulk data (bench, city).
 */
export function buildSavedSearch(opts: SavedSearchOptions & BuildExtras & { now?: number }) {
  const from = placeByName(opts.from ?? "Koramangala")!;
  const to = placeByName(opts.to ?? "Manyata Tech Park")!;
  const time = opts.time ?? "09:00";
  const minute = Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
  const radiusKm = opts.radiusKm ?? 2;
  const id = opts.id ?? newId();
  const search = {
    id,
    userId: opts.userId,
    fromLocation: from.name,
    toLocation: to.name,
    fromPlaceId: from.id,
    toPlaceId: to.id,
    fromLat: from.lat,
    fromLng: from.lng,
    toLat: to.lat,
    toLng: to.lng,
    fromCell: from.cell,
    toCell: to.cell,
    time,
    minute,
    radiusM: Math.round(radiusKm * 1000),
    windowMinutes: opts.windowMinutes ?? 15,
    weekdays: opts.weekdays ?? 0b0111110,
    status: opts.status ?? "active",
    lastAlertDay: null,
    createdAt: opts.now ?? Date.now(),
  };
  // Its lookup row, as saveSearch writes it (ADR 0049).
  const spot = {
    searchId: id,
    ...searchSpot(from, search.radiusM / 1000, search.windowMinutes),
    minute,
    windowMinutes: search.windowMinutes,
    weekdays: search.weekdays,
    radiusM: search.radiusM,
    fromLat: from.lat,
    fromLng: from.lng,
    toLat: to.lat,
    toLng: to.lng,
    wayBack: 0,
    userId: opts.userId,
    fromLocation: from.name,
    toLocation: to.name,
    paused: search.status === "paused" ? 1 : 0,
  };
  return { search, spot };
}
