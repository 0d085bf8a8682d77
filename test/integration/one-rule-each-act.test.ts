import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import {
  addMember,
  createCommunity,
  createCommutePattern,
  createRide,
  createRideRequest,
  createUser,
} from "../../db/factories";
import { addDays, formatWeekdayDate, istDate } from "~/domain/time";
import { changePattern, createCommute, topUpCommutes } from "~/models/commutes.server";
import { deleteMyAccount } from "~/models/own-data.server";
import { BLOCKED_PAIR, SEATS_LOCKED_TO_WOMEN, WOMEN_ONLY_REFUSED } from "~/models/permissions.server";
import { decideRequest } from "~/models/ride-requests.server";
import { toastOf } from "../support/rides";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";

// Issue 34's findings, each through the path a person uses (the seat rule's own proof across
// paths is seat-rule-differential.test.ts).

const ctx = () => ({ db: db() });
const SUSPENDED = () => Date.now() + 7 * 86_400_000;

async function memberId(communityId: string, userId: string) {
  return (await env.DB.prepare("SELECT id FROM community_members WHERE community_id = ? AND user_id = ?")
    .bind(communityId, userId)
    .first<{ id: string }>())!.id;
}

async function commuteWithDays(driverId: string, communityId: string | null, days = 3) {
  const start = addDays(istDate(), 1);
  const c = await createCommutePattern(ctx(), {
    driverId,
    communityId,
    weekdays: 127,
    startDate: start,
    endDate: addDays(start, days - 1),
    seats: 3,
  });
  await topUpCommutes(ctx());
  const rows = await env.DB.prepare("SELECT id, status, trip_cost_paise FROM rides WHERE commute_id = ? ORDER BY date")
    .bind(c.id)
    .all<{ id: string; status: string; trip_cost_paise: number }>();
  return { id: c.id, days: rows.results };
}

describe("may see a commute", () => {
  it("a blocked person does not see the blocker's commute (either way), and a cancelled request keeps no community commute in sight", async () => {
    const driver = await signedInUser({ fullName: "Deepa Driver" });
    const blocked = await signedInUser();
    const leaver = await signedInUser();
    const publicCommute = await commuteWithDays(driver.id, null);
    await env.DB.prepare("INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
      .bind(driver.id, blocked.id, Date.now())
      .run();
    expect((await get(`/commutes/${publicCommute.id}`, { cookie: blocked.cookie })).status).toBe(404);
    // Booking every day is refused the same way (the commute is not found), nothing written.
    const res = await postForm(
      `/commutes/${publicCommute.id}`,
      { intent: "book-all", weekdays: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"], seats: "1" },
      { cookie: blocked.cookie },
    );
    expect(res.status).toBe(404);
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM ride_requests WHERE rider_id = ?")
        .bind(blocked.id)
        .first<{ n: number }>())!.n,
    ).toBe(0);

    const community = await createCommunity(ctx(), { createdBy: driver.id, name: "Bellandur Pool" });
    const communityCommute = await commuteWithDays(driver.id, community.id);
    await createRideRequest(ctx(), { rideId: communityCommute.days[0].id, riderId: leaver.id, status: "pending" });
    expect((await get(`/commutes/${communityCommute.id}`, { cookie: leaver.cookie })).status).toBe(200);
    await env.DB.prepare("UPDATE ride_requests SET status = 'cancelled' WHERE rider_id = ?").bind(leaver.id).run();
    expect((await get(`/commutes/${communityCommute.id}`, { cookie: leaver.cookie })).status).toBe(404);
  });
});

describe("Book only where the seat rule allows it", () => {
  it("the commute page offers a man no Book on women-locked days and says why; a woman gets Book", async () => {
    const driver = await createUser(ctx(), { profile: { gender: "female" } });
    const man = await signedInUser({ profile: { gender: "male" } });
    const woman = await signedInUser({ profile: { gender: "female" } });
    const c = await commuteWithDays(driver.id, null);
    await env.DB.prepare("UPDATE rides SET women_lock_booked = 1 WHERE commute_id = ?").bind(c.id).run();
    const his = await (await get(`/commutes/${c.id}`, { cookie: man.cookie })).text();
    expect(his).not.toContain("Book this day");
    expect(his).not.toContain("Request every selected day");
    expect(his).toContain(SEATS_LOCKED_TO_WOMEN);
    const hers = await (await get(`/commutes/${c.id}`, { cookie: woman.cookie })).text();
    expect(hers).toContain("Book this day");
    expect(hers).toContain("Request every selected day");
  });

  it("the ride page shows a man the women-only refusal instead of the join form, and a suspended member's Discover card has no Book Now", async () => {
    const driver = await createUser(ctx(), { profile: { gender: "female" } });
    const man = await signedInUser({ profile: { gender: "male" } });
    const ride = await createRide(ctx(), { driverId: driver.id });
    await env.DB.prepare("UPDATE rides SET women_only = 1 WHERE id = ?").bind(ride.id).run();
    const page = await (await get(`/rides/${ride.id}`, { cookie: man.cookie })).text();
    expect(page).toContain(WOMEN_ONLY_REFUSED);
    expect(page).not.toContain("Request to Join");

    const community = await createCommunity(ctx(), { createdBy: driver.id, name: "Koramangala Pool" });
    const suspended = await signedInUser();
    await addMember(ctx(), { communityId: community.id, userId: suspended.id });
    await env.DB.prepare("UPDATE community_members SET suspended_until = ? WHERE user_id = ?")
      .bind(SUSPENDED(), suspended.id)
      .run();
    const communityRide = await createRide(ctx(), { driverId: driver.id, communityId: community.id });
    const discover = await (await get(`/rides`, { cookie: suspended.cookie })).text();
    const card = discover.slice(discover.indexOf(`/rides/${communityRide.id}"`));
    expect(card.slice(0, card.indexOf("</li>"))).toContain('data-testid="not-bookable"');
    expect(card.slice(0, card.indexOf("</li>"))).not.toContain(`/rides/${communityRide.id}/book`);
  });

  it("a single accept of a rider blocked since they asked names the block, not the seats", async () => {
    const driver = await createUser(ctx());
    const rider = await createUser(ctx());
    const ride = await createRide(ctx(), { driverId: driver.id, seats: 3 });
    const req = await createRideRequest(ctx(), { rideId: ride.id, riderId: rider.id, status: "pending" });
    await env.DB.prepare("INSERT INTO user_blocks (blocker_id, blocked_id, created_at) VALUES (?, ?, ?)")
      .bind(rider.id, driver.id, Date.now())
      .run();
    await expect(decideRequest(ctx(), driver.id, req.id, "accepted")).rejects.toThrow(BLOCKED_PAIR);
  });
});

describe("holds a role: membership rows only", () => {
  it("a creator who handed over admin and left has no power left; the new admin can remove them while they are a moderator", async () => {
    const creator = await signedInUser({ fullName: "Chitra Creator" });
    const heir = await signedInUser({ fullName: "Harish Heir" });
    const member = await signedInUser();
    const community = await createCommunity(ctx(), { createdBy: creator.id, name: "Hebbal Hub" });
    const heirRow = await addMember(ctx(), { communityId: community.id, userId: heir.id });
    const memberRow = await addMember(ctx(), { communityId: community.id, userId: member.id });
    expect(
      toastOf(
        await postForm(
          `/communities/${community.id}`,
          { intent: "handover", memberId: heirRow.id },
          { cookie: creator.cookie },
        ),
      )?.title,
    ).toBe("Admin Handed Over");
    // The new admin removes the creator, now a moderator, like any moderator.
    const creatorRow = await memberId(community.id, creator.id);
    expect(
      toastOf(
        await postForm(
          `/communities/${community.id}`,
          { intent: "remove", memberId: creatorRow },
          { cookie: heir.cookie },
        ),
      )?.type,
    ).not.toBe("error");
    expect(
      (await env.DB.prepare("SELECT status FROM community_members WHERE id = ?")
        .bind(creatorRow)
        .first<{ status: string }>())!.status,
    ).toBe("rejected");
    // Out of the community, the creator moderates nothing, reads no log and no reports.
    expect(
      (
        await postForm(
          `/communities/${community.id}`,
          { intent: "remove", memberId: memberRow.id },
          { cookie: creator.cookie },
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await postForm(
          `/communities/${community.id}?tab=moderation`,
          { intent: "set-policy", pricingMode: "free", pickupPoints: "" },
          { cookie: creator.cookie },
        )
      ).status,
    ).toBe(403);
    expect(
      await (await get(`/communities/${community.id}?tab=audit`, { cookie: creator.cookie })).text(),
    ).not.toContain("Audit Log");
    expect((await get(`/communities/${community.id}/reports`, { cookie: creator.cookie })).status).toBe(403);
  });

  it("deleting the only admin's account makes the longest-standing moderator (else member) admin, and tells them", async () => {
    const admin = await createUser(ctx());
    const early = await createUser(ctx());
    const moderator = await createUser(ctx());
    const community = await createCommunity(ctx(), { createdBy: admin.id, name: "Whitefield Wheels" });
    await addMember(ctx(), { communityId: community.id, userId: early.id, at: Date.now() - 10_000 });
    await addMember(ctx(), { communityId: community.id, userId: moderator.id, role: "moderator" });
    const lone = await createCommunity(ctx(), { createdBy: admin.id, name: "Solo Pool" });
    const lonely = await createUser(ctx());
    await addMember(ctx(), { communityId: lone.id, userId: lonely.id });
    await deleteMyAccount(ctx(), admin.id);
    const roles = await env.DB.prepare(
      "SELECT community_id, user_id, role FROM community_members WHERE role = 'admin'",
    ).all<{ community_id: string; user_id: string }>();
    expect(roles.results.filter((r) => r.community_id === community.id).map((r) => r.user_id)).toEqual([moderator.id]);
    expect(roles.results.filter((r) => r.community_id === lone.id).map((r) => r.user_id)).toEqual([lonely.id]);
    expect((await notificationsFor(moderator.id)).map((n) => n.title)).toContain("You are now an admin");
    expect((await notificationsFor(early.id)).map((n) => n.title)).not.toContain("You are now an admin");
  });
});

describe("what removal and suspension mean for a driver", () => {
  it("removing a driver cancels their upcoming community rides and ends their commutes there, telling every rider; the top-up adds no more days", async () => {
    const admin = await signedInUser();
    const driver = await signedInUser({ fullName: "Ravi Removed" });
    const rider = await signedInUser();
    const community = await createCommunity(ctx(), { createdBy: admin.id, name: "Sarjapur Shuttle" });
    const driverRow = await addMember(ctx(), { communityId: community.id, userId: driver.id });
    await addMember(ctx(), { communityId: community.id, userId: rider.id });
    const ride = await createRide(ctx(), { driverId: driver.id, communityId: community.id });
    await createRideRequest(ctx(), { rideId: ride.id, riderId: rider.id, status: "accepted" });
    const commute = await commuteWithDays(driver.id, community.id);
    await createRideRequest(ctx(), { rideId: commute.days[1].id, riderId: rider.id, status: "pending" });
    const publicRide = await createRide(ctx(), { driverId: driver.id });

    const res = await postForm(
      `/communities/${community.id}`,
      { intent: "remove", memberId: driverRow.id },
      { cookie: admin.cookie },
    );
    expect(toastOf(res)?.type).not.toBe("error");
    const statuses = await env.DB.prepare("SELECT id, status FROM rides WHERE driver_id = ?")
      .bind(driver.id)
      .all<{ id: string; status: string }>();
    for (const r of statuses.results) expect(r.status, r.id).toBe(r.id === publicRide.id ? "active" : "cancelled");
    expect(
      (await env.DB.prepare("SELECT status FROM commutes WHERE id = ?").bind(commute.id).first<{ status: string }>())!
        .status,
    ).toBe("ended");
    const live = await env.DB.prepare(
      "SELECT count(*) AS n FROM ride_requests WHERE rider_id = ? AND status IN ('pending','accepted')",
    )
      .bind(rider.id)
      .first<{ n: number }>();
    expect(live!.n).toBe(0);
    // Told once per route, naming both days (issue 35, item 7: not once per day).
    const told = (await notificationsFor(rider.id, ["title", "message"])).filter((n) => n.title === "Ride cancelled");
    const days = (
      await env.DB.prepare("SELECT date FROM rides WHERE id IN (?, ?) ORDER BY date")
        .bind(ride.id, commute.days[1].id)
        .all<{ date: string }>()
    ).results.map((r) => formatWeekdayDate(r.date));
    expect(told.map((n) => n.message).join(" ")).toContain(days[0]);
    expect(told.map((n) => n.message).join(" ")).toContain(days[1]);
    expect(told.length).toBeLessThanOrEqual(2);
    await topUpCommutes(ctx(), Date.now() + 86_400_000);
    const active = await env.DB.prepare("SELECT count(*) AS n FROM rides WHERE commute_id = ? AND status = 'active'")
      .bind(commute.id)
      .first<{ n: number }>();
    expect(active!.n).toBe(0);
  });

  it("a suspended member can publish no community commute (as no single ride), and a suspended driver's days take no booking", async () => {
    const admin = await createUser(ctx());
    const driver = await createUser(ctx(), { profile: { vehicleInfo: { has_car: true, car_type: "petrol" } } });
    const rider = await signedInUser();
    const community = await createCommunity(ctx(), { createdBy: admin.id, name: "ORR Riders" });
    await addMember(ctx(), { communityId: community.id, userId: driver.id });
    await addMember(ctx(), { communityId: community.id, userId: rider.id });
    const commute = await commuteWithDays(driver.id, community.id);
    await env.DB.prepare("UPDATE community_members SET suspended_until = ? WHERE user_id = ?")
      .bind(SUSPENDED(), driver.id)
      .run();
    const input = {
      fromLocation: "HSR Layout",
      toLocation: "Manyata Tech Park",
      weekdays: 62,
      time: "08:30",
      startDate: addDays(istDate(), 1),
      endDate: null,
      seats: 3,
      tripCost: 30000,
      notes: null,
      communityId: community.id,
    };
    await expect(createCommute(ctx(), driver.id, input)).rejects.toThrow(/You are suspended from this community until/);
    const res = await postForm(
      `/rides/${commute.days[0].id}/book`,
      { seats: "1", notes: "" },
      { cookie: rider.cookie },
    );
    expect(res.status).toBe(409);
    expect(await res.text()).toContain("The driver cannot take bookings on this community");
  });
});

describe("no price rise under an accepted rider", () => {
  it("a pattern change to a higher trip cost leaves the days with an accepted seat at their price; a lower one applies everywhere", async () => {
    const driver = await createUser(ctx());
    const rider = await createUser(ctx());
    const c = await commuteWithDays(driver.id, null);
    await createRideRequest(ctx(), { rideId: c.days[0].id, riderId: rider.id, status: "accepted" });
    await env.DB.prepare("UPDATE rides SET booked_seats = 1 WHERE id = ?").bind(c.days[0].id).run();
    const fromDate = addDays(istDate(), 1);
    await changePattern(ctx(), driver.id, c.id, { fromDate, time: "08:30", seats: 3, tripCost: 900000 });
    const prices = async () =>
      (
        await env.DB.prepare("SELECT trip_cost_paise AS p FROM rides WHERE commute_id = ? ORDER BY date")
          .bind(c.id)
          .all<{ p: number }>()
      ).results.map((r) => r.p);
    expect(await prices()).toEqual([30000, 900000, 900000]);
    const told = await notificationsFor(rider.id, ["message"]);
    expect(JSON.stringify(told)).toContain("keep the price you booked at");
    await changePattern(ctx(), driver.id, c.id, { fromDate, time: "08:30", seats: 3, tripCost: 20000 });
    expect(await prices()).toEqual([20000, 20000, 20000]);
  });
});
