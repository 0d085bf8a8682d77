import { SELF } from "cloudflare:test";
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRide, createRideRequest } from "../../db/factories";
import { conversationIdFor } from "~/domain/conversation";
import { BASE, Browser, db, get, postForm, signedInUser, tableCounts, notificationsFor } from "../support/worker";
import { openSocket, sleep } from "../support/messages";

const REFUSED = "You can only message people who share a community or a ride with you.";

/** Two signed-in users who share an approved community membership. */
async function neighbours() {
  const a = await signedInUser({ fullName: "Asha Rao" });
  const b = await signedInUser({ fullName: "Bharat Menon" });
  const community = await createCommunity({ db: db() }, { createdBy: a.id });
  await addMember({ db: db() }, { communityId: community.id, userId: b.id });
  return { a, b, conversationId: conversationIdFor(a.id, b.id), community };
}

const send = (from: { cookie: string }, to: string, content: string, clientId?: string) =>
  postForm(
    `/dashboard/messages?to=${to}`,
    { intent: "send", to, content, ...(clientId ? { clientId } : {}) },
    { cookie: from.cookie },
  );

const messagesOf = (conversationId: string) =>
  env.DB.prepare(
    "SELECT sender_id, receiver_id, content, client_id, read_at FROM messages WHERE conversation_id = ? ORDER BY created_at",
  )
    .bind(conversationId)
    .all<{
      sender_id: string;
      receiver_id: string;
      content: string;
      client_id: string | null;
      read_at: number | null;
    }>()
    .then((r) => r.results);

const notificationsOf = (userId: string) => notificationsFor(userId, ["type", "title", "message", "data", "read"]);

describe("sending a message", () => {
  it("stores the trimmed text, the conversation summary and the receiver's message notification in one go", async () => {
    const { a, b, conversationId } = await neighbours();
    const res = await send(a, b.id, "  Leaving at 8:45 from 27th Main  ", "client-0001-abcd");
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/dashboard/messages?c=${conversationId}`);
    expect(await messagesOf(conversationId)).toEqual([
      {
        sender_id: a.id,
        receiver_id: b.id,
        content: "Leaving at 8:45 from 27th Main",
        client_id: "client-0001-abcd",
        read_at: null,
      },
    ]);
    const conv = await env.DB.prepare(
      "SELECT user_a, user_b, last_message_preview, last_sender_id FROM conversations WHERE id = ?",
    )
      .bind(conversationId)
      .first();
    expect(conv).toEqual({
      user_a: [a.id, b.id].sort()[0],
      user_b: [a.id, b.id].sort()[1],
      last_message_preview: "Leaving at 8:45 from 27th Main",
      last_sender_id: a.id,
    });
    const notes = await notificationsOf(b.id);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({
      type: "message",
      title: "New message from Asha Rao",
      message: "Leaving at 8:45 from 27th Main",
      read: 0,
    });
    expect(notes[0].data).toMatchObject({ conversation_id: conversationId, sender_id: a.id });
    expect(await notificationsOf(a.id)).toHaveLength(0);
  });

  it("the receiver sees the conversation with its unread count; opening it (a POST from the list) marks the incoming messages (and their notifications) read", async () => {
    const { a, b, conversationId } = await neighbours();
    await send(a, b.id, "First ping");
    await send(a, b.id, "Second ping");
    const list = await (await get("/dashboard/messages", { cookie: b.cookie })).text();
    expect(list).toContain("Asha Rao");
    expect(list).toContain("Second ping");
    expect(list).toMatch(/data-testid="conversation-unread"[^>]*>2/);
    expect(list).toContain("Select a chat to start messaging");
    expect(list).toMatch(/data-testid="badge-messages" data-count="2"/);
    // The list entry is a form posting intent=open for this conversation (works without JS).
    expect(list).toContain('name="intent" value="open"');
    expect(list).toContain(`name="c" value="${conversationId}"`);

    // Reading the chat by GET changes nothing: it still shows as unread.
    const peek = await get(`/dashboard/messages?c=${conversationId}`, {
      cookie: b.cookie,
      headers: { "Sec-Fetch-Site": "same-origin" },
    });
    expect(peek.status).toBe(200);
    const peekHtml = await peek.text();
    expect(peekHtml).toContain("First ping");
    expect(peekHtml).toMatch(/data-testid="conversation-unread"[^>]*>2/);
    expect((await messagesOf(conversationId)).every((m) => m.read_at === null)).toBe(true);

    const open = await postForm("/dashboard/messages", { intent: "open", c: conversationId }, { cookie: b.cookie });
    expect(open.status).toBe(302);
    expect(open.headers.get("Location")).toBe(`/dashboard/messages?c=${conversationId}`);
    expect((await messagesOf(conversationId)).every((m) => m.read_at !== null)).toBe(true);
    expect((await notificationsOf(b.id)).every((n) => n.read === 1)).toBe(true);

    const page = await get(`/dashboard/messages?c=${conversationId}`, {
      cookie: b.cookie,
      headers: { "Sec-Fetch-Site": "same-origin" },
    });
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("First ping");
    expect(html).toContain('placeholder="Type a message..."');
    expect(html).toContain('data-testid="message" data-own="false"');
    expect(html).not.toContain('data-testid="conversation-unread"');
    // The shell's badges show the counts after the chat was read.
    expect(html).toMatch(/data-testid="badge-messages" data-count="0"/);
  });

  it("a chat reached by a GET link with unread messages offers the same POST without JavaScript", async () => {
    const { a, b, conversationId } = await neighbours();
    await send(a, b.id, "Via a notification link");
    const html = await (await get(`/dashboard/messages?c=${conversationId}`, { cookie: b.cookie })).text();
    expect(html).toMatch(/<noscript>[^]*name="intent" value="open"[^]*Mark as read[^]*<\/noscript>/);
    // The sender has nothing unread in it: no button.
    const mine = await (await get(`/dashboard/messages?c=${conversationId}`, { cookie: a.cookie })).text();
    expect(mine).not.toContain("Mark as read");
  });

  it("own messages are on the right and the partner's on the left", async () => {
    const { a, b, conversationId } = await neighbours();
    await send(a, b.id, "From Asha");
    await send(b, a.id, "From Bharat");
    const html = await (await get(`/dashboard/messages?c=${conversationId}`, { cookie: a.cookie })).text();
    const own = /data-own="true"[^]*?From Asha/.test(html);
    const theirs = /data-own="false"[^]*?From Bharat/.test(html);
    expect(own && theirs).toBe(true);
    expect(html).toMatch(/justify-end[^]*From Asha/);
  });

  it("refuses a stranger with a clear message and stores nothing", async () => {
    const a = await signedInUser();
    const stranger = await signedInUser({ fullName: "Stranger Danger" });
    const before = await tableCounts();
    const res = await send(a, stranger.id, "Hello there");
    expect(res.status).toBe(403);
    expect(await res.text()).toContain(REFUSED);
    expect(await tableCounts()).toEqual(before);
    const page = await (await get(`/dashboard/messages?to=${stranger.id}`, { cookie: a.cookie })).text();
    expect(page).toContain(REFUSED);
    expect(page).not.toContain('placeholder="Type a message..."');
    // A pending or rejected community membership is not enough either.
    const community = await createCommunity({ db: db() }, { createdBy: a.id });
    await addMember({ db: db() }, { communityId: community.id, userId: stranger.id, status: "pending" });
    expect((await send(a, stranger.id, "Still no")).status).toBe(403);
    expect(await tableCounts()).toMatchObject({ messages: before.messages, notifications: before.notifications });
  });

  it("allows a driver and a pending or accepted rider of the same ride, in both directions, but not a rejected one", async () => {
    const driver = await signedInUser({ fullName: "Dev Driver" });
    const rider = await signedInUser({ fullName: "Riya Rider" });
    const rejected = await signedInUser({ fullName: "Ravi Rejected" });
    const ride = await createRide({ db: db() }, { driverId: driver.id });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, status: "pending" });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rejected.id, status: "rejected" });
    expect((await send(rider, driver.id, "Is the AC working?")).status).toBe(302);
    expect((await send(driver, rider.id, "Yes it is")).status).toBe(302);
    expect((await send(rejected, driver.id, "Please reconsider")).status).toBe(403);
    expect((await send(driver, rejected.id, "Sorry")).status).toBe(403);
    // The ride card link: ?to= opens the chat (existing → redirect to ?c=).
    const open = await get(`/dashboard/messages?to=${driver.id}`, { cookie: rider.cookie });
    expect(open.status).toBe(302);
    expect(open.headers.get("Location")).toBe(`/dashboard/messages?c=${conversationIdFor(rider.id, driver.id)}`);
  });

  it("?to= for someone new shows an empty chat with the composer; sending creates the conversation", async () => {
    const { a, b, conversationId } = await neighbours();
    const page = await (await get(`/dashboard/messages?to=${b.id}`, { cookie: a.cookie })).text();
    expect(page).toContain("Bharat Menon");
    expect(page).toContain('placeholder="Type a message..."');
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM conversations WHERE id = ?").bind(conversationId).first("n"),
    ).toBe(0);
    expect((await send(a, b.id, "hi")).status).toBe(302);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM conversations WHERE id = ?").bind(conversationId).first("n"),
    ).toBe(1);
    expect((await get(`/dashboard/messages?to=${a.id}`, { cookie: a.cookie })).status).toBe(404);
  });

  it("validates: empty or whitespace is not sent; over 2,000 characters is refused with a clear message; exactly 2,000 is fine", async () => {
    const { a, b, conversationId } = await neighbours();
    const before = await tableCounts();
    expect((await send(a, b.id, "   ")).status).toBe(400);
    const long = await send(a, b.id, "x".repeat(2001));
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("Message must be at most 2,000 characters");
    expect(await tableCounts()).toEqual(before);
    expect((await send(a, b.id, "y".repeat(2000))).status).toBe(302);
    expect((await messagesOf(conversationId))[0].content).toHaveLength(2000);
    const unknown = await postForm("/dashboard/messages", { intent: "delete-everything" }, { cookie: a.cookie });
    expect(unknown.status).toBe(400);
  });

  it("a retried send with the same clientId is stored once (20 concurrent identical sends)", async () => {
    const { a, b, conversationId } = await neighbours();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => send(a, b.id, "Only once please", "retry-abcdef-123456")),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(302));
    expect(await messagesOf(conversationId)).toHaveLength(1);
    expect(await notificationsOf(b.id)).toHaveLength(1);
    // A different clientId is a different message.
    await send(a, b.id, "Only once please", "retry-abcdef-999999");
    expect(await messagesOf(conversationId)).toHaveLength(2);
  });
});

describe("nobody reads or marks someone else's messages", () => {
  it("an outsider gets 404 for the chat, its socket and its mark-read, and changes nothing", async () => {
    const { a, b, conversationId } = await neighbours();
    await send(a, b.id, "Private note");
    const outsider = await signedInUser();
    const page = await get(`/dashboard/messages?c=${conversationId}`, { cookie: outsider.cookie });
    expect(page.status).toBe(404);
    expect(await page.text()).not.toContain("Private note");
    const mark = await postForm(
      `/dashboard/messages?c=${conversationId}`,
      { intent: "mark-read", c: conversationId },
      { cookie: outsider.cookie },
    );
    expect(mark.status).toBe(404);
    const socket = await SELF.fetch(`${BASE}/ws/conversation/${conversationId}`, {
      headers: { Upgrade: "websocket", Cookie: outsider.cookie, Origin: BASE },
    });
    expect(socket.status).toBe(404);
    expect((await messagesOf(conversationId))[0].read_at).toBeNull();
    const open = await postForm(
      "/dashboard/messages",
      { intent: "open", c: conversationId },
      { cookie: outsider.cookie },
    );
    expect(open.status).toBe(404);
    expect((await messagesOf(conversationId))[0].read_at).toBeNull();
    // The sender opening the chat does not mark their own sent message read either.
    await postForm("/dashboard/messages", { intent: "open", c: conversationId }, { cookie: a.cookie });
    expect((await messagesOf(conversationId))[0].read_at).toBeNull();
    // The receiver's explicit mark-read (what the live client posts) does.
    const ok = await postForm(
      `/dashboard/messages?c=${conversationId}`,
      { intent: "mark-read", c: conversationId },
      { cookie: b.cookie },
    );
    expect(ok.status).toBe(200);
    expect((await messagesOf(conversationId))[0].read_at).not.toBeNull();
  });

  it("no navigation to a chat marks it read (same-site or cross-site), and a cross-site open is refused", async () => {
    const { a, b, conversationId } = await neighbours();
    await send(a, b.id, "Read me later");
    await get(`/dashboard/messages?c=${conversationId}`, {
      cookie: b.cookie,
      headers: { "Sec-Fetch-Site": "cross-site" },
    });
    await get(`/dashboard/messages?c=${conversationId}`, {
      cookie: b.cookie,
      headers: { "Sec-Fetch-Site": "same-origin" },
    });
    expect((await messagesOf(conversationId))[0].read_at).toBeNull();
    const forged = await postForm(
      "/dashboard/messages",
      { intent: "open", c: conversationId },
      { cookie: b.cookie, headers: { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" } },
    );
    expect(forged.status).toBe(403);
    expect((await messagesOf(conversationId))[0].read_at).toBeNull();
  });

  it("conversation sockets need a session and a same-site Origin", async () => {
    const { a, b, conversationId } = await neighbours();
    await send(a, b.id, "hi");
    const anon = await SELF.fetch(`${BASE}/ws/conversation/${conversationId}`, {
      headers: { Upgrade: "websocket", Origin: BASE },
    });
    expect(anon.status).toBe(401);
    const foreign = await SELF.fetch(`${BASE}/ws/conversation/${conversationId}`, {
      headers: { Upgrade: "websocket", Cookie: a.cookie, Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    const user = await SELF.fetch(`${BASE}/ws/user`, {
      headers: { Upgrade: "websocket", Origin: "https://evil.example", Cookie: a.cookie },
    });
    expect(user.status).toBe(403);
  });
});

describe("live delivery through the Durable Objects", () => {
  it("a committed message reaches the open chat and the receiver's badges and toast", async () => {
    const { a, b, conversationId } = await neighbours();
    await send(a, b.id, "warm-up");
    const room = await openSocket(`/ws/conversation/${conversationId}`, b.cookie);
    const hub = await openSocket("/ws/user", b.cookie);
    await send(a, b.id, "Live one");
    expect(await room.waitFor((f) => f.type === "message")).toMatchObject({
      type: "message",
      conversationId,
      senderId: a.id,
      receiverId: b.id,
      content: "Live one",
    });
    expect(await hub.waitFor((f) => f.type === "badges" && f.unreadMessages === 2)).toMatchObject({
      unreadNotifications: 2,
    });
    expect(await hub.waitFor((f) => f.type === "notification")).toMatchObject({
      notificationType: "message",
      title: "New message from Asha Rao",
    });
    // Every frame a browser sends is validated: anything but a ping closes the socket.
    const closed = new Promise<number>((resolve) => room.ws.addEventListener("close", (e) => resolve(e.code)));
    room.ws.send(JSON.stringify({ type: "message", content: "spoof" }));
    expect(await closed).toBe(1003);
    hub.close();
  });

  it("messages sent while the receiver was offline are there on the next load, and a socket opened later gets later frames", async () => {
    const { a, b, conversationId } = await neighbours();
    await send(a, b.id, "first");
    const room = await openSocket(`/ws/conversation/${conversationId}`, b.cookie);
    room.close();
    await sleep(50);
    await send(a, b.id, "while you were away");
    const html = await (await get(`/dashboard/messages?c=${conversationId}`, { cookie: b.cookie })).text();
    expect(html).toContain("while you were away");
    const again = await openSocket(`/ws/conversation/${conversationId}`, b.cookie);
    await send(a, b.id, "back online");
    expect(await again.waitFor((f) => f.type === "message" && f.content === "back online")).toBeTruthy();
    expect(again.frames.some((f) => f.content === "while you were away")).toBe(false);
    again.close();
  });

  it("closing every socket (the object may hibernate or be evicted) and reconnecting loses nothing", async () => {
    const { a, b, conversationId } = await neighbours();
    await send(a, b.id, "one");
    const first = await openSocket(`/ws/user`, b.cookie);
    await send(a, b.id, "two");
    await first.waitFor((f) => f.type === "badges" && f.unreadMessages === 2);
    first.close();
    const stub = env.USER_HUB.get(env.USER_HUB.idFromName(b.id));
    for (let i = 0; i < 20 && (await stub.connectionCount()) > 0; i++) await sleep(25);
    expect(await stub.connectionCount()).toBe(0);
    await send(a, b.id, "three (nobody listening)");
    const second = await openSocket(`/ws/user`, b.cookie);
    await send(a, b.id, "four");
    expect(await second.waitFor((f) => f.type === "badges" && f.unreadMessages === 4)).toBeTruthy();
    expect((await messagesOf(conversationId)).map((m) => m.content)).toEqual([
      "one",
      "two",
      "three (nobody listening)",
      "four",
    ]);
    second.close();
  });

  it("a sender's retried (duplicate) send publishes nothing new", async () => {
    const { a, b, conversationId } = await neighbours();
    await send(a, b.id, "warm-up");
    const room = await openSocket(`/ws/conversation/${conversationId}`, a.cookie);
    await send(a, b.id, "dup", "dup-000000-aaaa");
    await room.waitFor((f) => f.content === "dup");
    await send(a, b.id, "dup", "dup-000000-aaaa");
    await sleep(300);
    expect(room.frames.filter((f) => f.content === "dup")).toHaveLength(1);
    room.close();
  });
});

describe("browser flow without JavaScript", () => {
  it("send, redirect, and the chat page shows the message", async () => {
    const { a, b } = await neighbours();
    const browser = new Browser();
    browser.cookies.set("lr_session", a.cookie.split("=")[1]);
    const res = await browser.post(`/dashboard/messages?to=${b.id}`, {
      intent: "send",
      to: b.id,
      content: "Form POST works",
    });
    const page = await browser.follow(res);
    expect(page.url).toMatch(/^\/dashboard\/messages\?c=/);
    expect(page.html).toContain("Form POST works");
  });
});
