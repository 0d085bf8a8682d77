// Issue 16, item 4: moderation that works. Remove (future bookings on the community's rides
// cancelled with notice), suspend for a period, hand over admin, and the audit log for admins.
// Who may do what is the model's job: admin > moderator > member, nobody acts on an admin.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRide, createRideRequest } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { handOverAdmin, removeMember, suspendMember } from "~/models/community-moderation.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, postForm, signedInUser } from "../support/worker";

const ctx = () => ({ db: db() });

async function world() {
  const admin = await signedInUser({ fullName: "Anita Admin" });
  const mod = await signedInUser({ fullName: "Manoj Moderator" });
  const member = await signedInUser({ fullName: "Rahul Rider" });
  const other = await signedInUser({ fullName: "Oviya Other" });
  const driver = await signedInUser({ fullName: "Divya Driver" });
  const community = await createCommunity(ctx(), { createdBy: admin.id, name: "Manyata Commuters" });
  const modRow = await addMember(ctx(), { communityId: community.id, userId: mod.id, role: "moderator" });
  const memberRow = await addMember(ctx(), { communityId: community.id, userId: member.id });
  const otherRow = await addMember(ctx(), { communityId: community.id, userId: other.id });
  await addMember(ctx(), { communityId: community.id, userId: driver.id });
  const adminRow = await env.DB.prepare("SELECT id FROM community_members WHERE community_id = ? AND user_id = ?")
    .bind(community.id, admin.id)
    .first<{ id: string }>();
  return {
    admin,
    mod,
    member,
    other,
    driver,
    community,
    modRowId: modRow.id,
    memberRowId: memberRow.id,
    otherRowId: otherRow.id,
    adminRowId: adminRow!.id,
  };
}

async function membership(id: string) {
  return env.DB.prepare("SELECT status, role, suspended_until, decided_by FROM community_members WHERE id = ?")
    .bind(id)
    .first<{ status: string; role: string; suspended_until: number | null; decided_by: string | null }>();
}

async function auditRows(communityId: string) {
  const { results } = await env.DB.prepare(
    "SELECT actor_id, action, target_user_id, detail FROM community_audit_log WHERE community_id = ? ORDER BY created_at, rowid",
  )
    .bind(communityId)
    .all<{ actor_id: string; action: string; target_user_id: string | null; detail: string | null }>();
  return results;
}

const post = (communityId: string, cookie: string, fields: Record<string, string>) =>
  postForm(`/communities/${communityId}`, fields, { cookie });

describe("removing a member", () => {
  it("cancels their future bookings on the community's rides (seats released), tells them and the drivers, and logs it", async () => {
    const w = await world();
    const future = await createRide(ctx(), {
      driverId: w.driver.id,
      communityId: w.community.id,
      date: addDays(istDate(), 2),
      seats: 3,
    });
    const accepted = await createRideRequest(ctx(), {
      rideId: future.id,
      riderId: w.member.id,
      status: "accepted",
      seats: 2,
    });
    const future2 = await createRide(ctx(), {
      driverId: w.driver.id,
      communityId: w.community.id,
      date: addDays(istDate(), 3),
      seats: 3,
    });
    const pending = await createRideRequest(ctx(), { rideId: future2.id, riderId: w.member.id, status: "pending" });
    // Not touched: a public ride, another member's seat, and a past ride of the community.
    const publicRide = await createRide(ctx(), { driverId: w.driver.id, date: addDays(istDate(), 2), seats: 3 });
    const publicSeat = await createRideRequest(ctx(), {
      rideId: publicRide.id,
      riderId: w.member.id,
      status: "accepted",
    });
    const otherSeat = await createRideRequest(ctx(), { rideId: future.id, riderId: w.other.id, status: "accepted" });
    const past = await createRide(ctx(), {
      driverId: w.driver.id,
      communityId: w.community.id,
      date: addDays(istDate(), -1),
      seats: 3,
    });
    const pastSeat = await createRideRequest(ctx(), { rideId: past.id, riderId: w.member.id, status: "accepted" });

    const res = await post(w.community.id, w.mod.cookie, { intent: "remove", memberId: w.memberRowId });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/communities/${w.community.id}?tab=moderation`);
    expect(toastOf(res)?.title).toBe("Member Removed");

    expect(await membership(w.memberRowId)).toMatchObject({ status: "rejected", role: "member", decided_by: w.mod.id });
    const status = async (id: string) =>
      (await env.DB.prepare("SELECT status FROM ride_requests WHERE id = ?").bind(id).first<{ status: string }>())!
        .status;
    expect(await status(accepted.id)).toBe("cancelled");
    expect(await status(pending.id)).toBe("cancelled");
    expect(await status(publicSeat.id)).toBe("accepted");
    expect(await status(otherSeat.id)).toBe("accepted");
    expect(await status(pastSeat.id)).toBe("accepted");
    const booked = await env.DB.prepare("SELECT booked_seats AS n FROM rides WHERE id = ?")
      .bind(future.id)
      .first<{ n: number }>();
    expect(booked!.n).toBe(1); // only the other member's seat is left
    const count = await env.DB.prepare("SELECT member_count AS n FROM communities WHERE id = ?")
      .bind(w.community.id)
      .first<{ n: number }>();
    expect(count!.n).toBe(4);

    const notes = await env.DB.prepare(
      "SELECT user_id, type, title, message FROM notifications WHERE created_at > 0 ORDER BY user_id, title",
    ).all<{ user_id: string; type: string; title: string; message: string }>();
    const mine = notes.results.filter((n) => n.user_id === w.member.id);
    expect(mine.map((n) => n.title).sort()).toEqual([
      "Booking cancelled",
      "Booking cancelled",
      "Removed from community",
    ]);
    expect(mine.find((n) => n.title === "Removed from community")!.type).toBe("community");
    const drivers = notes.results.filter((n) => n.user_id === w.driver.id && n.title === "Seat cancelled");
    expect(drivers).toHaveLength(2);
    expect(drivers[0].message).toContain("Rahul Rider is no longer a member of Manyata Commuters");

    expect(await auditRows(w.community.id)).toEqual([
      { actor_id: w.mod.id, action: "remove", target_user_id: w.member.id, detail: null },
    ]);

    // Removed means out: they cannot ask again until a moderator clears it, nor book the community's rides.
    const again = await post(w.community.id, w.member.cookie, { intent: "join" });
    expect(toastOf(again)?.type).toBe("error");
    const before = await dbChecksum();
    const book = await postForm(`/rides/${future2.id}/book`, { seats: "1", notes: "" }, { cookie: w.member.cookie });
    // Issue 34: their cancelled request no longer keeps the ride in sight: it is not found.
    expect(JSON.stringify(toastOf(book))).toContain("This ride could not be found.");
    expect(changedTables(before, await dbChecksum())).toEqual([]);
  });

  it("who may remove whom: moderators remove members, admins also moderators, nobody an admin; a refusal changes nothing", async () => {
    const w = await world();
    const cases: [string, string, string, number][] = [
      ["plain member removes a member", w.other.cookie, w.memberRowId, 403],
      ["moderator removes a moderator (self)", w.mod.cookie, w.modRowId, 409],
      ["moderator removes the admin", w.mod.cookie, w.adminRowId, 403],
      ["admin removes themself", w.admin.cookie, w.adminRowId, 409],
      ["outsider removes a member", (await signedInUser()).cookie, w.memberRowId, 403],
    ];
    for (const [label, cookie, memberId, expected] of cases) {
      const before = await dbChecksum();
      const res = await post(w.community.id, cookie, { intent: "remove", memberId });
      // 409s come back as an error toast on the redirect; 403s as the error page.
      if (expected === 409) {
        expect(res.status, label).toBe(302);
        expect(toastOf(res)?.type, label).toBe("error");
      } else {
        expect(res.status, label).toBe(expected);
      }
      expect(changedTables(before, await dbChecksum()), label).toEqual([]);
    }
    // A second moderator cannot remove the first; the admin can.
    const mod2 = await signedInUser();
    await addMember(ctx(), { communityId: w.community.id, userId: mod2.id, role: "moderator" });
    const before = await dbChecksum();
    expect((await post(w.community.id, mod2.cookie, { intent: "remove", memberId: w.modRowId })).status).toBe(403);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    const ok = await post(w.community.id, w.admin.cookie, { intent: "remove", memberId: w.modRowId });
    expect(toastOf(ok)?.title).toBe("Member Removed");
    expect(await membership(w.modRowId)).toMatchObject({ status: "rejected", role: "member" });
  });

  it("two moderators removing the same member at once: one removal, one set of cancellations and notices", async () => {
    const w = await world();
    const ride = await createRide(ctx(), {
      driverId: w.driver.id,
      communityId: w.community.id,
      date: addDays(istDate(), 2),
      seats: 3,
    });
    await createRideRequest(ctx(), { rideId: ride.id, riderId: w.member.id, status: "accepted" });
    const results = await Promise.allSettled([
      removeMember(ctx(), w.mod.id, w.community.id, w.memberRowId),
      removeMember(ctx(), w.admin.id, w.community.id, w.memberRowId),
      removeMember(ctx(), w.mod.id, w.community.id, w.memberRowId),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const n = await env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE user_id = ?")
      .bind(w.member.id)
      .first<{ n: number }>();
    expect(n!.n).toBe(2); // "Removed from community" and one "Booking cancelled"
    expect((await auditRows(w.community.id)).filter((a) => a.action === "remove")).toHaveLength(1);
    const booked = await env.DB.prepare("SELECT booked_seats AS n FROM rides WHERE id = ?")
      .bind(ride.id)
      .first<{ n: number }>();
    expect(booked!.n).toBe(0);
  });
});

describe("a removal or suspension is about one community only", () => {
  it("a member removed from one community and suspended in another still books public rides and rides of a third", async () => {
    const w = await world();
    const second = await createCommunity(ctx(), { createdBy: w.admin.id, name: "Second Pool" });
    const secondRow = await addMember(ctx(), { communityId: second.id, userId: w.member.id });
    const third = await createCommunity(ctx(), { createdBy: w.admin.id, name: "Third Pool" });
    await addMember(ctx(), { communityId: third.id, userId: w.member.id });
    await removeMember(ctx(), w.admin.id, w.community.id, w.memberRowId);
    await suspendMember(ctx(), w.admin.id, second.id, secondRow.id, 7);
    const publicRide = await createRide(ctx(), { driverId: w.driver.id, date: addDays(istDate(), 2) });
    const thirdRide = await createRide(ctx(), {
      driverId: w.admin.id,
      communityId: third.id,
      date: addDays(istDate(), 2),
    });
    for (const ride of [publicRide, thirdRide]) {
      const res = await postForm(`/rides/${ride.id}/book`, { seats: "1", notes: "" }, { cookie: w.member.cookie });
      expect(res.headers.get("Location"), ride.id).toMatch(/^\/booking-confirmation\//);
    }
  });
});

describe("suspending a member", () => {
  it("suspends for the chosen days: they can neither book nor share the community's rides; lifting it restores both; logged", async () => {
    const w = await world();
    const ride = await createRide(ctx(), {
      driverId: w.driver.id,
      communityId: w.community.id,
      date: addDays(istDate(), 2),
      seats: 3,
    });
    const before = Date.now();
    const res = await post(w.community.id, w.mod.cookie, { intent: "suspend", memberId: w.memberRowId, days: "7" });
    expect(toastOf(res)?.title).toBe("Member Suspended");
    const row = await membership(w.memberRowId);
    expect(row!.status).toBe("approved");
    expect(row!.suspended_until).toBeGreaterThanOrEqual(before + 7 * 86_400_000);
    expect(row!.suspended_until).toBeLessThan(before + 7 * 86_400_000 + 60_000);

    const book = await postForm(`/rides/${ride.id}/book`, { seats: "1", notes: "" }, { cookie: w.member.cookie });
    expect(JSON.stringify(toastOf(book)) + (book.status === 409 ? await book.text() : "")).toContain(
      "suspended from this community",
    );
    const requests = await env.DB.prepare("SELECT count(*) AS n FROM ride_requests WHERE rider_id = ?")
      .bind(w.member.id)
      .first<{ n: number }>();
    expect(requests!.n).toBe(0);
    const share = await postForm(
      "/rides/create",
      {
        intent: "create",
        fromLocation: "HSR Layout",
        toLocation: "Manyata Tech Park",
        date: addDays(istDate(), 2),
        time: "08:30",
        seats: "3",
        tripCost: "450",
        communityId: w.community.id,
      },
      { cookie: w.member.cookie },
    );
    expect(share.status).toBe(400);
    expect(await share.text()).toContain("suspended from this community");

    // The moderation tab shows the suspension; the member was told.
    expect(
      await (await get(`/communities/${w.community.id}?tab=moderation`, { cookie: w.mod.cookie })).text(),
    ).toContain("Suspended until");
    const told = await env.DB.prepare("SELECT title FROM notifications WHERE user_id = ? AND type = 'community'")
      .bind(w.member.id)
      .all<{ title: string }>();
    expect(told.results.map((t) => t.title)).toEqual(["Suspended from community"]);

    const lift = await post(w.community.id, w.mod.cookie, { intent: "unsuspend", memberId: w.memberRowId });
    expect(toastOf(lift)?.title).toBe("Suspension Lifted");
    expect((await membership(w.memberRowId))!.suspended_until).toBeNull();
    const bookAgain = await postForm(`/rides/${ride.id}/book`, { seats: "1", notes: "" }, { cookie: w.member.cookie });
    expect(bookAgain.headers.get("Location")).toMatch(/^\/booking-confirmation\//);
    expect((await auditRows(w.community.id)).map((a) => [a.action, a.detail])).toEqual([
      ["suspend", "7 days"],
      ["unsuspend", null],
    ]);
  });

  it("refuses an unknown period (400) and a member suspending someone (403), changing nothing", async () => {
    const w = await world();
    for (const [cookie, days, status] of [
      [w.mod.cookie, "5", 400],
      [w.mod.cookie, "abc", 400],
      [w.other.cookie, "7", 403],
    ] as const) {
      const before = await dbChecksum();
      const res = await post(w.community.id, cookie, { intent: "suspend", memberId: w.memberRowId, days });
      expect(res.status).toBe(status);
      expect(changedTables(before, await dbChecksum())).toEqual([]);
    }
    await expect(suspendMember(ctx(), w.mod.id, w.community.id, w.memberRowId, 5)).rejects.toThrow(
      "Choose a suspension period",
    );
  });
});

describe("handing over admin", () => {
  it("the admin hands over to a member, who becomes admin while the giver becomes a moderator; logged; others may not", async () => {
    const w = await world();
    for (const cookie of [w.mod.cookie, w.member.cookie]) {
      const before = await dbChecksum();
      expect((await post(w.community.id, cookie, { intent: "handover", memberId: w.otherRowId })).status).toBe(403);
      expect(changedTables(before, await dbChecksum())).toEqual([]);
    }
    const res = await post(w.community.id, w.admin.cookie, { intent: "handover", memberId: w.otherRowId });
    expect(toastOf(res)?.title).toBe("Admin Handed Over");
    expect((await membership(w.otherRowId))!.role).toBe("admin");
    expect((await membership(w.adminRowId))!.role).toBe("moderator");
    expect((await auditRows(w.community.id)).map((a) => [a.action, a.target_user_id])).toEqual([
      ["handover", w.other.id],
    ]);
    // The new admin reads the moderation log; a plain member does not get it.
    const log = await (await get(`/communities/${w.community.id}?tab=audit`, { cookie: w.other.cookie })).text();
    expect(log).toContain("Audit Log");
    expect(log).toContain("handed admin over to");
    const memberView = await (
      await get(`/communities/${w.community.id}?tab=audit`, { cookie: w.member.cookie })
    ).text();
    expect(memberView).not.toContain("Audit Log");
  });

  it("two hand-overs at once by the same admin: exactly one wins, and the community keeps exactly one admin among them", async () => {
    const w = await world();
    const results = await Promise.allSettled([
      handOverAdmin(ctx(), w.admin.id, w.community.id, w.otherRowId),
      handOverAdmin(ctx(), w.admin.id, w.community.id, w.memberRowId),
      handOverAdmin(ctx(), w.admin.id, w.community.id, w.modRowId),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const admins = await env.DB.prepare(
      "SELECT user_id FROM community_members WHERE community_id = ? AND role = 'admin'",
    )
      .bind(w.community.id)
      .all();
    expect(admins.results).toHaveLength(1);
    expect((await membership(w.adminRowId))!.role).toBe("moderator");
    expect((await auditRows(w.community.id)).filter((a) => a.action === "handover")).toHaveLength(1);
  });
});

describe("the audit log", () => {
  it("records approve, reject, clear and promote too, and is readable by admins only", async () => {
    const w = await world();
    const j1 = await signedInUser({ fullName: "Jaya Joiner" });
    const j2 = await signedInUser({ fullName: "Kiran Joiner" });
    const r1 = await addMember(ctx(), { communityId: w.community.id, userId: j1.id, status: "pending" });
    const r2 = await addMember(ctx(), { communityId: w.community.id, userId: j2.id, status: "pending" });
    await post(w.community.id, w.mod.cookie, { intent: "approve", memberId: r1.id });
    await post(w.community.id, w.mod.cookie, { intent: "reject", memberId: r2.id });
    await post(w.community.id, w.mod.cookie, { intent: "clear", memberId: r2.id });
    await post(w.community.id, w.admin.cookie, { intent: "promote", memberId: w.memberRowId, role: "moderator" });
    // A refused action is not logged.
    await post(w.community.id, w.mod.cookie, { intent: "approve", memberId: r1.id });
    expect((await auditRows(w.community.id)).map((a) => [a.action, a.actor_id, a.target_user_id])).toEqual([
      ["approve", w.mod.id, j1.id],
      ["reject", w.mod.id, j2.id],
      ["clear", w.mod.id, j2.id],
      ["promote", w.admin.id, w.member.id],
    ]);
    const adminView = await (await get(`/communities/${w.community.id}?tab=audit`, { cookie: w.admin.cookie })).text();
    expect(adminView).toContain("Audit log");
    expect(adminView).toContain("approved the request of");
    expect(adminView.replace(/<!-- -->|<[^>]+>/g, "")).toContain("Manoj Moderator approved the request of Jaya Joiner");
    // A moderator (not an admin) is shown the members, not the log, and the log is not even read.
    const modView = await (await get(`/communities/${w.community.id}?tab=audit`, { cookie: w.mod.cookie })).text();
    expect(modView).not.toContain("approved the request of");
    expect(modView).not.toContain("Audit log");
  });
});
