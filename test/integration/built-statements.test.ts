import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { rides } from "../../db/schema";
import { createNotification, createRide, createRideRequest } from "../../db/factories";
import { istDate } from "~/domain/time";
import { dashboardReads } from "~/models/dashboard.server";
import type { Db } from "~/models/db.server";
import { ownProfileRead } from "~/models/profiles.server";
import { discoverReads } from "~/models/ride-discovery.server";
import { savedSearchesRead } from "~/models/saved-searches.server";
import type { Viewer } from "~/models/sessions.server";
import { builtKeys, builtOnce, forgetBuiltStatements, type Read, runReads } from "~/models/statements.server";
import { discoverFiltersSchema } from "~/schemas/ride-search";
import { BASE, db, signedInUser } from "../support/worker";
import { debugFetch } from "../support/worker-fetch";
import { env } from "../support/env";
import { createDb } from "~/models/db.server";
import { getUser, requireUserWith } from "~/utils/auth.server";
import { instrumentD1, newD1Stats } from "~/utils/d1-stats.server";

// ADR 0063: the dashboard's and Discover's statements are built once per isolate and shape;
// later requests bind their own values to the same text. And a page's reads come in the
// session's own round trip, keyed on the session's owner.

const HOUR = 3_600_000;
const plain = discoverFiltersSchema.parse({});
const women = discoverFiltersSchema.parse({ women: "1" });

/** Every read of the two pages, for a viewer at an instant (with and without a cursor). */
const pageReads = (d: Db, viewer: Viewer, now: number): Read[] => [
  ...dashboardReads(d, viewer, now, null),
  ...dashboardReads(d, viewer, now, { at: now - HOUR, id: "zzz" }),
  ownProfileRead(d, viewer),
  ...discoverReads(d, viewer, plain, now),
  ...discoverReads(d, viewer, women, now),
  savedSearchesRead(d, viewer),
];

const text = (reads: Read[]) => reads.map((r) => ({ sql: r.sql, params: r.params }));

async function world() {
  // Drivers: a rider without a car also reads the communities near home, after the session.
  const me = await signedInUser({ profile: { vehicleInfo: { has_car: true, car_type: "petrol" } } });
  const other = await signedInUser({ profile: { vehicleInfo: { has_car: true, car_type: "petrol" } } });
  const now = Date.now();
  const mine = await createRide({ db: db() }, { driverId: me.id });
  const theirs = await createRide({ db: db() }, { driverId: other.id });
  await createRideRequest({ db: db() }, { rideId: mine.id, riderId: other.id, status: "accepted" });
  await createRideRequest({ db: db() }, { rideId: theirs.id, riderId: me.id, status: "pending" });
  await createNotification({ db: db() }, { userId: me.id, type: "ride_request", title: "A seat", message: "Hi" });
  return { me, other, now };
}

describe("statements built once (ADR 0063)", () => {
  beforeEach(() => forgetBuiltStatements());

  it("bind a later request's values to the text drizzle builds for them, and read the same rows", async () => {
    const { me, other, now } = await world();
    // Learned from another user at another instant (ten days and some minutes later)...
    pageReads(db(), { userId: other.id }, now + 10 * 24 * HOUR + 17 * 60_000);
    pageReads(db(), { sessionId: other.sessionId, now: now + 3 }, now + 10 * 24 * HOUR);
    for (const viewer of [{ userId: me.id }, { sessionId: me.sessionId, now }] as Viewer[]) {
      const cached = pageReads(db(), viewer, now);
      const cachedRows = await runReads(db(), cached);
      // ...and learned from these very values, which is drizzle's own build of them.
      forgetBuiltStatements();
      const fresh = pageReads(db(), viewer, now);
      expect(text(cached)).toEqual(text(fresh));
      expect(cachedRows).toEqual(await runReads(db(), fresh));
    }
    // The viewer's own rows are there: the ride I drive, my request, my notification.
    const [driven] = await runReads(db(), dashboardReads(db(), { sessionId: me.sessionId, now }, now, null));
    expect(driven.map((r) => r.id)).toContain((await db().select().from(rides).where(eq(rides.driverId, me.id)))[0].id);
  });

  it("builds no SQL on a later request: a client whose query builder is gone still reads", async () => {
    const { me, now } = await world();
    pageReads(db(), { userId: me.id }, now);
    pageReads(db(), { sessionId: me.sessionId, now }, now);
    const noBuilder = new Proxy(db(), {
      get(target, prop, receiver) {
        if (prop === "select" || prop === "batch") throw new Error(`built again: db.${String(prop)}`);
        return Reflect.get(target, prop, receiver);
      },
    }) as Db;
    for (const viewer of [{ userId: me.id }, { sessionId: me.sessionId, now: now + 1 }] as Viewer[]) {
      const rows = await runReads(noBuilder, pageReads(noBuilder, viewer, now + 60_000));
      expect(rows.length).toBe(pageReads(db(), viewer, now).length);
    }
    expect(builtKeys().length).toBeGreaterThan(40);
  });

  it("builds per call a statement whose parameter is computed from a value", async () => {
    const { me, now } = await world();
    const make = (v: { driver: string; now: number }) =>
      db()
        .select({ id: rides.id })
        .from(rides)
        .where(eq(rides.date, istDate(v.now + 24 * HOUR)));
    const today = await runReads(db(), [builtOnce(db(), "test:computed", { driver: me.id, now }, make)]);
    const later = builtOnce(db(), "test:computed", { driver: me.id, now: now + 40 * 24 * HOUR }, make);
    expect(builtKeys()).not.toContain("test:computed");
    expect(later.params).toEqual([istDate(now + 41 * 24 * HOUR)]);
    expect(today[0].length).toBeGreaterThan(0);
    expect((await runReads(db(), [later]))[0]).toEqual([]);
  });
});

function d1Queries(res: Response) {
  const m = /d1;(?:dur=[\d.]+;)?desc="([^"]*)"/.exec(res.headers.get("Server-Timing") ?? "");
  return Number(/queries=(\d+)/.exec(m?.[1] ?? "")?.[1]);
}

describe("a page's reads in the session's round trip (ADR 0063)", () => {
  it("the dashboard and Discover are one round trip, with the viewer's own rows", async () => {
    const { me } = await world();
    const dashboard = await debugFetch(`${BASE}/dashboard`, { headers: { Cookie: me.cookie } });
    expect(dashboard.status).toBe(200);
    expect(d1Queries(dashboard)).toBe(1);
    const html = await dashboard.text();
    expect(html).toContain("A seat");
    const discover = await debugFetch(`${BASE}/rides`, { headers: { Cookie: me.cookie } });
    expect(discover.status).toBe(200);
    expect(d1Queries(discover)).toBe(1);
    expect(await discover.text()).toContain("Discover Rides");
  });

  it("a distance search and a rider without a car still take two", async () => {
    // The communities near home need the rider's home: read once the session is known.
    const rider = await signedInUser({ profile: { residentialArea: "HSR Layout" } });
    const dashboard = await debugFetch(`${BASE}/dashboard`, { headers: { Cookie: rider.cookie } });
    expect(dashboard.status).toBe(200);
    expect(d1Queries(dashboard)).toBe(2);
    const date = istDate(Date.now() + 24 * HOUR);
    const search = await debugFetch(`${BASE}/rides?from=Koramangala&to=Whitefield+ITPL&date=${date}&time=09:00`, {
      headers: { Cookie: rider.cookie },
    });
    expect(search.status).toBe(200);
    expect(d1Queries(search)).toBe(2);
  });

  it("an expired or unknown session reads nothing of anyone's and goes to sign in", async () => {
    const { me } = await world();
    await db().$client.prepare("UPDATE sessions SET expires_at = 1 WHERE id = ?").bind(me.sessionId).run();
    for (const path of ["/dashboard", "/rides"]) {
      const res = await debugFetch(`${BASE}${path}`, { headers: { Cookie: me.cookie } });
      expect(res.status, path).toBe(302);
      expect(res.headers.get("Location"), path).toMatch(/^\/login\?redirectTo=/);
    }
    // Its owner is no one, so the page's reads find no rows.
    const rows = await runReads(
      db(),
      dashboardReads(db(), { sessionId: me.sessionId, now: Date.now() }, Date.now(), null),
    );
    expect(rows.every((r) => r.length === 0)).toBe(true);
  });

  it("reads asked for once the session was read come keyed on the user, with `then`, in one round trip", async () => {
    const { me } = await world();
    const stats = newD1Stats();
    const context = { db: createDb(instrumentD1(env.DB, stats)), env };
    const request = new Request(`${BASE}/dashboard`, { headers: { Cookie: me.cookie } });
    // As an action does before the loaders run: the session is read first.
    expect((await getUser(request, context))?.id).toBe(me.id);
    const before = stats.queries;
    const { user, page, then } = await requireUserWith(
      request,
      context,
      (viewer) => [ownProfileRead(context.db, viewer)] as const,
      { then: (u) => [ownProfileRead(context.db, { userId: u.id })] as const },
    );
    expect(stats.queries - before).toBe(1);
    expect(user.id).toBe(me.id);
    expect(page[0]).toHaveLength(1);
    expect(page[0]).toEqual(then[0]);
  });
});
