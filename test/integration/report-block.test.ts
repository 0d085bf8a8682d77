import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createMessage, createRide, createRideRequest } from "../../db/factories";
import { conversationIdFor } from "~/domain/conversation";
import { decideRequest, requestSeats } from "~/models/ride-requests.server";
import { ALREADY_REPORTED } from "~/models/safety.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";

// Report and block (issue 16, item 6).

const REFUSED = "You can only message people who share a community or a ride with you.";

/** An admin and two members of one community, and an outsider. */
async function world() {
  const admin = await signedInUser({ fullName: "Anita Admin" });
  const a = await signedInUser({ fullName: "Asha Rao" });
  const b = await signedInUser({ fullName: "Bharat Menon" });
  const outsider = await signedInUser({ fullName: "Omkar Outsider" });
  const community = await createCommunity({ db: db() }, { createdBy: admin.id, name: "Koramangala Commuters" });
  await addMember({ db: db() }, { communityId: community.id, userId: a.id });
  await addMember({ db: db() }, { communityId: community.id, userId: b.id });
  return { admin, a, b, outsider, community };
}

const report = (from: { cookie: string }, personId: string, fields: Record<string, string> = {}) =>
  postForm(
    `/people/${personId}`,
    { intent: "report", reason: "harassment", details: "Kept calling after the ride", context: "chat", ...fields },
    { cookie: from.cookie },
  );
const block = (from: { cookie: string }, personId: string) =>
  postForm(`/people/${personId}`, { intent: "block" }, { cookie: from.cookie });
const send = (from: { cookie: string }, to: string, content: string) =>
  postForm("/dashboard/messages", { intent: "send", to, content }, { cookie: from.cookie });

async function unchanged<T>(work: () => Promise<T>): Promise<T> {
  const before = await dbChecksum();
  const out = await work();
  expect(changedTables(before, await dbChecksum())).toEqual([]);
  return out;
}

describe("reporting a person", () => {
  it("stores the report, tells the admins of shared communities only, and lists it for them", async () => {
    const { admin, a, b, outsider, community } = await world();
    // b is an admin of a second community the reporter does not share: its admins hear nothing.
    const other = await createCommunity({ db: db() }, { createdBy: outsider.id });
    await addMember({ db: db() }, { communityId: other.id, userId: b.id });
    const res = await report(a, b.id);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/people/${b.id}`);
    expect(toastOf(res)?.title).toBe("Report sent");
    const rows = await env.DB.prepare(
      "SELECT reporter_id, reported_id, reason, details, context FROM user_reports",
    ).all();
    expect(rows.results).toEqual([
      {
        reporter_id: a.id,
        reported_id: b.id,
        reason: "harassment",
        details: "Kept calling after the ride",
        context: "chat",
      },
    ]);

    const toAdmin = await notificationsFor(admin.id);
    expect(toAdmin).toHaveLength(1);
    expect(toAdmin[0]).toMatchObject({
      type: "community",
      title: "A member was reported",
      data: { community_id: community.id },
    });
    // Nobody else is told: not the reported person, not the reporter, not another community's admin.
    for (const u of [a, b, outsider]) expect(await notificationsFor(u.id)).toEqual([]);

    const page = await get(`/communities/${community.id}/reports`, { cookie: admin.cookie });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Asha Rao reported Bharat Menon");
    expect(html).toContain("Kept calling after the ride");
    // The list is the admins' alone.
    for (const u of [a, b, outsider])
      expect((await get(`/communities/${community.id}/reports`, { cookie: u.cookie })).status).toBe(403);
    // The outsider's community shares nothing with the reporter: its list is empty.
    expect(await (await get(`/communities/${other.id}/reports`, { cookie: outsider.cookie })).text()).toContain(
      "No member of this community has reported another",
    );
  });

  it("anyone signed in may report (a stranger too); never themselves, a missing person, twice, or without a reason", async () => {
    const { a, b, outsider } = await world();
    expect((await report(outsider, b.id)).status).toBe(302);
    await unchanged(async () => expect((await report(a, a.id)).status).toBe(404));
    await unchanged(async () => expect((await report(a, "nosuchperson")).status).toBe(404));
    await unchanged(async () => expect((await report(a, b.id, { reason: "" })).status).toBe(400));
    await unchanged(async () => expect((await report(a, b.id, { reason: "because" })).status).toBe(400));
    await unchanged(async () => expect((await report(a, b.id, { details: "x".repeat(1001) })).status).toBe(400));
    await unchanged(async () =>
      expect((await postForm(`/people/${b.id}`, { intent: "delete-everything" }, { cookie: a.cookie })).status).toBe(
        400,
      ),
    );
    expect((await report(a, b.id)).status).toBe(302);
    const again = await unchanged(() => report(a, b.id));
    expect(toastOf(again)).toMatchObject({ type: "error", description: ALREADY_REPORTED });
    // Signed out: to the sign-in page, nothing stored.
    await unchanged(async () =>
      expect((await report({ cookie: "" }, b.id)).headers.get("Location")).toMatch(/^\/login/),
    );
  });
});

describe("blocking a person", () => {
  it("refuses messages both ways with the ordinary neutral refusal, and hides their chat", async () => {
    const { a, b } = await world();
    await createMessage({ db: db() }, { senderId: b.id, receiverId: a.id, content: "Hello before the block" });
    expect(await get("/dashboard/messages", { cookie: a.cookie }).then((r) => r.text())).toContain("Bharat Menon");
    expect((await block(a, b.id)).status).toBe(302);
    for (const [from, to] of [
      [b, a],
      [a, b],
    ] as const) {
      const res = await unchanged(() => send(from, to.id, "Are you there?"));
      expect(res.status).toBe(403);
      expect(await res.text()).toContain(REFUSED);
    }
    // The chat leaves both lists; the new-chat pane refuses as for any stranger.
    expect(await get("/dashboard/messages", { cookie: a.cookie }).then((r) => r.text())).not.toContain("Bharat Menon");
    expect(await get("/dashboard/messages", { cookie: b.cookie }).then((r) => r.text())).not.toContain("Asha Rao");
    const pane = await get(`/dashboard/messages?to=${a.id}`, { cookie: b.cookie });
    expect(pane.status).toBe(200);
    expect(await pane.text()).toContain(REFUSED);
  });

  it("hides each one's rides from the other in discover, both ways, and refuses their booking", async () => {
    const { a, b, community } = await world();
    // ₹10 a seat, so a cost cap's paths list them too (ADR 0037).
    const ridesOfA = await createRide(
      { db: db() },
      { driverId: a.id, fromLocation: "Koramangala", toLocation: "Whitefield", tripCostPaise: 3000 },
    );
    const ridesOfB = await createRide(
      { db: db() },
      { driverId: b.id, fromLocation: "HSR Layout", toLocation: "Electronic City", tripCostPaise: 3000 },
    );
    // And one shared with the community both belong to: Discover reaches it on another index path (ADR 0035).
    const sharedOfB = await createRide(
      { db: db() },
      {
        driverId: b.id,
        fromLocation: "Bellandur",
        toLocation: "MG Road",
        communityId: community.id,
        tripCostPaise: 3000,
      },
    );
    expect(await get("/rides", { cookie: b.cookie }).then((r) => r.text())).toContain(`/rides/${ridesOfA.id}`);
    for (const path of ["/rides", "/rides?community=on", "/rides?maxCost=20"])
      expect(await get(path, { cookie: a.cookie }).then((r) => r.text()), path).toContain(`/rides/${sharedOfB.id}`);
    expect(await get("/rides?maxCost=20", { cookie: a.cookie }).then((r) => r.text())).toContain(
      `/rides/${ridesOfB.id}`,
    );
    expect((await block(b, a.id)).status).toBe(302);
    expect(await get("/rides", { cookie: b.cookie }).then((r) => r.text())).not.toContain(`/rides/${ridesOfA.id}`);
    for (const path of ["/rides", "/rides?maxCost=20"])
      expect(await get(path, { cookie: a.cookie }).then((r) => r.text()), path).not.toContain(`/rides/${ridesOfB.id}`);
    for (const path of ["/rides", "/rides?community=on", "/rides?maxCost=20"])
      expect(await get(path, { cookie: a.cookie }).then((r) => r.text()), path).not.toContain(`/rides/${sharedOfB.id}`);
    // The ride is simply not there for the other: its page is a 404, the booking refused.
    expect((await get(`/rides/${ridesOfA.id}`, { cookie: b.cookie })).status).toBe(404);
    expect((await get(`/rides/${ridesOfB.id}`, { cookie: a.cookie })).status).toBe(404);
    const booking = await unchanged(() => postForm(`/rides/${ridesOfA.id}/book`, { seats: "1" }, { cookie: b.cookie }));
    expect(booking.status).toBe(302);
    expect(toastOf(booking)?.type).toBe("error");
    // Each still sees their own ride.
    expect((await get(`/rides/${ridesOfA.id}`, { cookie: a.cookie })).status).toBe(200);
  });

  it("withdraws pending requests between them, and the guarded statements refuse what slips past the reads", async () => {
    const { a, b } = await world();
    const ride = await createRide({ db: db() }, { driverId: a.id, seats: 3 });
    const pending = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: b.id, status: "pending" });
    const bookedRide = await createRide({ db: db() }, { driverId: a.id, seats: 2, bookedSeats: 1 });
    const accepted = await createRideRequest(
      { db: db() },
      { rideId: bookedRide.id, riderId: b.id, status: "accepted" },
    );
    expect((await block(a, b.id)).status).toBe(302);
    const status = (id: string) =>
      env.DB.prepare("SELECT status FROM ride_requests WHERE id = ?").bind(id).first<{ status: string }>();
    expect(await status(pending.id)).toEqual({ status: "cancelled" });
    // A seat already arranged stays (cancelled the ordinary way, with notice).
    expect(await status(accepted.id)).toEqual({ status: "accepted" });
    // b keeps sight of the seat they hold (to cancel it); the ride whose request was withdrawn is gone.
    expect((await get(`/rides/${bookedRide.id}`, { cookie: b.cookie })).status).toBe(200);
    expect((await get(`/rides/${ride.id}`, { cookie: b.cookie })).status).toBe(404);
    // b is told nothing.
    expect(await notificationsFor(b.id)).toEqual([]);
    // A request written behind the models' back: accepting it is refused by the UPDATE's own guard.
    const sneaked = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: b.id, status: "pending" });
    await unchanged(() => expect(decideRequest({ db: db() }, a.id, sneaked.id, "accepted")).rejects.toThrow());
    expect(await status(sneaked.id)).toEqual({ status: "pending" });
  });

  it("a blocked rider with an old request on the ride still cannot request again", async () => {
    const { a, b } = await world();
    const ride = await createRide({ db: db() }, { driverId: a.id, seats: 3 });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: b.id, status: "rejected" });
    expect((await block(a, b.id)).status).toBe(302);
    const res = await unchanged(() => postForm(`/rides/${ride.id}/book`, { seats: "1" }, { cookie: b.cookie }));
    // As for any missing ride: back to discover, "This ride could not be found."
    expect(res.headers.get("Location")).toBe("/rides");
    expect(toastOf(res)).toMatchObject({ type: "error", description: "This ride could not be found." });
    expect((await get(`/rides/${ride.id}`, { cookie: b.cookie })).status).toBe(404);
    // The guarded INSERT refuses too, however the read went (the model's own refusal is neutral).
    await unchanged(() =>
      expect(requestSeats({ db: db() }, b.id, ride.id, { seats: 1, notes: null })).rejects.toThrow(
        /not found|no longer available/i,
      ),
    );
  });

  it("is listed in Settings and undone there; blocking twice or unblocking a stranger changes nothing", async () => {
    const { a, b } = await world();
    expect((await block(a, b.id)).status).toBe(302);
    await unchanged(async () => expect((await block(a, b.id)).status).toBe(302));
    await unchanged(async () => expect((await block(a, a.id)).status).toBe(404));
    const settings = await get("/dashboard/settings", { cookie: a.cookie }).then((r) => r.text());
    expect(settings).toContain("Blocked people");
    expect(settings).toContain("Bharat Menon");
    // b cannot undo a's block.
    await unchanged(async () =>
      expect((await postForm(`/people/${a.id}`, { intent: "unblock" }, { cookie: b.cookie })).status).toBe(404),
    );
    const res = await postForm(
      `/people/${b.id}`,
      { intent: "unblock", redirectTo: "/dashboard/settings" },
      { cookie: a.cookie },
    );
    expect(res.headers.get("Location")).toBe("/dashboard/settings");
    expect(toastOf(res)?.title).toBe("Unblocked");
    expect((await send(b, a.id, "Back in touch")).status).toBe(302);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE conversation_id = ?")
        .bind(conversationIdFor(a.id, b.id))
        .first(),
    ).toEqual({ n: 1 });
  });
});
