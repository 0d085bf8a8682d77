// Issue 19, finding 3: an open WebSocket must not outlive its session. Sign-out closes the
// session's sockets (UserHub and every ConversationRoom it joined), other sessions of the same
// user keep theirs, and the objects' periodic re-check closes sockets of expired or deleted
// sessions.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity } from "../../db/factories";
import { conversationIdFor } from "~/domain/conversation";
import { createSession } from "~/models/sessions.server";
import { serializeSessionCookie } from "~/utils/auth.server";
import { closeUserSockets } from "~/models/access.server";
import { BASE, db, postForm, signedInUser } from "../support/worker";
import { openSocket, sleep } from "../support/messages";

async function watched(path: string, cookie: string) {
  const socket = await openSocket(path, cookie);
  let closedWith: number | null = null;
  socket.ws.addEventListener("close", (e) => (closedWith = e.code));
  return { ...socket, closedWith: () => closedWith };
}

async function untilClosed(s: { closedWith: () => number | null }, ms = 3000) {
  const deadline = Date.now() + ms;
  while (s.closedWith() === null && Date.now() < deadline) await sleep(25);
  return s.closedWith();
}

async function cookieFor(sessionId: string) {
  return (await serializeSessionCookie(new Request(BASE), env, sessionId)).split(";")[0];
}

/** Two neighbours with a conversation; `a` has a second session (another browser). */
async function setup() {
  const a = await signedInUser({ fullName: "Asha Rao" });
  const b = await signedInUser({ fullName: "Bharat Menon" });
  const community = await createCommunity({ db: db() }, { createdBy: a.id });
  await addMember({ db: db() }, { communityId: community.id, userId: b.id });
  const first = await postForm(
    "/dashboard/messages",
    { intent: "send", to: a.id, content: "hello", clientId: "setup-client-1" },
    { cookie: b.cookie },
  );
  expect(first.status).toBe(302);
  const conversationId = conversationIdFor(a.id, b.id);
  const otherCookie = await cookieFor(await createSession({ db: db() }, a.id));
  return { a, b, conversationId, otherCookie };
}

const userHub = (userId: string) => env.USER_HUB.get(env.USER_HUB.idFromName(userId));

describe("sockets end with their session", () => {
  it("POST /logout closes that session's /ws/user and /ws/conversation sockets: no frame after it; another session of the same user keeps receiving", async () => {
    const { a, b, conversationId, otherCookie } = await setup();
    const hubSocket = await watched("/ws/user", a.cookie);
    const roomSocket = await watched(`/ws/conversation/${conversationId}`, a.cookie);
    const otherHub = await watched("/ws/user", otherCookie);
    const otherRoom = await watched(`/ws/conversation/${conversationId}`, otherCookie);

    const out = await postForm("/logout", {}, { cookie: a.cookie });
    expect(out.status).toBe(302);
    expect(await untilClosed(hubSocket)).toBe(4001);
    expect(await untilClosed(roomSocket)).toBe(4001);
    const seenBefore = hubSocket.frames.length + roomSocket.frames.length;

    // New message (room frame), badges and a notification (hub frames) after the sign-out.
    const sent = await postForm(
      "/dashboard/messages",
      { intent: "send", to: a.id, content: "after sign-out", clientId: "after-signout-1" },
      { cookie: b.cookie },
    );
    expect(sent.status).toBe(302);
    await sleep(1000);
    expect(hubSocket.frames.length + roomSocket.frames.length).toBe(seenBefore);

    // The other browser's sockets are open and got all three kinds of frame.
    expect(otherHub.closedWith()).toBeNull();
    expect(otherRoom.closedWith()).toBeNull();
    await otherRoom.waitFor((f) => f.type === "message" && f.content === "after sign-out");
    await otherHub.waitFor((f) => f.type === "badges");
    await otherHub.waitFor((f) => f.type === "notification");
    // And the signed-out cookie cannot open a new one.
    await expect(openSocket("/ws/user", a.cookie)).rejects.toThrow(/401/);
    otherHub.close();
    otherRoom.close();
  });

  it("the re-check closes a socket whose session expires (at its expiry) or was deleted without a sign-out", async () => {
    const { a, conversationId } = await setup();
    // A session with 1.5 s to live: the alarm set for its expiry closes the socket.
    const shortId = "e".repeat(64);
    await env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)")
      .bind(shortId, a.id, Date.now(), Date.now() + 1500)
      .run();
    const shortCookie = await cookieFor(shortId);
    const expiring = await watched("/ws/user", shortCookie);
    const expiringRoom = await watched(`/ws/conversation/${conversationId}`, shortCookie);
    const live = await watched("/ws/user", a.cookie);
    expect(await untilClosed(expiring, 5000)).toBe(4001);
    expect(await untilClosed(expiringRoom, 5000)).toBe(4001);
    expect(live.closedWith()).toBeNull();

    // A session row deleted by some other path: the next periodic re-check closes its socket.
    await env.DB.prepare("DELETE FROM sessions WHERE id = ?").bind(a.sessionId).run();
    expect(live.closedWith()).toBeNull();
    await runDurableObjectAlarm(userHub(a.id));
    expect(await untilClosed(live)).toBe(4001);
  });

  it("a socket keeps a re-check alarm while it is open, never later than the session's expiry", async () => {
    const { a } = await setup();
    const s = await watched("/ws/user", a.cookie);
    const alarm = await runInDurableObject(userHub(a.id), (_hub, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm!).toBeLessThanOrEqual(Date.now() + 5 * 60_000);
    // A live session survives the re-check.
    await runDurableObjectAlarm(userHub(a.id));
    await sleep(200);
    expect(s.closedWith()).toBeNull();
    s.close();
  });

  it("closeUserSockets (every session of a user ended) closes all of that user's sockets and no one else's", async () => {
    const { a, b, conversationId, otherCookie } = await setup();
    const sockets = [
      await watched("/ws/user", a.cookie),
      await watched(`/ws/conversation/${conversationId}`, a.cookie),
      await watched("/ws/user", otherCookie),
      await watched(`/ws/conversation/${conversationId}`, otherCookie),
    ];
    const bRoom = await watched(`/ws/conversation/${conversationId}`, b.cookie);
    const closed = await closeUserSockets({ env }, a.id);
    expect(closed).toBe(4);
    for (const s of sockets) expect(await untilClosed(s)).toBe(4001);
    await sleep(200);
    expect(bRoom.closedWith()).toBeNull();
    bRoom.close();
  });
});
