import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRide, createRideRequest } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { decideRequest, requestSeats } from "~/models/ride-requests.server";
import { lockRemainingSeatsToWomen } from "~/models/rides.server";
import { WOMEN_ONLY_DRIVER } from "~/models/ride-publishing.server";
import { SEATS_LOCKED_TO_WOMEN, WOMEN_ONLY_REFUSED } from "~/models/permissions.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";

// Women-only rides and the comfort lock (issue 16, item 3).

const woman = (fullName: string) => signedInUser({ fullName, profile: { gender: "female" } });
const man = (fullName: string) => signedInUser({ fullName, profile: { gender: "male" } });

async function unchanged<T>(work: () => Promise<T>): Promise<T> {
  const before = await dbChecksum();
  const out = await work();
  expect(changedTables(before, await dbChecksum())).toEqual([]);
  return out;
}

const createForm = (womenOnly: boolean) => ({
  intent: "create",
  fromLocation: "HSR Layout",
  toLocation: "Manyata Tech Park",
  date: addDays(istDate(), 2),
  time: "08:30",
  seats: "3",
  tripCost: "300",
  notes: "",
  ...(womenOnly ? { womenOnly: "on" } : {}),
});

const status = (id: string) =>
  env.DB.prepare("SELECT status FROM ride_requests WHERE id = ?")
    .bind(id)
    .first<{ status: string }>()
    .then((r) => r?.status);

describe("women-only rides", () => {
  it("only a woman driver can offer one; anyone else is told why and nothing is stored", async () => {
    const priya = await woman("Priya Sharma");
    const vikram = await man("Vikram Rao");
    const unsaid = await signedInUser({ fullName: "Chris Unsaid" });
    expect((await postForm("/rides/create", createForm(true), { cookie: priya.cookie })).status).toBe(302);
    expect(await env.DB.prepare("SELECT women_only FROM rides WHERE driver_id = ?").bind(priya.id).first()).toEqual({
      women_only: 1,
    });
    for (const u of [vikram, unsaid]) {
      const res = await unchanged(() => postForm("/rides/create", createForm(true), { cookie: u.cookie }));
      expect(res.status).toBe(400);
      expect(await res.text()).toContain(WOMEN_ONLY_DRIVER.slice(0, 40));
    }
    // The form offers the choice to women only.
    expect(await get("/rides/create", { cookie: priya.cookie }).then((r) => r.text())).toContain(
      "Women only (only women can book seats)",
    );
    expect(await get("/rides/create", { cookie: vikram.cookie }).then((r) => r.text())).not.toContain(
      "Women only (only women can book seats)",
    );
  });

  // Discover reaches a community's rides on its own index path, and "Community rides only" by a
  // merge (ADR 0035): the rule holds on both.
  it("a women-only ride shared with a community is hidden from its men on both Discover paths, and shown to its women", async () => {
    const priya = await woman("Priya Sharma");
    const vikram = await man("Vikram Rao");
    const sneha = await woman("Sneha Iyer");
    const community = await createCommunity({ db: db() }, { createdBy: priya.id, name: "HSR Layout Residents" });
    for (const u of [vikram, sneha]) await addMember({ db: db() }, { communityId: community.id, userId: u.id });
    // ₹10 a seat, so a cost cap's paths list them too (ADR 0037).
    const ride = await createRide(
      { db: db() },
      {
        driverId: priya.id,
        fromLocation: "HSR Layout",
        toLocation: "MG Road",
        communityId: community.id,
        tripCostPaise: 3000,
      },
    );
    const open = await createRide(
      { db: db() },
      {
        driverId: priya.id,
        fromLocation: "HSR Layout",
        toLocation: "Koramangala",
        communityId: community.id,
        tripCostPaise: 3000,
      },
    );
    await env.DB.prepare("UPDATE rides SET women_only = 1 WHERE id = ?").bind(ride.id).run();
    for (const path of ["/rides", "/rides?community=on", "/rides?maxCost=20", `/rides?maxCost=20&date=${ride.date}`]) {
      const his = await get(path, { cookie: vikram.cookie }).then((r) => r.text());
      expect(his, path).not.toContain(`/rides/${ride.id}`);
      expect(his, path).toContain(`/rides/${open.id}`);
      expect(await get(path, { cookie: sneha.cookie }).then((r) => r.text()), path).toContain(`/rides/${ride.id}`);
    }
    // The "Women-only seats" filter reads its own index (ADR 0037): the community's women-only
    // ride for her, not the open one; nothing of it for him.
    const hers = await get("/rides?women=1", { cookie: sneha.cookie }).then((r) => r.text());
    expect(hers).toContain(`/rides/${ride.id}`);
    expect(hers).not.toContain(`/rides/${open.id}`);
    expect(await get("/rides?women=1", { cookie: vikram.cookie }).then((r) => r.text())).not.toContain(
      `/rides/${ride.id}`,
    );
  });

  it("refuses a man's request with the clear message, hides the ride from his discover, and books a woman", async () => {
    const priya = await woman("Priya Sharma");
    const vikram = await man("Vikram Rao");
    const sneha = await woman("Sneha Iyer");
    expect((await postForm("/rides/create", createForm(true), { cookie: priya.cookie })).status).toBe(302);
    const { id } = (await env.DB.prepare("SELECT id FROM rides WHERE driver_id = ?")
      .bind(priya.id)
      .first<{ id: string }>())!;
    const open = await createRide(
      { db: db() },
      { driverId: priya.id, fromLocation: "HSR Layout", toLocation: "MG Road" },
    );

    const his = await get("/rides", { cookie: vikram.cookie }).then((r) => r.text());
    expect(his).not.toContain(`/rides/${id}`);
    expect(his).toContain(`/rides/${open.id}`);
    const hers = await get("/rides", { cookie: sneha.cookie }).then((r) => r.text());
    expect(hers).toContain(`/rides/${id}`);
    // The filter: only rides whose seats are for women.
    const filtered = await get("/rides?women=1", { cookie: sneha.cookie }).then((r) => r.text());
    expect(filtered).toContain(`/rides/${id}`);
    expect(filtered).not.toContain(`/rides/${open.id}`);

    const refused = await unchanged(() => postForm(`/rides/${id}/book`, { seats: "1" }, { cookie: vikram.cookie }));
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(WOMEN_ONLY_REFUSED);
    const booked = await postForm(`/rides/${id}/book`, { seats: "1" }, { cookie: sneha.cookie });
    expect(booked.headers.get("Location")).toMatch(/^\/booking-confirmation\//);
    // Her gender is never shown: only the rule's effect.
    for (const page of [
      await get(`/rides/${id}`, { cookie: sneha.cookie }),
      await get("/rides?women=1", { cookie: sneha.cookie }),
    ]) {
      const html = await page.text();
      expect(html).toContain("Women only");
      expect(html).not.toMatch(/"gender"|female/);
    }
  });
});

describe("the comfort lock", () => {
  async function rideWithWomanBooked(seats = 4) {
    const priya = await woman("Priya Sharma");
    const sneha = await woman("Sneha Iyer");
    const vikram = await man("Vikram Rao");
    const ride = await createRide({ db: db() }, { driverId: priya.id, seats, bookedSeats: 1 });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: sneha.id, status: "accepted" });
    return { priya, sneha, vikram, ride };
  }

  it("locks the open seats to women: a pending man is declined with notice, a new man refused, booked seats kept", async () => {
    const { priya, vikram, ride } = await rideWithWomanBooked();
    const arjun = await man("Arjun Nair");
    const arjunSeat = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: arjun.id, status: "accepted" });
    await env.DB.prepare("UPDATE rides SET booked_seats = 2 WHERE id = ?").bind(ride.id).run();
    const pending = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: vikram.id, status: "pending" });
    expect(await get(`/rides/${ride.id}`, { cookie: priya.cookie }).then((r) => r.text())).toContain(
      "Lock remaining seats to women",
    );

    const res = await postForm(
      `/rides/${ride.id}`,
      { intent: "women-lock", rideId: ride.id },
      { cookie: priya.cookie },
    );
    expect(toastOf(res)?.title).toBe("Remaining seats locked to women");
    expect(await env.DB.prepare("SELECT women_lock_booked FROM rides WHERE id = ?").bind(ride.id).first()).toEqual({
      women_lock_booked: 2,
    });
    expect(await status(pending.id)).toBe("rejected");
    expect(await status(arjunSeat.id)).toBe("accepted");
    expect((await notificationsFor(vikram.id, ["message"])).map((n) => n.message)).toEqual([
      expect.stringContaining(SEATS_LOCKED_TO_WOMEN),
    ]);

    const again = await unchanged(() => postForm(`/rides/${ride.id}/book`, { seats: "1" }, { cookie: vikram.cookie }));
    expect(await again.text()).toContain(SEATS_LOCKED_TO_WOMEN);
    expect(await get("/rides", { cookie: vikram.cookie }).then((r) => r.text())).not.toContain(`/rides/${ride.id}`);
    // A second lock changes nothing.
    const twice = await unchanged(() =>
      postForm(`/rides/${ride.id}`, { intent: "women-lock", rideId: ride.id }, { cookie: priya.cookie }),
    );
    expect(toastOf(twice)?.type).toBe("error");
  });

  it("only the woman driver, and only once a woman has booked", async () => {
    const { sneha, vikram, ride } = await rideWithWomanBooked();
    const lock = (u: { cookie: string }, rideId: string) =>
      postForm(`/rides/${rideId}`, { intent: "women-lock", rideId }, { cookie: u.cookie });
    await unchanged(async () => expect((await lock(sneha, ride.id)).status).toBe(403));
    await unchanged(async () => expect((await lock(vikram, ride.id)).status).toBe(403));
    // A woman driver with only a man booked.
    const asha = await woman("Asha Rao");
    const early = await createRide({ db: db() }, { driverId: asha.id, bookedSeats: 1 });
    await createRideRequest({ db: db() }, { rideId: early.id, riderId: vikram.id, status: "accepted" });
    const res = await unchanged(() => lock(asha, early.id));
    expect(toastOf(res)).toMatchObject({
      type: "error",
      description: "You can lock the remaining seats to women once a woman has booked a seat on this ride.",
    });
    // A man driving, a woman booked: no lock either.
    const ride2 = await createRide({ db: db() }, { driverId: vikram.id, bookedSeats: 1 });
    await createRideRequest({ db: db() }, { rideId: ride2.id, riderId: sneha.id, status: "accepted" });
    await unchanged(async () => expect(toastOf(await lock(vikram, ride2.id))?.type).toBe("error"));
  });

  it("a lock racing accepts and requests never leaves a man on a locked seat (the rule is in the guarded SQL)", async () => {
    const rounds = 6;
    const outcomes: string[] = [];
    for (let i = 0; i < rounds; i++) {
      const { priya, ride } = await rideWithWomanBooked(6);
      const men = await Promise.all([man(`Man A${i}`), man(`Man B${i}`), man(`Man C${i}`)]);
      const pendings = await Promise.all(
        men
          .slice(0, 2)
          .map((m) => createRideRequest({ db: db() }, { rideId: ride.id, riderId: m.id, status: "pending" })),
      );
      const ctx = { db: db() };
      const settled = await Promise.allSettled([
        lockRemainingSeatsToWomen(ctx, priya.id, ride.id),
        ...pendings.map((p) => decideRequest(ctx, priya.id, p.id, "accepted")),
        requestSeats(ctx, men[2].id, ride.id, { seats: 1, notes: null }),
      ]);
      outcomes.push(settled.map((s) => s.status[0]).join(""));
      expect(settled[0].status).toBe("fulfilled");
      const row = (await env.DB.prepare("SELECT women_lock_booked, booked_seats FROM rides WHERE id = ?")
        .bind(ride.id)
        .first<{ women_lock_booked: number; booked_seats: number }>())!;
      const menSeats = await env.DB.prepare(
        "SELECT coalesce(sum(rr.seats), 0) AS n FROM ride_requests rr JOIN user_profiles p ON p.user_id = rr.rider_id WHERE rr.ride_id = ? AND rr.status = 'accepted' AND p.gender = 'male'",
      )
        .bind(ride.id)
        .first<{ n: number }>();
      // Men hold only seats booked before the lock; no man is left waiting on a locked ride.
      expect(menSeats!.n).toBeLessThanOrEqual(row.women_lock_booked - 1);
      const menPending = await env.DB.prepare(
        "SELECT count(*) AS n FROM ride_requests rr JOIN user_profiles p ON p.user_id = rr.rider_id WHERE rr.ride_id = ? AND rr.status = 'pending' AND p.gender = 'male'",
      )
        .bind(ride.id)
        .first<{ n: number }>();
      expect(menPending!.n).toBe(0);
      // And after the lock, the guarded statements refuse a man however the reads went.
      const late = await createRideRequest(
        { db: db() },
        { rideId: ride.id, riderId: (await man(`Late ${i}`)).id, status: "pending" },
      );
      await unchanged(() =>
        expect(decideRequest(ctx, priya.id, late.id, "accepted")).rejects.toThrow(SEATS_LOCKED_TO_WOMEN),
      );
    }
    expect(outcomes).toHaveLength(rounds);
  });
});

describe("gender is self-declared and private", () => {
  it("is saved from the profile's ride preferences and can be cleared", async () => {
    const u = await signedInUser({ fullName: "Meera Member" });
    const prefs = {
      step: "4",
      musicPreference: "moderate",
      conversationPreference: "casual",
      maxDetourMinutes: "15",
      genderPreference: "any",
    };
    expect((await postForm("/profile-completion", { ...prefs, gender: "female" }, { cookie: u.cookie })).status).toBe(
      302,
    );
    expect(await env.DB.prepare("SELECT gender FROM user_profiles WHERE user_id = ?").bind(u.id).first()).toEqual({
      gender: "female",
    });
    expect((await postForm("/profile-completion", { ...prefs, gender: "unsaid" }, { cookie: u.cookie })).status).toBe(
      302,
    );
    expect(await env.DB.prepare("SELECT gender FROM user_profiles WHERE user_id = ?").bind(u.id).first()).toEqual({
      gender: null,
    });
    await unchanged(async () =>
      expect((await postForm("/profile-completion", { ...prefs, gender: "robot" }, { cookie: u.cookie })).status).toBe(
        400,
      ),
    );
  });
});
