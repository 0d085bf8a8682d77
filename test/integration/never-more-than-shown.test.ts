import { env } from "../support/env";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRide, createUser } from "../../db/factories";
import { shownMaxPaise } from "~/domain/cost-split";
import { formatRupees } from "~/domain/money";
import { addDays, istDate } from "~/domain/time";
import { completeRide } from "~/models/completion.server";
import { cancelRequest, decideRequest, requestSeats } from "~/models/ride-requests.server";
import { db, get, postForm, signedInUser } from "../support/worker";

// Issue 35, item 5 (ADR 0046): the price a rider sees is the price they pay, or less.

const ctx = () => ({ db: db() });
const text = (html: string) => html.replace(/<!--.*?-->/g, "").replace(/<[^>]+>/g, "");

async function communityRide(tripCostPaise: number, seats: number) {
  const driver = await signedInUser({ fullName: "Priya Driver" });
  const community = await createCommunity(
    { db: db() },
    { createdBy: driver.id, name: `HSR Layout Sector 2 ${crypto.randomUUID().slice(0, 8)}` },
  );
  const ride = await createRide(
    { db: db() },
    { driverId: driver.id, communityId: community.id, seats, tripCostPaise, date: addDays(istDate(), 3) },
  );
  return { driver, community, ride };
}

describe("equal split never charges more than was shown", () => {
  it("₹200, 3 seats, one rider: shown 'at most ₹66.66' on the booking page and confirmation, owes ₹66.66", async () => {
    const { driver, community, ride } = await communityRide(20000, 3);
    const rider = await signedInUser({ fullName: "Asha Rider" });
    await addMember({ db: db() }, { communityId: community.id, userId: rider.id });

    const page = text(await (await get(`/rides/${ride.id}/book`, { cookie: rider.cookie })).text());
    expect(page).toContain("at most ₹66.66; less if more riders join");
    expect(page).toContain("1 seat · at most ₹66.66; less if more riders join");

    const booked = await postForm(`/rides/${ride.id}/book`, { seats: "1", notes: "" }, { cookie: rider.cookie });
    expect(booked.status).toBe(302);
    const confirmation = booked.headers.get("Location")!;
    const request = await env.DB.prepare("SELECT id, quoted_paise FROM ride_requests WHERE ride_id = ?")
      .bind(ride.id)
      .first<{ id: string; quoted_paise: number }>();
    expect(request!.quoted_paise).toBe(6666);
    const shown = text(await (await get(confirmation, { cookie: rider.cookie })).text());
    expect(shown).toContain("at most ₹66.66; less if more riders join");

    await decideRequest(ctx(), driver.id, request!.id, "accepted");
    await completeRide(ctx(), driver.id, ride.id, ride.departsAt + 3_600_000);
    const paid = await env.DB.prepare("SELECT amount_paise FROM payments WHERE ride_id = ?").bind(ride.id).first();
    // Before ADR 0046 the equal share was ₹200 / 2 = ₹100.
    expect(paid).toEqual({ amount_paise: 6666 });
    const completion = text(await (await get(`/rides/${ride.id}/completion`, { cookie: driver.cookie })).text());
    // The driver's own share covers the rest: ₹200 − ₹66.66.
    expect(completion).toContain("₹133.34");
  });

  it("a price raised after booking is not charged: the recorded figure caps it", async () => {
    const { driver, community, ride } = await communityRide(30000, 3);
    const [a, b] = [await createUser({ db: db() }), await createUser({ db: db() })];
    for (const u of [a, b]) await addMember({ db: db() }, { communityId: community.id, userId: u.id });
    const now = ride.departsAt - 2 * 86_400_000;
    const ra = await requestSeats(ctx(), a.id, ride.id, { seats: 1, notes: null }, now);
    const rb = await requestSeats(ctx(), b.id, ride.id, { seats: 1, notes: null }, now);
    for (const r of [ra, rb]) await decideRequest(ctx(), driver.id, r.id, "accepted", now);
    // A driver's later change of the trip cost (a commute edit) moves the ride's price up.
    await env.DB.prepare("UPDATE rides SET trip_cost_paise = 60000 WHERE id = ?").bind(ride.id).run();
    await completeRide(ctx(), driver.id, ride.id, ride.departsAt + 3_600_000);
    const paid = await env.DB.prepare("SELECT amount_paise FROM payments WHERE ride_id = ?").bind(ride.id).all();
    expect(paid.results.map((p) => p.amount_paise)).toEqual([10000, 10000]);
  });

  type Step =
    | { kind: "join"; who: number; seats: number; accept: boolean }
    | { kind: "cancel" | "reject"; who: number };
  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.record({
      kind: fc.constant("join" as const),
      who: fc.integer({ min: 0, max: 4 }),
      seats: fc.integer({ min: 1, max: 3 }),
      accept: fc.boolean(),
    }),
    fc.record({ kind: fc.constantFrom("cancel" as const, "reject" as const), who: fc.integer({ min: 0, max: 4 }) }),
  );

  it("property: riders joining, cancelling and being rejected; no one pays more than shown, the trip cost adds up", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 600_000 }),
        fc.integer({ min: 1, max: 6 }),
        fc.array(step, { minLength: 1, maxLength: 10 }),
        async (tripCostPaise, seats, steps) => {
          const { driver, community, ride } = await communityRide(tripCostPaise, seats);
          const riders = [];
          for (let i = 0; i < 5; i++) {
            const u = await createUser({ db: db() }, { fullName: `Rider ${i}` });
            await addMember({ db: db() }, { communityId: community.id, userId: u.id });
            riders.push(u.id);
          }
          const now = ride.departsAt - 2 * 86_400_000;
          // What the booking page showed each live request, by request id.
          const shown = new Map<string, number>();
          const live = new Map<number, string>();
          for (const s of steps) {
            const id = live.get(s.who);
            if (s.kind === "join") {
              if (id) continue;
              const r = await requestSeats(ctx(), riders[s.who], ride.id, { seats: s.seats, notes: null }, now).catch(
                () => null, // the ride is full: the booking page refuses it
              );
              if (!r) continue;
              shown.set(r.id, shownMaxPaise(tripCostPaise, seats, s.seats));
              live.set(s.who, r.id);
              if (s.accept) await decideRequest(ctx(), driver.id, r.id, "accepted", now).catch(() => null);
            } else if (id) {
              if (s.kind === "cancel") await cancelRequest(ctx(), riders[s.who], id, now);
              else await decideRequest(ctx(), driver.id, id, "rejected", now).catch(() => null);
              live.delete(s.who);
            }
          }
          const accepted = await env.DB.prepare(
            "SELECT id, rider_id FROM ride_requests WHERE ride_id = ? AND status = 'accepted'",
          )
            .bind(ride.id)
            .all<{ id: string; rider_id: string }>();
          if (accepted.results.length === 0) return;
          await completeRide(ctx(), driver.id, ride.id, ride.departsAt + 3_600_000);
          const { results: pays } = await env.DB.prepare(
            "SELECT payer_id, amount_paise FROM payments WHERE ride_id = ?",
          )
            .bind(ride.id)
            .all<{ payer_id: string; amount_paise: number }>();
          expect(pays).toHaveLength(accepted.results.length);
          for (const r of accepted.results) {
            const pay = pays.find((p) => p.payer_id === r.rider_id)!;
            expect(pay.amount_paise).toBeLessThanOrEqual(shown.get(r.id)!);
          }
          // The driver covers the rest: never negative, never less than an equal share.
          const collected = pays.reduce((n, p) => n + p.amount_paise, 0);
          const driverShare = tripCostPaise - collected;
          expect(driverShare).toBeGreaterThanOrEqual(Math.floor(tripCostPaise / (pays.length + 1)));
          expect(collected + driverShare).toBe(tripCostPaise);
          // The completion page shows the driver's line as that rest.
          const view = text(await (await get(`/rides/${ride.id}/completion`, { cookie: driver.cookie })).text());
          expect(view).toContain(`Equal share${formatRupees(driverShare)}`);
        },
      ),
      { numRuns: 20 },
    );
  });
});
