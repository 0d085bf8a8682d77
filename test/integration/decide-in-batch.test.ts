// Issue 17 (ADR 0029): pages that decide on a row (the viewer's membership, whether they are
// on the ride) read it in the same batch as the reads it decides. Those reads are guarded
// in SQL by the same rule, so a viewer who may not see them gets the same answer as before
// AND the batch itself returns none of the rows they may not see. Each model call below runs
// on an instrumented database; every statement it ran is replayed to see what it returned.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRide, createRideRequest } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { getCommunityDetail } from "~/models/communities.server";
import { completeRide, getCompletionView } from "~/models/completion.server";
import type { ModelCtx } from "~/models/context.server";
import { createDb } from "~/models/db.server";
import { ForbiddenError, NotFoundError } from "~/models/errors.server";
import { listCommunityReports, reportUser } from "~/models/safety.server";
import { instrumentD1, newD1Stats, recordedQueries } from "~/utils/d1-stats.server";
import { db, get, signedInUser } from "../support/worker";

/** Runs `fn` on an instrumented db: its result or error, its round trips, and every row its statements returned. */
async function traced<T>(fn: (ctx: ModelCtx) => Promise<T>) {
  const stats = newD1Stats();
  recordedQueries.length = 0;
  let result: T | undefined;
  let error: unknown;
  try {
    result = await fn({ db: createDb(instrumentD1(env.DB, stats)) });
  } catch (e) {
    error = e;
  }
  const statements = [...recordedQueries];
  const returned = JSON.stringify(
    await Promise.all(
      statements.map(
        async (q) =>
          (
            await env.DB.prepare(q.sql)
              .bind(...q.params)
              .all()
          ).results,
      ),
    ),
  );
  return { result, error, queries: stats.queries, statements: statements.length, returned };
}

describe("a community page decides the viewer's membership in the lists' own batch", () => {
  async function closedCommunity() {
    const creator = await signedInUser({ fullName: "Chitra Creator" });
    const member = await signedInUser({ fullName: "Meera Member" });
    const pending = await signedInUser({ fullName: "Pavan Pending" });
    const rejected = await signedInUser({ fullName: "Rohan Rejected" });
    const outsider = await signedInUser({ fullName: "Omar Outsider" });
    const community = await createCommunity({ db: db() }, { createdBy: creator.id, name: "Whitefield Residents" });
    await addMember({ db: db() }, { communityId: community.id, userId: member.id, status: "approved" });
    await addMember({ db: db() }, { communityId: community.id, userId: pending.id, status: "pending" });
    await addMember({ db: db() }, { communityId: community.id, userId: rejected.id, status: "rejected" });
    return { creator, member, pending, rejected, outsider, community };
  }

  it("a non-member, a pending and a rejected user: the card only, as before, and the batch returns no one's membership", async () => {
    const { member, pending, rejected, outsider, community } = await closedCommunity();
    for (const viewer of [outsider, pending, rejected]) {
      const res = await get(`/communities/${community.id}?tab=moderation`, { cookie: viewer.cookie });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('data-testid="members-hidden"');
      for (const other of [member, pending, rejected].filter((u) => u !== viewer))
        expect(html).not.toContain(other.fullName);

      const t = await traced((ctx) => getCommunityDetail(ctx, viewer.id, community.id, { moderation: true }));
      expect(t.error).toBeUndefined();
      expect(t.queries).toBe(1);
      expect(t.result).toMatchObject({
        membersVisible: false,
        canModerate: false,
        members: [],
        pending: [],
        rejected: [],
        pendingCount: 0,
        rejectedCount: 0,
      });
      // Not even the ids: no statement of the batch returned another member's row.
      for (const other of [member, pending, rejected].filter((u) => u !== viewer))
        expect(t.returned).not.toContain(other.id);
    }
  });

  it("an approved member sees the members but the batch returns no join request; the creator gets both", async () => {
    const { creator, member, pending, rejected, community } = await closedCommunity();
    const asMember = await traced((ctx) => getCommunityDetail(ctx, member.id, community.id, { moderation: true }));
    expect(asMember.queries).toBe(1);
    expect(asMember.result).toMatchObject({
      membersVisible: true,
      canModerate: false,
      pending: [],
      rejected: [],
      pendingCount: 0,
      rejectedCount: 0,
    });
    expect(asMember.result!.members.map((m) => m.userId).sort()).toEqual([creator.id, member.id].sort());
    expect(asMember.returned).not.toContain(pending.id);
    expect(asMember.returned).not.toContain(rejected.id);
    const memberPage = await (
      await get(`/communities/${community.id}?tab=moderation`, { cookie: member.cookie })
    ).text();
    expect(memberPage).toContain("Chitra Creator");
    expect(memberPage).not.toContain("Pavan Pending");

    // The same guards let the moderator through (the test above is not vacuous).
    const asCreator = await traced((ctx) => getCommunityDetail(ctx, creator.id, community.id, { moderation: true }));
    expect(asCreator.queries).toBe(1);
    expect(asCreator.result).toMatchObject({ canModerate: true, pendingCount: 1, rejectedCount: 1 });
    expect(asCreator.result!.pending.map((m) => m.userId)).toEqual([pending.id]);
    expect(asCreator.result!.rejected.map((m) => m.userId)).toEqual([rejected.id]);
  });

  it("a missing community is still 404 from the same batch", async () => {
    const { outsider } = await closedCommunity();
    const t = await traced((ctx) => getCommunityDetail(ctx, outsider.id, "no-such-community"));
    expect(t.error).toBeInstanceOf(NotFoundError);
    expect(t.queries).toBe(1);
    expect((await get("/communities/no-such-community", { cookie: outsider.cookie })).status).toBe(404);
  });
});

describe("a ride's completion page decides who is on the ride in the same batch", () => {
  async function completedRide(communityOnly: boolean) {
    const driver = await signedInUser({ fullName: "Divya Driver" });
    const rider = await signedInUser({ fullName: "Ravi Rider" });
    const stranger = await signedInUser({ fullName: "Sanjay Stranger" });
    const community = await createCommunity({ db: db() }, { createdBy: driver.id });
    await addMember({ db: db() }, { communityId: community.id, userId: rider.id, status: "approved" });
    const ride = await createRide(
      { db: db() },
      { driverId: driver.id, communityId: communityOnly ? community.id : null, date: addDays(istDate(), -1) },
    );
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, status: "accepted" });
    await completeRide({ db: db() }, driver.id, ride.id);
    return { driver, rider, stranger, ride };
  }

  it("a stranger on a public ride: 403 as before, and the batch returns no payment, rider or no-show mark", async () => {
    const { rider, stranger, ride } = await completedRide(false);
    expect((await get(`/rides/${ride.id}/completion`, { cookie: stranger.cookie })).status).toBe(403);
    const t = await traced((ctx) => getCompletionView(ctx, stranger.id, ride.id));
    expect(t.error).toBeInstanceOf(ForbiddenError);
    expect(t.queries).toBe(1);
    expect(t.returned).not.toContain(rider.id);
    // The rider reads their own page from the same statements (so the guard is not what hides it).
    const own = await traced((ctx) => getCompletionView(ctx, rider.id, ride.id));
    expect(own.queries).toBe(1);
    expect(own.result!.breakdown!.riders.map((r) => r.userId)).toEqual([rider.id]);
  });

  it("an outsider of a community ride: 404 as for a missing ride, and the batch returns no rider", async () => {
    const { driver, rider, stranger, ride } = await completedRide(true);
    expect((await get(`/rides/${ride.id}/completion`, { cookie: stranger.cookie })).status).toBe(404);
    const t = await traced((ctx) => getCompletionView(ctx, stranger.id, ride.id));
    expect(t.error).toBeInstanceOf(NotFoundError);
    expect(t.queries).toBe(1);
    expect(t.returned).not.toContain(rider.id);
    const asDriver = await traced((ctx) => getCompletionView(ctx, driver.id, ride.id));
    expect(asDriver.result!.viewer).toEqual({ isDriver: true, isParticipant: true });
    expect(asDriver.result!.noShows.map((r) => r.userId)).toEqual([rider.id]);
  });
});

describe("a community's reports are read for its admins only, in SQL too", () => {
  it("a plain member and an outsider are refused and the batch returns no report; the creator and an admin see it", async () => {
    const creator = await signedInUser({ fullName: "Chitra Creator" });
    const admin = await signedInUser({ fullName: "Anil Admin" });
    const member = await signedInUser({ fullName: "Meera Member" });
    const reported = await signedInUser({ fullName: "Ravi Reported" });
    const outsider = await signedInUser({ fullName: "Omar Outsider" });
    const community = await createCommunity({ db: db() }, { createdBy: creator.id, name: "Koramangala Commuters" });
    await addMember({ db: db() }, { communityId: community.id, userId: admin.id, status: "approved", role: "admin" });
    for (const u of [member, reported])
      await addMember({ db: db() }, { communityId: community.id, userId: u.id, status: "approved" });
    const details = "Shouted at riders at the Sony signal";
    await reportUser({ db: db(), env }, member.id, reported.id, { reason: "harassment", details, context: "profile" });

    for (const viewer of [member, reported, outsider]) {
      const t = await traced((ctx) => listCommunityReports(ctx, viewer.id, community.id));
      expect(t.error).toBeInstanceOf(ForbiddenError);
      expect(t.queries).toBe(1);
      expect(t.returned).not.toContain(details);
    }
    for (const viewer of [creator, admin]) {
      const t = await traced((ctx) => listCommunityReports(ctx, viewer.id, community.id));
      expect(t.error).toBeUndefined();
      expect((t.result as Awaited<ReturnType<typeof listCommunityReports>>).reports.map((r) => r.details)).toEqual([
        details,
      ]);
    }
  });
});
