// Data factories shared by the tests and the demo seed: realistic Bengaluru defaults,
// every row written through drizzle exactly as the app would store it.
import { eq, sql } from "drizzle-orm";
import { conversationIdFor } from "../app/domain/conversation";
import { newId } from "../app/domain/ids";
import { addDays, istDate, istToInstant } from "../app/domain/time";
import { refreshMemberCount } from "../app/models/communities.server";
import type { Db } from "../app/utils/db.server";
import { hashPassword } from "../app/utils/password.server";
import {
  communities,
  communityMembers,
  conversations,
  messages,
  notifications,
  passwords,
  rideRequests,
  rides,
  userProfiles,
  userSettings,
  users,
  type VehicleInfo,
} from "./schema";

type Ctx = { db: Db };
let seq = 0;
const next = () => `${Date.now().toString(36)}${(seq++).toString(36)}${newId(4)}`;

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
};

export async function createUser({ db }: Ctx, opts: UserOptions = {}) {
  const id = newId();
  const now = opts.createdAt ?? Date.now();
  const fullName = opts.fullName === undefined ? "Test Commuter" : opts.fullName;
  const email = opts.email === undefined ? `user-${next()}@example.test` : opts.email;
  const [firstName, ...rest] = (fullName ?? "").split(/\s+/);
  const vehicle: VehicleInfo = { has_car: false, car_type: null };
  const stmts = [
    db.insert(users).values({ id, email: email?.toLowerCase() ?? null, phone: opts.phone ?? null, createdAt: now }),
    db.insert(userSettings).values({ userId: id, updatedAt: now, ...opts.settings }),
  ] as const;
  const extra = [];
  if (opts.onboarded !== null) {
    const onboarded = opts.onboarded ?? true;
    extra.push(
      db.insert(userProfiles).values({
        userId: id,
        fullName,
        firstName: firstName || null,
        lastName: rest.join(" ") || null,
        phoneNumber: onboarded ? `9${String(Math.floor(Math.random() * 1e9)).padStart(9, "0")}` : null,
        vehicleInfo: onboarded ? vehicle : {},
        createdAt: now,
        updatedAt: now,
        ...opts.profile,
      }),
    );
  }
  if (opts.password) {
    if (!opts.pepper) throw new Error("createUser: a password needs the pepper it is hashed with");
    extra.push(db.insert(passwords).values({ userId: id, hash: await hashPassword(opts.password, opts.pepper), updatedAt: now }));
  }
  await db.batch([...stmts, ...extra]);
  return { id, email, fullName };
}

export type CommunityOptions = {
  createdBy: string;
  name?: string;
  type?: "residential" | "workplace" | "interest";
  location?: string;
  description?: string;
  createdAt?: number;
};

/** A community with its creator as an approved admin member. */
export async function createCommunity({ db }: Ctx, opts: CommunityOptions) {
  const id = newId();
  const now = opts.createdAt ?? Date.now();
  const row = {
    id,
    name: opts.name ?? `Commuters ${next()}`,
    type: opts.type ?? "residential",
    location: opts.location ?? "HSR Layout, Bengaluru",
    description: opts.description ?? "Neighbours sharing the daily commute across Bengaluru.",
    createdBy: opts.createdBy,
    createdAt: now,
  };
  await db.batch([
    db.insert(communities).values(row),
    db.insert(communityMembers).values({
      id: newId(),
      communityId: id,
      userId: opts.createdBy,
      status: "approved",
      role: "admin",
      requestedAt: now,
      decidedAt: now,
      decidedBy: opts.createdBy,
    }),
    refreshMemberCount(db, id),
  ]);
  return row;
}

export async function addMember(
  { db }: Ctx,
  opts: { communityId: string; userId: string; status?: "pending" | "approved" | "rejected"; role?: "member" | "moderator" | "admin"; at?: number },
) {
  const now = opts.at ?? Date.now();
  const status = opts.status ?? "approved";
  const row = {
    id: newId(),
    communityId: opts.communityId,
    userId: opts.userId,
    status,
    role: opts.role ?? "member",
    requestedAt: now,
    decidedAt: status === "pending" ? null : now,
  };
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
};

export async function createRide({ db }: Ctx, opts: RideOptions) {
  const date = opts.date ?? addDays(istDate(), 1);
  const time = opts.time ?? "08:30";
  const row = {
    id: newId(),
    driverId: opts.driverId,
    communityId: opts.communityId ?? null,
    fromLocation: opts.fromLocation ?? "HSR Layout",
    toLocation: opts.toLocation ?? "Manyata Tech Park",
    date,
    time,
    departsAt: istToInstant(date, time),
    seats: opts.seats ?? 3,
    bookedSeats: opts.bookedSeats ?? 0,
    tripCostPaise: opts.tripCostPaise ?? 30000,
    notes: opts.notes ?? null,
    status: opts.status ?? "active",
    createdAt: opts.createdAt ?? Date.now(),
    completedAt: opts.status === "completed" ? Date.now() : null,
    cancelledAt: opts.status === "cancelled" ? Date.now() : null,
  };
  await db.insert(rides).values(row);
  return row;
}

/** A request; an accepted one also takes its seats on the ride, as accepting would. */
export async function createRideRequest(
  { db }: Ctx,
  opts: { rideId: string; riderId: string; seats?: number; status?: "pending" | "accepted" | "rejected" | "cancelled"; notes?: string | null; createdAt?: number },
) {
  const now = opts.createdAt ?? Date.now();
  const status = opts.status ?? "pending";
  const row = {
    id: newId(),
    rideId: opts.rideId,
    riderId: opts.riderId,
    seats: opts.seats ?? 1,
    status,
    notes: opts.notes ?? null,
    createdAt: now,
    decidedAt: status === "accepted" || status === "rejected" ? now : null,
    cancelledAt: status === "cancelled" ? now : null,
  };
  const insert = db.insert(rideRequests).values(row);
  if (status === "accepted") {
    await db.batch([
      insert,
      db.update(rides).set({ bookedSeats: sql`${rides.bookedSeats} + ${row.seats}` }).where(eq(rides.id, opts.rideId)),
    ]);
  } else {
    await insert;
  }
  return row;
}

export async function createNotification(
  { db }: Ctx,
  opts: { userId: string; type?: "ride_request" | "ride_update" | "message" | "community"; title?: string; message?: string; data?: Record<string, unknown>; read?: boolean; createdAt?: number },
) {
  const row = {
    id: newId(),
    userId: opts.userId,
    type: opts.type ?? "ride_update",
    title: opts.title ?? "Ride update",
    message: opts.message ?? "Your ride request was updated.",
    data: opts.data ?? {},
    read: opts.read ?? false,
    createdAt: opts.createdAt ?? Date.now(),
  };
  await db.insert(notifications).values(row);
  return row;
}

/** A message, creating the pair's conversation on first use. */
export async function createMessage(
  { db }: Ctx,
  opts: { senderId: string; receiverId: string; content?: string; createdAt?: number; read?: boolean },
) {
  const now = opts.createdAt ?? Date.now();
  const [userA, userB] = opts.senderId < opts.receiverId ? [opts.senderId, opts.receiverId] : [opts.receiverId, opts.senderId];
  const conversationId = conversationIdFor(userA, userB);
  const content = opts.content ?? "Hi! Is there a seat tomorrow morning?";
  const row = {
    id: newId(),
    conversationId,
    senderId: opts.senderId,
    receiverId: opts.receiverId,
    content,
    createdAt: now,
    readAt: opts.read ? now : null,
  };
  await db.batch([
    db
      .insert(conversations)
      .values({ id: conversationId, userA, userB, createdAt: now, lastMessageAt: now, lastMessagePreview: content.slice(0, 120), lastSenderId: opts.senderId })
      .onConflictDoUpdate({
        target: conversations.id,
        set: { lastMessageAt: now, lastMessagePreview: content.slice(0, 120), lastSenderId: opts.senderId },
      }),
    db.insert(messages).values(row),
  ]);
  return row;
}
