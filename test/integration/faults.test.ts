// Faults: a Durable Object reset in the middle of a conversation, a D1 write that fails
// half-way, and a client that reconnects. D1 is the system of record; the Durable Objects
// only fan out what was committed, so none of these may lose or duplicate anything.
import { runInDurableObject, SELF } from "cloudflare:test";
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRide } from "../../db/factories";
import { BASE, db, postForm, signedInUser, tableCounts } from "../support/worker";
import { walkPages } from "../support/pages";

async function openSocket(path: string, cookie: string) {
  const res = await SELF.fetch(`${BASE}${path}`, { headers: { Upgrade: "websocket", Cookie: cookie, Origin: BASE } });
  expect(res.status).toBe(101);
  const ws = res.webSocket!;
  ws.accept();
  const frames: { id: string; content: string }[] = [];
  let closed = false;
  ws.addEventListener("message", (e) => {
    const f = JSON.parse(String(e.data));
    if (f.type === "message") frames.push(f);
  });
  ws.addEventListener("close", () => (closed = true));
  return { ws, frames, isClosed: () => closed };
}

const contents = (html: string) =>
  [...html.matchAll(/data-testid="message"[^>]*>[\s\S]*?<p[^>]*>([^<]*)<\/p>/g)].map((m) => m[1]);

describe("faults", () => {
  it("a conversation's Durable Object reset in the middle of 100 messages: none lost, none duplicated; the reconnected client catches up from D1", async () => {
    const a = await signedInUser({ fullName: "Asha Sender" });
    const b = await signedInUser({ fullName: "Bala Receiver" });
    const c = await createCommunity({ db: db() }, { createdBy: a.id });
    await addMember({ db: db() }, { communityId: c.id, userId: b.id });
    const send = (i: number) =>
      postForm(
        "/dashboard/messages",
        { intent: "send", to: b.id, content: `msg-${i}`, clientId: `fault-client-${i}` },
        { cookie: a.cookie },
      );

    const first = await send(0);
    expect(first.status).toBe(302);
    const conversationId = new URL(first.headers.get("Location")!, BASE).searchParams.get("c")!;
    let socket = await openSocket(`/ws/conversation/${conversationId}`, b.cookie);
    const seen = new Map<string, number>();
    for (let i = 1; i <= 100; i++) {
      if (i === 50) {
        // Reset the room as the runtime would on a crash or a deploy: every socket drops.
        await runInDurableObject(
          env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conversationId)),
          (_room, state) => {
            try {
              state.abort("fault injection");
            } catch {
              // abort() throws inside the object by design.
            }
          },
        ).catch(() => undefined);
      }
      const res = await send(i);
      expect(res.status, `message ${i}`).toBe(302);
      // A client that did not see its answer retries with the same message id.
      if (i >= 45 && i <= 55) expect((await send(i)).status).toBe(302);
      if (i === 60) {
        // The fault was real: the old socket got nothing sent after the reset.
        expect(socket.frames.some((f) => Number(f.content.slice(4)) >= 50)).toBe(false);
        expect(socket.frames.some((f) => f.content === "msg-49")).toBe(true);
        // The client notices the drop, reconnects and re-reads the conversation from D1.
        for (const f of socket.frames) seen.set(f.content, (seen.get(f.content) ?? 0) + 1);
        socket.ws.close();
        socket = await openSocket(`/ws/conversation/${conversationId}`, b.cookie);
        const { pages } = await walkPages(
          `/dashboard/messages?c=${conversationId}`,
          b.cookie,
          "older-messages",
          contents,
        );
        for (const text of pages.flat()) if (!seen.has(text)) seen.set(text, 1);
      }
    }
    // Frames after the reconnect arrive on the new socket.
    await new Promise((r) => setTimeout(r, 300));
    for (const f of socket.frames) seen.set(f.content, (seen.get(f.content) ?? 0) + 1);
    socket.ws.close();

    const rows = await env.DB.prepare(
      "SELECT content, count(*) AS n FROM messages WHERE conversation_id = ? GROUP BY content",
    )
      .bind(conversationId)
      .all<{ content: string; n: number }>();
    expect(rows.results).toHaveLength(101);
    expect(rows.results.every((r) => r.n === 1)).toBe(true);
    for (let i = 1; i <= 100; i++) {
      expect(seen.has(`msg-${i}`), `msg-${i} reached the client`).toBe(true);
    }
    // The chat's pages (following Older messages) render each stored message once.
    const shown = (
      await walkPages(`/dashboard/messages?c=${conversationId}`, b.cookie, "older-messages", contents)
    ).pages.flat();
    expect(shown).toHaveLength(101);
    expect(new Set(shown).size).toBe(101);
  }, 120_000);

  it("a D1 error in the middle of a write: a clear message and no partial state", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: driver.id, seats: 3 });
    // Booking writes the request and the driver's notification in one batch; make the
    // second statement fail as a D1 outage or constraint bug would.
    await env.DB.prepare(
      "CREATE TRIGGER fault_notifications BEFORE INSERT ON notifications BEGIN SELECT RAISE(ABORT, 'injected D1 failure'); END",
    ).run();
    try {
      const before = await tableCounts();
      const res = await postForm(
        `/rides/${ride.id}/book`,
        { seats: "1", notes: "Near the gate" },
        { cookie: rider.cookie },
      );
      const body = await res.text();
      expect(res.status).toBeGreaterThanOrEqual(500);
      expect(body).toContain("nothing was changed");
      expect(body).not.toContain("injected D1 failure");
      expect(await tableCounts()).toEqual(before);
    } finally {
      await env.DB.prepare("DROP TRIGGER fault_notifications").run();
    }
    // With D1 healthy again the same submission goes through.
    const res = await postForm(
      `/rides/${ride.id}/book`,
      { seats: "1", notes: "Near the gate" },
      { cookie: rider.cookie },
    );
    expect(res.status).toBe(302);
  });

  it("a user's socket that reconnects gets the current badges, including what happened while it was away", async () => {
    const driver = await signedInUser();
    const rider = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: driver.id, seats: 3 });
    const s1 = await SELF.fetch(`${BASE}/ws/user`, {
      headers: { Upgrade: "websocket", Cookie: driver.cookie, Origin: BASE },
    });
    s1.webSocket!.accept();
    s1.webSocket!.close();
    // While the driver is offline, a seat is requested.
    expect((await postForm(`/rides/${ride.id}/book`, { seats: "1", notes: "" }, { cookie: rider.cookie })).status).toBe(
      302,
    );
    // On reconnect the client re-reads (the page loader / the badges it renders).
    const s2 = await SELF.fetch(`${BASE}/ws/user`, {
      headers: { Upgrade: "websocket", Cookie: driver.cookie, Origin: BASE },
    });
    expect(s2.status).toBe(101);
    s2.webSocket!.accept();
    const html = await (await SELF.fetch(`${BASE}/dashboard`, { headers: { Cookie: driver.cookie } })).text();
    expect(html).toMatch(/data-testid="badge-my-rides" data-count="1"/);
    s2.webSocket!.close();
  });
});
