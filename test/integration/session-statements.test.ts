import { and, eq, gt, isNull } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions, userProfiles, users, userSettings } from "../../db/schema";
import {
  createMessage,
  createNotification,
  createRide,
  createRideRequest,
  createUser,
  type UserOptions,
} from "../../db/factories";
import { getBadges } from "~/models/badges.server";
import type { Db } from "~/models/db.server";
import { createSession, getSessionUser, getSessionUserAndBadges, getSessionWith } from "~/models/sessions.server";
import { db } from "../support/worker";

// ADR 0063: the session read's statements are built once per isolate and its D1 row is read
// straight into the SessionUser. What a page gets must be what drizzle's mapping gave.

/** The session user as drizzle read and mapped it before (the oracle). */
async function drizzleSessionUser(sessionId: string, now: number) {
  const row = await db()
    .select({ u: users, p: userProfiles, s: userSettings })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .leftJoin(userSettings, eq(userSettings.userId, users.id))
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now), isNull(users.suspendedAt)))
    .get();
  if (!row) return null;
  const vehicle = row.p?.vehicleInfo ?? null;
  return {
    id: row.u.id,
    email: row.u.email,
    emailVerified: row.u.emailVerifiedAt !== null,
    phone: row.u.phone,
    hasProfile: row.p !== null,
    fullName: row.p?.fullName ?? null,
    firstName: row.p?.firstName ?? null,
    avatarUrl: row.p?.avatarUrl ?? null,
    phoneNumber: row.p?.phoneNumber ?? null,
    hasVehicleInfo: !!vehicle && Object.keys(vehicle).length > 0,
    hasCar: vehicle?.has_car === true,
    residentialArea: row.p?.residentialArea ?? null,
    profileCreatedAt: row.p?.createdAt ?? null,
    darkMode: row.s?.darkMode ?? false,
  };
}

async function sessionFor(opts: UserOptions) {
  const user = await createUser({ db: db() }, opts);
  return { user, sessionId: await createSession({ db: db() }, user.id) };
}

const USERS: [string, UserOptions][] = [
  [
    "an onboarded driver, verified, dark mode",
    {
      emailVerifiedAt: 1_700_000_000_000,
      phone: "9876543210",
      settings: { darkMode: true },
      profile: {
        vehicleInfo: { has_car: true, car_type: "electric" },
        residentialArea: "HSR Layout",
        avatarUrl: "/a.jpg",
      },
    },
  ],
  ["a rider without a car", { fullName: "Asha Rao" }],
  ["a profile still to be finished", { onboarded: false }],
  ["no profile at all", { onboarded: null, fullName: null }],
  ["no e-mail address", { email: null, phone: "9000000001" }],
];

describe("the session read (ADR 0063)", () => {
  it.each(USERS)("gives what drizzle's mapping gave: %s", async (_name, opts) => {
    const { sessionId } = await sessionFor(opts);
    const now = Date.now();
    const expected = await drizzleSessionUser(sessionId, now);
    expect(expected).not.toBeNull();
    expect(await getSessionUser({ db: db() }, sessionId, now)).toEqual(expected);
    expect((await getSessionUserAndBadges({ db: db() }, sessionId, now)).user).toEqual(expected);
  });

  it("reads the shell's badge counts as getBadges does", async () => {
    const { user, sessionId } = await sessionFor({});
    const rider = await createUser({ db: db() }, {});
    const ride = await createRide({ db: db() }, { driverId: user.id });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id });
    await createNotification({ db: db() }, { userId: user.id });
    await createNotification({ db: db() }, { userId: user.id });
    for (let i = 0; i < 3; i++) await createMessage({ db: db() }, { senderId: rider.id, receiverId: user.id });
    const { badges } = await getSessionUserAndBadges({ db: db() }, sessionId);
    expect(badges).toEqual({ pendingRequests: 1, unreadNotifications: 2, unreadMessages: 3 });
    expect(badges).toEqual(await getBadges({ db: db() }, user.id));
  });

  it("reads the user and the three badges as ONE statement of the page's batch (issue 40)", async () => {
    const { user, sessionId } = await sessionFor({});
    await createNotification({ db: db() }, { userId: user.id });
    const sent: number[] = [];
    const client = db().$client;
    const counting = new Proxy(db(), {
      get(target, prop, receiver) {
        if (prop !== "$client") return Reflect.get(target, prop, receiver);
        return {
          prepare: (text: string) => client.prepare(text),
          batch: (statements: D1PreparedStatement[]) => {
            sent.push(statements.length);
            return client.batch(statements);
          },
        };
      },
    }) as Db;
    const found = await getSessionWith({ db: counting }, sessionId, Date.now(), { badges: true, reads: [] });
    expect(found.badges).toEqual({ pendingRequests: 0, unreadNotifications: 1, unreadMessages: 0 });
    expect(sent).toEqual([1]);
  });

  it("binds each request's own session: two users in a row get their own user and badges", async () => {
    const a = await sessionFor({ fullName: "Asha Rao" });
    const b = await sessionFor({ fullName: "Bhavna Iyer" });
    for (let i = 0; i < 3; i++) await createNotification({ db: db() }, { userId: a.user.id });
    await createMessage({ db: db() }, { senderId: a.user.id, receiverId: b.user.id });
    const first = await getSessionUserAndBadges({ db: db() }, a.sessionId);
    const second = await getSessionUserAndBadges({ db: db() }, b.sessionId);
    expect([first.user?.id, first.badges]).toEqual([
      a.user.id,
      { pendingRequests: 0, unreadNotifications: 3, unreadMessages: 0 },
    ]);
    expect([second.user?.id, second.badges]).toEqual([
      b.user.id,
      { pendingRequests: 0, unreadNotifications: 0, unreadMessages: 1 },
    ]);
  });

  it("caps the merged counts as getBadges does (99+)", async () => {
    const { user, sessionId } = await sessionFor({});
    for (let i = 0; i < 120; i++) await createNotification({ db: db() }, { userId: user.id });
    const { badges } = await getSessionUserAndBadges({ db: db() }, sessionId);
    expect(badges?.unreadNotifications).toBe(100);
    expect(badges).toEqual(await getBadges({ db: db() }, user.id));
  });

  it("finds no one behind an unknown, expired or suspended session", async () => {
    const { user, sessionId } = await sessionFor({});
    const ctx = { db: db() };
    expect(await getSessionUserAndBadges(ctx, "no-such-session")).toEqual({ user: null, badges: null });
    expect(await getSessionUser(ctx, sessionId, Date.now() + 31 * 86_400_000)).toBeNull();
    await db().update(users).set({ suspendedAt: Date.now() }).where(eq(users.id, user.id));
    expect(await getSessionUserAndBadges(ctx, sessionId)).toEqual({ user: null, badges: null });
    expect(await getSessionUser(ctx, sessionId)).toBeNull();
  });

  it("builds no SQL on a later request: a client whose query builder is gone still reads", async () => {
    const { user, sessionId } = await sessionFor({});
    await getSessionUserAndBadges({ db: db() }, sessionId);
    const noBuilder = new Proxy(db(), {
      get(target, prop, receiver) {
        if (prop === "select" || prop === "batch") throw new Error(`built again: db.${String(prop)}`);
        return Reflect.get(target, prop, receiver);
      },
    }) as Db;
    expect((await getSessionUserAndBadges({ db: noBuilder }, sessionId)).user?.id).toBe(user.id);
    expect((await getSessionUser({ db: noBuilder }, sessionId))?.id).toBe(user.id);
  });
});
