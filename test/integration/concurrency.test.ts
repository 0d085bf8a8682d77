// The database guards the invariants under parallel requests through the real worker.
// Each invariant is exercised in 20 independent rounds of parallel requests (the seat
// capacity one lives in rides.test.ts: 20 rounds of 20 concurrent accepts).
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { completeReferral, ensureReferralCode, redeemReferralCode } from "~/models/referrals.server";
import { addMember, createCommunity, createRide, createRideRequest, createUser } from "../../db/factories";
import { db, postForm, signedInUser } from "../support/worker";

const ROUNDS = 20;
const count = async (sql: string, ...params: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>())!.n;

describe(`concurrency invariants, ${ROUNDS} rounds each`, () => {
  it("no duplicate ride requests: 8 parallel identical requests leave one live request per round", async () => {
    const driver = await createUser({ db: db() });
    const rider = await signedInUser();
    for (let round = 0; round < ROUNDS; round++) {
      const ride = await createRide({ db: db() }, { driverId: driver.id, seats: 6 });
      const results = await Promise.all(
        Array.from({ length: 8 }, () => postForm(`/rides/${ride.id}/book`, { seats: "1" }, { cookie: rider.cookie })),
      );
      expect(
        results.filter((r) => r.status === 302),
        `round ${round}`,
      ).toHaveLength(1);
      expect(await count("SELECT count(*) AS n FROM ride_requests WHERE ride_id = ?", ride.id)).toBe(1);
      expect(
        await count(
          "SELECT count(*) AS n FROM notifications WHERE user_id = ? AND json_extract(data, '$.ride_id') = ?",
          driver.id,
          ride.id,
        ),
      ).toBe(1);
    }
  }, 300_000);

  it("referral credit granted once: 8 parallel redemptions, then 8 parallel completions, credit 375 + 750 once per round", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const referrer = await createUser({ db: db() });
      const code = await ensureReferralCode({ db: db() }, referrer.id);
      // A verified e-mail: referrals wait for one (issue 15).
      const newcomer = await createUser({ db: db() }, { emailVerifiedAt: Date.now() });
      const results = await Promise.all(
        Array.from({ length: 8 }, () => redeemReferralCode({ db: db() }, newcomer.id, code)),
      );
      expect(
        results.filter((r) => r.ok),
        `round ${round}`,
      ).toHaveLength(1);
      // The referrer's credit waits for the new account to be real (issue 19 finding 8).
      const completions = await Promise.all(
        Array.from({ length: 8 }, () => completeReferral({ db: db() }, newcomer.id)),
      );
      expect(
        completions.filter((c) => c.status === "completed"),
        `round ${round}`,
      ).toHaveLength(1);
      expect(await count("SELECT credits AS n FROM user_credits WHERE user_id = ?", newcomer.id)).toBe(375);
      expect(await count("SELECT credits AS n FROM user_credits WHERE user_id = ?", referrer.id)).toBe(750);
      expect(
        await count("SELECT count(*) AS n FROM credit_transactions WHERE user_id IN (?, ?)", newcomer.id, referrer.id),
      ).toBe(2);
    }
  }, 300_000);

  it("community member counts exact: parallel joins, double approvals and leaves", async () => {
    const owner = await signedInUser();
    const people = await Promise.all(Array.from({ length: 6 }, () => signedInUser()));
    for (let round = 0; round < ROUNDS; round++) {
      const c = await createCommunity({ db: db() }, { createdBy: owner.id, name: `Round ${round} Carpool` });
      const leaver = await signedInUser();
      await addMember({ db: db() }, { communityId: c.id, userId: leaver.id });
      await Promise.all(
        [...people, ...people.slice(0, 2)].map((p) =>
          postForm("/communities?index", { intent: "join", communityId: c.id }, { cookie: p.cookie }),
        ),
      );
      const pending = (
        await env.DB.prepare("SELECT id FROM community_members WHERE community_id = ? AND status = 'pending'")
          .bind(c.id)
          .all<{ id: string }>()
      ).results;
      expect(pending, `round ${round}`).toHaveLength(6);
      await Promise.all([
        ...[...pending, ...pending.slice(0, 3)].map((m) =>
          postForm(`/communities/${c.id}`, { intent: "approve", memberId: m.id }, { cookie: owner.cookie }),
        ),
        postForm("/communities?index", { intent: "leave", communityId: c.id }, { cookie: leaver.cookie }),
      ]);
      const approved = await count(
        "SELECT count(*) AS n FROM community_members WHERE community_id = ? AND status = 'approved'",
        c.id,
      );
      expect(approved).toBe(7); // owner + 6
      expect(await count("SELECT member_count AS n FROM communities WHERE id = ?", c.id)).toBe(approved);
    }
  }, 300_000);

  it("a ride completed by parallel requests creates one set of payments", async () => {
    const driver = await signedInUser();
    const riders = await Promise.all(Array.from({ length: 2 }, () => createUser({ db: db() })));
    for (let round = 0; round < ROUNDS; round++) {
      const ride = await createRide(
        { db: db() },
        { driverId: driver.id, seats: 3, date: "2026-01-05", time: "08:00", tripCostPaise: 30000 },
      );
      for (const r of riders)
        await createRideRequest({ db: db() }, { rideId: ride.id, riderId: r.id, status: "accepted" });
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          postForm(`/rides/${ride.id}/completion`, { intent: "complete" }, { cookie: driver.cookie }),
        ),
      );
      expect(
        results.every((r) => r.status === 302),
        `round ${round}`,
      ).toBe(true);
      expect(await count("SELECT count(*) AS n FROM payments WHERE ride_id = ?", ride.id)).toBe(2);
      expect(await count("SELECT count(*) AS n FROM rides WHERE id = ? AND status = 'completed'", ride.id)).toBe(1);
    }
  }, 300_000);
});
