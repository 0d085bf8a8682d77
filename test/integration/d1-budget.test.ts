import { describe, expect, it } from "vitest";
import { env } from "../support/env";
import { instrumentD1, newD1Stats, statementRowsLine } from "~/utils/d1-stats.server";
import { addMember, createCommunity, createRide, createRideRequest } from "../../db/factories";
import { BASE, db, signedInUser } from "../support/worker";
import { debugFetch } from "../support/worker-fetch";

function d1Stats(res: Response) {
  const header = res.headers.get("Server-Timing") ?? "";
  const m = /d1;(?:dur=[\d.]+;)?desc="([^"]*)"/.exec(header);
  expect(m, "Server-Timing d1 entry").not.toBeNull();
  return Object.fromEntries(
    m![1]
      .split(" ")
      .map((kv) => kv.split("="))
      .map(([k, v]) => [k, Number(v)]),
  ) as Record<string, number>;
}

describe("D1 round trips per page (budget: at most 5)", () => {
  it("reports queries and rows read in Server-Timing when DEBUG_TIMING=1", async () => {
    const res = await debugFetch(`${BASE}/pricing`);
    const stats = d1Stats(res);
    expect(stats.queries).toBe(0);
  });

  it("signed-in pages stay within 5 D1 round trips", async () => {
    const user = await signedInUser();
    const other = await signedInUser();
    const community = await createCommunity({ db: db() }, { createdBy: user.id });
    await addMember({ db: db() }, { communityId: community.id, userId: other.id });
    const ride = await createRide({ db: db() }, { driverId: user.id, communityId: community.id });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: other.id, status: "pending" });
    const pages = [
      "/dashboard",
      "/dashboard/profile",
      "/dashboard/settings",
      "/communities",
      `/communities/${community.id}`,
    ];
    for (const path of pages) {
      const res = await debugFetch(`${BASE}${path}`, { headers: { Cookie: user.cookie } });
      expect(res.status, path).toBe(200);
      const stats = d1Stats(res);
      expect(stats.queries, `${path}: ${JSON.stringify(stats)}`).toBeLessThanOrEqual(5);
    }
  });

  // Issue 17: the session read and the shell's badges are one round trip on a page, so a
  // page whose own data is one batch costs two.
  it("the session and the sidebar's badges come in one round trip: Communities is two in all, with the badges right", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: driver.id });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, status: "pending" });
    const res = await debugFetch(`${BASE}/communities`, { headers: { Cookie: driver.cookie } });
    expect(res.status).toBe(200);
    expect(d1Stats(res).queries).toBe(2);
    // The driver's My Rides badge counts the pending request.
    expect(await res.text()).toMatch(/data-testid="badge-my-rides" data-count="1"/);
    // A visitor (no session) reads only the list.
    expect(d1Stats(await debugFetch(`${BASE}/communities`)).queries).toBe(1);
  });

  it("the other signed-in pages: the session's round trip and one batch", async () => {
    const u = await signedInUser();
    const other = await signedInUser();
    const community = await createCommunity({ db: db() }, { createdBy: u.id });
    await addMember({ db: db() }, { communityId: community.id, userId: other.id });
    const ride = await createRide({ db: db() }, { driverId: u.id, communityId: community.id });
    const req = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: other.id, status: "accepted" });
    const pages: Array<[string, number]> = [
      ["/dashboard/profile", 2],
      ["/dashboard/settings", 2],
      ["/dashboard/delete-account", 2],
      ["/communities/new", 1],
      [`/communities/${community.id}/reports`, 2],
      ["/commutes/new", 2],
      [`/rides/${ride.id}/book`, 2],
      ["/rides/create", 2],
      [`/booking-confirmation/${req.id}`, 2],
      ["/profile-completion", 2],
      ["/dashboard/my-rides", 2],
      // The person or ride decides in the same batch as what it decides (ADR 0029).
      [`/people/${other.id}`, 2],
      [`/rides/${ride.id}/completion`, 2],
      // Opening a new conversation with someone: the person and the list in one batch.
      [`/dashboard/messages?to=${other.id}`, 2],
    ];
    for (const [path, budget] of pages) {
      const res = await debugFetch(`${BASE}${path}`, { headers: { Cookie: u.cookie } });
      expect(res.status, path).toBe(200);
      expect.soft(d1Stats(res).queries, path).toBeLessThanOrEqual(budget);
    }
  });
});

// Issue 17 (rows read must not grow): a ride's page checks the viewer's membership of that
// ride's community with one seek, not by reading every community they belong to.
describe("rows a ride's page reads do not grow with the viewer's communities", () => {
  it("a member of 1 community and a member of 31 read the same rows on a community ride's page", async () => {
    const driver = await signedInUser({ fullName: "Deepa Driver" });
    const few = await signedInUser({ fullName: "Farah Few" });
    const many = await signedInUser({ fullName: "Manoj Many" });
    const community = await createCommunity({ db: db() }, { createdBy: driver.id, name: "Bellandur Commuters" });
    for (const viewer of [few, many])
      await addMember({ db: db() }, { communityId: community.id, userId: viewer.id, status: "approved" });
    for (let i = 0; i < 30; i++) {
      const other = await createCommunity({ db: db() }, { createdBy: driver.id, name: `Interest group ${i}` });
      await addMember({ db: db() }, { communityId: other.id, userId: many.id, status: "approved" });
    }
    const ride = await createRide({ db: db() }, { driverId: driver.id, communityId: community.id });
    const rowsFor = async (cookie: string) => {
      const res = await debugFetch(`${BASE}/rides/${ride.id}`, { headers: { Cookie: cookie } });
      expect(res.status).toBe(200);
      expect(await res.text()).toContain("Bellandur Commuters");
      return d1Stats(res).rows_read;
    };
    const [fewRows, manyRows] = [await rowsFor(few.cookie), await rowsFor(many.cookie)];
    expect(manyRows, `1 community: ${fewRows} rows; 31 communities: ${manyRows} rows`).toBe(fewRows);
  });
});

// The bench's rows diff (DEBUG_TIMING=statements) learns which statement read the rows.
describe("per-statement rows for the bench", () => {
  it("records each statement of a batch and of a single read with its rows read and rows returned", async () => {
    const user = await signedInUser();
    const stats = newD1Stats({ perStatement: true });
    const d1 = instrumentD1(env.DB, stats);
    const byId = "SELECT id FROM users WHERE id = ?";
    const none = "SELECT id FROM users WHERE id = 'nobody'";
    await d1.batch([d1.prepare(byId).bind(user.id), d1.prepare(none)]);
    await d1.prepare(byId).bind(user.id).first();
    expect(stats.perStatement).toEqual([
      { sql: byId, rowsRead: 1, returned: 1 },
      { sql: none, rowsRead: 0, returned: 0 },
      { sql: byId, rowsRead: 1, returned: 1 },
    ]);
    expect(stats.rowsRead).toBe(2);
    expect(newD1Stats().perStatement, "off unless asked for").toBeUndefined();
  });

  it("the log line keeps a page's path and search as sent, and blanks link tokens", () => {
    const rows = [{ sql: "SELECT  id\n FROM users", rowsRead: 1, returned: 1 }];
    const parse = (line: string) =>
      JSON.parse(line.slice(line.indexOf(" ") + 1)) as { path: string; statements: unknown[] };
    expect(parse(statementRowsLine(new Request(`${BASE}/rides?from=HSR+Layout&radius=10`), rows))).toEqual({
      path: "/rides?from=HSR+Layout&radius=10",
      statements: [{ sql: "SELECT id FROM users", rowsRead: 1, returned: 1 }],
    });
    const reset = statementRowsLine(new Request(`${BASE}/reset-password?token=0123abcd`), rows);
    expect(reset).not.toContain("0123abcd");
    expect(parse(reset).path).toBe("/reset-password?token=redacted");
  });
});
