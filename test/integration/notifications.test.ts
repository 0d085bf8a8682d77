import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createNotification, createRide, createRideRequest } from "../../db/factories";
import { conversationIdFor } from "~/domain/conversation";
import { notificationHref } from "~/domain/notifications";
import { Browser, db, get, postForm, signedInUser } from "../support/worker";
import { openSocket, sleep } from "../support/messages";

const readOf = (id: string) =>
  env.DB.prepare("SELECT read FROM notifications WHERE id = ?").bind(id).first<number>("read");
const unreadCount = (userId: string) =>
  env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE user_id = ? AND read = 0")
    .bind(userId)
    .first<number>("n");

describe("notifications panel", () => {
  it("lists only the user's own notifications, newest first, with type, relative time, unread dot and a link to what each is about", async () => {
    const user = await signedInUser();
    const other = await signedInUser();
    const driver = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: driver.id });
    const request = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: user.id });
    const community = await createCommunity({ db: db() }, { createdBy: other.id });
    const now = Date.now();
    await createNotification(
      { db: db() },
      {
        userId: user.id,
        type: "ride_request",
        title: "New ride request",
        data: { ride_id: ride.id },
        createdAt: now - 3 * 3600000,
      },
    );
    await createNotification(
      { db: db() },
      {
        userId: user.id,
        type: "ride_update",
        title: "Request accepted",
        data: { ride_id: ride.id, request_id: request.id, status: "accepted" },
        createdAt: now - 5 * 60000,
      },
    );
    await createNotification(
      { db: db() },
      {
        userId: user.id,
        type: "message",
        title: "New message from Bharat",
        data: { conversation_id: "abc123" },
        createdAt: now - 10000,
      },
    );
    await createNotification(
      { db: db() },
      {
        userId: user.id,
        type: "community",
        title: "Join request approved",
        data: { community_id: community.id },
        read: true,
        createdAt: now - 3 * 86400000,
      },
    );
    await createNotification({ db: db() }, { userId: other.id, title: "Someone else's secret" });

    const html = await (await get("/dashboard", { cookie: user.cookie })).text();
    expect(html).toContain('id="notifications"');
    expect(html).toContain("Stay updated with your ride requests and bookings.");
    expect(html).not.toContain("Someone else&#x27;s secret");
    expect(html).not.toContain("Someone else's secret");
    const order = ["New message from Bharat", "Request accepted", "New ride request", "Join request approved"].map(
      (t) => html.indexOf(t),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toContain(`href="/rides/${ride.id}"`);
    expect(html).toContain(`href="/booking-confirmation/${request.id}"`);
    expect(html).toContain(`href="/dashboard/messages?c=abc123"`);
    expect(html).toContain(`href="/communities/${community.id}"`);
    expect(html).toContain("Just now");
    expect(html).toContain("5m ago");
    expect(html).toContain("3h ago");
    expect(html.match(/data-testid="unread-dot"/g)).toHaveLength(3);
    expect(html.match(/data-read="true"/g)).toHaveLength(1);
    expect(html).toMatch(/data-testid="notifications-unread"[^>]*>3/);
    expect(html).toContain("Mark all as read");
    for (const t of ["ride_request", "ride_update", "message", "community"])
      expect(html).toContain(`notification-icon-${t}`);
  });

  it("shows the empty state and no 'Mark all as read' when there is nothing", async () => {
    const user = await signedInUser();
    const html = await (await get("/dashboard", { cookie: user.cookie })).text();
    expect(html).toContain("No notifications yet");
    expect(html).not.toContain("Mark all as read");
  });

  it("marks one of your own read; someone else's is 404 and stays unread", async () => {
    const user = await signedInUser();
    const other = await signedInUser();
    const mine = await createNotification({ db: db() }, { userId: user.id });
    const theirs = await createNotification({ db: db() }, { userId: other.id });
    const res = await postForm("/dashboard?index", { intent: "mark-read", id: mine.id }, { cookie: user.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard#notifications");
    expect(await readOf(mine.id)).toBe(1);
    const denied = await postForm("/dashboard?index", { intent: "mark-read", id: theirs.id }, { cookie: user.cookie });
    expect(denied.status).toBe(404);
    expect(await readOf(theirs.id)).toBe(0);
  });

  it("'Mark all as read' marks only the user's own, with the spec's toast", async () => {
    const user = await signedInUser();
    const other = await signedInUser();
    await createNotification({ db: db() }, { userId: user.id });
    await createNotification({ db: db() }, { userId: user.id, type: "message" });
    await createNotification({ db: db() }, { userId: other.id });
    const browser = new Browser();
    browser.cookies.set("lr_session", user.cookie.split("=")[1]);
    const res = await browser.post("/dashboard?index", { intent: "mark-all-read" });
    expect(res.headers.get("Location")).toBe("/dashboard#notifications");
    const page = await browser.follow(res);
    expect(page.html).toContain("All notifications marked as read");
    expect(page.html).not.toContain("Mark all as read");
    expect(await unreadCount(user.id)).toBe(0);
    expect(await unreadCount(other.id)).toBe(1);
  });

  it("refuses an unknown intent with 400 and needs a session", async () => {
    const user = await signedInUser();
    expect((await postForm("/dashboard?index", { intent: "delete-all" }, { cookie: user.cookie })).status).toBe(400);
    expect((await postForm("/dashboard?index", { intent: "mark-read" }, { cookie: user.cookie })).status).toBe(400);
    const anon = await postForm("/dashboard?index", { intent: "mark-all-read" });
    expect(anon.status).toBe(302);
    expect(anon.headers.get("Location")).toMatch(/^\/login/);
  });

  it("a sent message writes the receiver's message notification, linked to the chat; following the link reads nothing, opening the chat (POST) reads it", async () => {
    const a = await signedInUser({ fullName: "Asha Rao" });
    const b = await signedInUser();
    const community = await createCommunity({ db: db() }, { createdBy: a.id });
    await addMember({ db: db() }, { communityId: community.id, userId: b.id });
    await postForm(
      `/dashboard/messages?to=${b.id}`,
      { intent: "send", to: b.id, content: "Seat for tomorrow?" },
      { cookie: a.cookie },
    );
    const c = conversationIdFor(a.id, b.id);
    const html = await (await get("/dashboard", { cookie: b.cookie })).text();
    expect(html).toContain("New message from Asha Rao");
    expect(html).toContain("Seat for tomorrow?");
    expect(html).toContain(`href="/dashboard/messages?c=${c}"`);
    expect(html).toMatch(/data-testid="badge-notifications"[^>]*>1/);
    // Following the link is a GET: it shows the chat (with the POST that marks it read) and writes nothing.
    const chat = await (await get(`/dashboard/messages?c=${c}`, { cookie: b.cookie })).text();
    expect(chat).toContain("Seat for tomorrow?");
    expect(chat).toContain('name="intent" value="open"');
    expect(await unreadCount(b.id)).toBe(1);
    await postForm("/dashboard/messages", { intent: "open", c }, { cookie: b.cookie });
    expect(await unreadCount(b.id)).toBe(0);
  });

  it("pushes a live toast frame only when push notifications are on; badges either way", async () => {
    const a = await signedInUser({ fullName: "Asha Rao" });
    const quiet = await signedInUser({ settings: { pushNotifications: false } });
    const loud = await signedInUser();
    const community = await createCommunity({ db: db() }, { createdBy: a.id });
    await addMember({ db: db() }, { communityId: community.id, userId: quiet.id });
    await addMember({ db: db() }, { communityId: community.id, userId: loud.id });
    const q = await openSocket("/ws/user", quiet.cookie);
    const l = await openSocket("/ws/user", loud.cookie);
    await postForm(
      `/dashboard/messages?to=${quiet.id}`,
      { intent: "send", to: quiet.id, content: "hi quiet" },
      { cookie: a.cookie },
    );
    await postForm(
      `/dashboard/messages?to=${loud.id}`,
      { intent: "send", to: loud.id, content: "hi loud" },
      { cookie: a.cookie },
    );
    expect(await q.waitFor((f) => f.type === "badges" && f.unreadNotifications === 1)).toBeTruthy();
    expect(await l.waitFor((f) => f.type === "notification")).toMatchObject({ message: "hi loud" });
    await sleep(200);
    expect(q.frames.some((f) => f.type === "notification")).toBe(false);
    // Marking all read pushes the new (zero) counts to the user's open tabs.
    await postForm("/dashboard?index", { intent: "mark-all-read" }, { cookie: loud.cookie });
    expect(await l.waitFor((f) => f.type === "badges" && f.unreadNotifications === 0)).toBeTruthy();
    q.close();
    l.close();
  });
});

describe("notification links", () => {
  it("point at what the notification is about", () => {
    expect(notificationHref("ride_request", { ride_id: "r1" })).toBe("/rides/r1");
    expect(notificationHref("ride_update", { ride_id: "r1", request_id: "q1" })).toBe("/booking-confirmation/q1");
    expect(notificationHref("ride_update", { ride_id: "r1" })).toBe("/rides/r1");
    expect(notificationHref("message", { conversation_id: "c1" })).toBe("/dashboard/messages?c=c1");
    expect(notificationHref("community", { community_id: "k1" })).toBe("/communities/k1");
    expect(notificationHref("ride_update", { ride_id: "../../evil" })).toBeNull();
  });
});
