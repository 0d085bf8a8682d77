import { SELF } from "cloudflare:test";
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { BASE, signedInUser } from "../support/worker";

function nextMessage(ws: WebSocket): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no frame within 2s")), 2000);
    ws.addEventListener(
      "message",
      (e) => {
        clearTimeout(timer);
        resolve(typeof e.data === "string" ? e.data : "");
      },
      { once: true },
    );
  });
}

describe("WebSockets reach Durable Objects through server.ts", () => {
  it("accepts a signed-in user's socket on their UserHub and delivers what the hub publishes", async () => {
    const user = await signedInUser();
    const res = await SELF.fetch(`${BASE}/ws/user`, {
      headers: { Upgrade: "websocket", Cookie: user.cookie, Origin: BASE },
    });
    expect(res.status).toBe(101);
    const ws = res.webSocket!;
    ws.accept();
    const hub = env.USER_HUB.get(env.USER_HUB.idFromName(user.id));
    const received = nextMessage(ws);
    const sent = await hub.publish({ type: "badges", pendingRequests: 2, unreadNotifications: 1, unreadMessages: 0 });
    expect(sent).toBe(1);
    expect(JSON.parse(await received)).toMatchObject({ type: "badges", pendingRequests: 2 });
    ws.send(JSON.stringify({ type: "ping" }));
    expect(JSON.parse(await nextMessage(ws))).toEqual({ type: "pong" });
    ws.close(1000, "done");
  });

  it("refuses a socket without a session", async () => {
    const res = await SELF.fetch(`${BASE}/ws/user`, { headers: { Upgrade: "websocket" } });
    expect(res.status).toBe(401);
    expect(res.webSocket).toBeNull();
  });

  it("refuses a socket from a foreign Origin even with a valid session", async () => {
    const user = await signedInUser();
    const res = await SELF.fetch(`${BASE}/ws/user`, {
      headers: { Upgrade: "websocket", Cookie: user.cookie, Origin: "https://evil.example" },
    });
    expect(res.status).toBe(403);
  });

  it("refuses a conversation socket for a conversation the user is not in", async () => {
    const user = await signedInUser();
    const res = await SELF.fetch(`${BASE}/ws/conversation/abcdef`, {
      headers: { Upgrade: "websocket", Cookie: user.cookie },
    });
    expect(res.status).toBe(404);
  });
});
