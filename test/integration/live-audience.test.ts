import { describe, expect, it } from "vitest";
import { createRide, createRideRequest } from "../../db/factories";
import { applyBadgeFrame, type Badges, shownFor } from "../../app/components/live-badges";
import { db, get, postForm, signedInUser } from "../support/worker";
import { openSocket, sleep } from "../support/messages";

// Issue 13: a write tells the people it concerns (its model's `audience`), not the acting
// user, whose own redirect already shows the change.
/** A driver's ride with one pending request, and both people's /ws/user sockets open. */
async function pendingRequestWithSockets() {
  const driver = await signedInUser();
  const rider = await signedInUser();
  const ride = await createRide({ db: db() }, { driverId: driver.id });
  const request = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id });
  const d = await openSocket("/ws/user", driver.cookie);
  const r = await openSocket("/ws/user", rider.cookie);
  await sleep(100);
  return { driver, rider, ride, request, d, r };
}

describe("live fan-out audience", () => {
  it("a driver's accept reaches the rider (badges and toast) and sends the driver nothing", async () => {
    const { driver, ride, request, d, r } = await pendingRequestWithSockets();
    const driverFramesBefore = d.frames.length;
    const res = await postForm(
      `/rides/${ride.id}`,
      { intent: "accept", requestId: request.id, redirectTo: `/rides/${ride.id}` },
      { cookie: driver.cookie },
    );
    expect(res.status).toBe(302);
    expect(await r.waitFor((f) => f.type === "badges" && f.unreadNotifications === 1)).toBeTruthy();
    expect(await r.waitFor((f) => f.type === "notification")).toMatchObject({ title: "Request accepted" });
    await sleep(300);
    expect(d.frames.slice(driverFramesBefore)).toEqual([]);
    d.close();
    r.close();
  });

  it("a rider's cancel of a pending request lowers the driver's count without a toast and sends the rider nothing", async () => {
    const { rider, ride, request, d, r } = await pendingRequestWithSockets();
    const riderFramesBefore = r.frames.length;
    const res = await postForm(
      `/rides/${ride.id}`,
      { intent: "cancel-request", requestId: request.id },
      { cookie: rider.cookie },
    );
    expect(res.status).toBe(302);
    expect(await d.waitFor((f) => f.type === "badges" && f.pendingRequests === 0)).toBeTruthy();
    await sleep(300);
    expect(d.frames.some((f) => f.type === "notification")).toBe(false);
    expect(r.frames.slice(riderFramesBefore)).toEqual([]);
    d.close();
    r.close();
  });

  // Issue 39: the fan-out reads the counts once and the frame carries them; the tab shows
  // them in place (app/components/live-badges.ts) instead of re-reading them.
  it("a badge frame carries the counts the page would show, and a tab applies them without a re-read", async () => {
    const { driver, rider, ride, request, d, r } = await pendingRequestWithSockets();
    const before = await shownBadges(driver.cookie);
    expect(before.pendingRequests).toBe(1);
    await postForm(`/rides/${ride.id}`, { intent: "cancel-request", requestId: request.id }, { cookie: rider.cookie });
    const frame = (await d.waitFor((f) => f.type === "badges" && f.pendingRequests === 0)) as Badges;
    // Nothing asks for a re-read, and what a reload would show is what the tab now shows.
    expect(applyBadgeFrame(before, frame)).toBe(false);
    expect(shownFor(before)).toEqual(await shownBadges(driver.cookie));

    // A new notification changes the panel's list, which only a re-read can show.
    const riderBefore = await shownBadges(rider.cookie);
    const again = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id });
    await postForm(
      `/rides/${ride.id}`,
      { intent: "accept", requestId: again.id, redirectTo: `/rides/${ride.id}` },
      { cookie: driver.cookie },
    );
    const accepted = (await r.waitFor(
      (f) => f.type === "badges" && f.unreadNotifications === riderBefore.unreadNotifications + 1,
    )) as Badges;
    expect(applyBadgeFrame(riderBefore, accepted)).toBe(true);
    expect(shownFor(riderBefore)).toEqual(await shownBadges(rider.cookie));
    d.close();
    r.close();
  });
});

/** The shell's three counts as a signed-in page renders them (sidebar and header). */
async function shownBadges(cookie: string): Promise<Badges> {
  const html = await (await get("/dashboard", { cookie })).text();
  const count = (testId: string) => Number(html.match(new RegExp(`data-testid="${testId}" data-count="(\\d+)"`))?.[1]);
  const notifications = html.match(/data-testid="badge-notifications"[^>]*>(\d+)</)?.[1] ?? "0";
  return {
    pendingRequests: count("badge-my-rides"),
    unreadNotifications: Number(notifications),
    unreadMessages: count("badge-messages"),
  };
}
