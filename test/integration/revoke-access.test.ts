// Issue 34, findings 2 and 3: "Sign out everywhere", a password reset and account deletion end
// every way into the account together (revokeAllAccess): every session, every open WebSocket of
// every session (the user's hub and the conversation rooms), the calendar feed and every Web Push
// subscription, including those an intruder's session made. A deleted account can no longer be
// messaged. Runs under vitest.fuzz.config.ts (SOCKET_FILES): sockets need shared storage.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createCompletedRide } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { conversationIdFor } from "~/domain/conversation";
import { createCalendarFeed } from "~/models/calendar.server";
import { audience } from "~/models/context.server";
import { ACCOUNT_CLOSED } from "~/models/messages.server";
import { notificationInsert } from "~/models/notifications.server";
import { issueResetToken } from "~/models/password-resets.server";
import { subscribePush } from "~/models/push.server";
import { createSession } from "~/models/sessions.server";
import { serializeSessionCookie } from "~/utils/auth.server";
import { publishChange } from "~/utils/fanout.server";
import { openSocket, sleep } from "../support/messages";
import { toastOf } from "../support/rides";
import { BASE, db, get, postForm, signedInUser } from "../support/worker";

const PEPPER = "test-pepper";
const PASSWORD = "old-masala-2026";

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

const cookieFor = async (sessionId: string) =>
  (await serializeSessionCookie(new Request(BASE), env, sessionId)).split(";")[0];
const count = async (table: string, userId: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE user_id = ?`).bind(userId).first<number>("n")) ?? 0;
const sessionIds = async (userId: string) =>
  (await env.DB.prepare("SELECT id FROM sessions WHERE user_id = ?").bind(userId).all<{ id: string }>()).results.map(
    (r) => r.id,
  );

/**
 * Asha (a password account) signed in on her phone, and an intruder signed in as her on another
 * browser, who made a calendar feed and subscribed two browsers to her push notifications. Both
 * sessions have her hub and her chat with Bharat open.
 */
async function compromised() {
  const asha = await signedInUser({ fullName: "Asha Rao", password: PASSWORD, pepper: PEPPER });
  const bharat = await signedInUser({ fullName: "Bharat Menon" });
  const community = await createCommunity({ db: db() }, { createdBy: asha.id });
  await addMember({ db: db() }, { communityId: community.id, userId: bharat.id });
  const hello = await postForm(
    "/dashboard/messages",
    { intent: "send", to: asha.id, content: "hello", clientId: crypto.randomUUID() },
    { cookie: bharat.cookie },
  );
  expect(hello.status).toBe(302);
  const intruderSession = await createSession({ db: db() }, asha.id);
  const intruder = await cookieFor(intruderSession);
  const feedToken = await createCalendarFeed({ db: db() }, asha.id);
  for (const name of ["one", "two"]) {
    const endpoint = `https://push.example.test/send/${crypto.randomUUID()}-${name}`;
    await subscribePush({ db: db(), env }, asha.id, {
      endpoint,
      p256dh: "BExamplePublicKey",
      auth: "ExampleAuthSecret",
    });
  }
  const room = `/ws/conversation/${conversationIdFor(asha.id, bharat.id)}`;
  const sockets = [
    await watched("/ws/user", asha.cookie),
    await watched(room, asha.cookie),
    await watched("/ws/user", intruder),
    await watched(room, intruder),
  ];
  expect(await sessionIds(asha.id)).toHaveLength(2);
  expect((await get(`/calendar/${feedToken}/rides.ics`)).status).toBe(200);
  expect(await count("push_subscriptions", asha.id)).toBe(2);
  return { asha, bharat, intruder, oldSessions: [asha.sessionId, intruderSession], feedToken, sockets, room };
}

/** The three ways to end all access, each as the browser sends it. */
const endings = {
  "Sign out everywhere (Settings)": async (asha: { cookie: string }) => {
    const res = await postForm("/dashboard/settings", { intent: "sign-out-everywhere" }, { cookie: asha.cookie });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/login");
    expect(toastOf(res)?.title).toBe("Signed out everywhere");
    // This browser's own session cookie is cleared too.
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith("lr_session="));
    expect(cleared).toMatch(/^lr_session=;|Max-Age=0\b|Expires=Thu, 01 Jan 1970/i);
  },
  "password reset": async (asha: { id: string }) => {
    const token = await issueResetToken({ db: db() }, asha.id);
    const res = await postForm(
      "/reset-password",
      { token, password: "new-filter-coffee-2026", confirmPassword: "new-filter-coffee-2026" },
      { headers: { "CF-Connecting-IP": `198.51.100.${Math.floor(Math.random() * 250)}` } },
    );
    expect(res.status).toBe(302);
    expect(toastOf(res)?.title).toBe("Password changed");
  },
  "account deletion": async (asha: { cookie: string }) => {
    const res = await postForm(
      "/dashboard/delete-account",
      { password: PASSWORD, confirm: "DELETE" },
      { cookie: asha.cookie },
    );
    expect(res.status).toBe(302);
    expect(toastOf(res)?.title).toBe("Your account was deleted");
  },
};

describe("ending all access to an account", () => {
  for (const [name, end] of Object.entries(endings)) {
    it(`${name}: every session, socket, calendar feed and push subscription of the account ends at once`, async () => {
      const { asha, intruder, oldSessions, feedToken, sockets, room } = await compromised();
      await end(asha);
      // Every socket of both sessions closes now, not at the hubs' 5-minute re-check.
      for (const s of sockets) expect(await untilClosed(s)).toBe(4001);
      // No old session is left (a reset signs the resetting browser in with a new one).
      const left = await sessionIds(asha.id);
      expect(left.filter((id) => oldSessions.includes(id))).toEqual([]);
      expect(left.length).toBeLessThanOrEqual(name === "password reset" ? 1 : 0);
      for (const cookie of [asha.cookie, intruder]) {
        const page = await get("/dashboard", { cookie });
        expect(page.status).toBe(302);
        expect(page.headers.get("Location")).toMatch(/^\/login/);
        await expect(openSocket("/ws/user", cookie)).rejects.toThrow(/401/);
        await expect(openSocket(room, cookie)).rejects.toThrow(/401/);
      }
      // The feed URL the intruder copied answers 404; no browser gets her notifications.
      expect((await get(`/calendar/${feedToken}/rides.ics`)).status).toBe(404);
      expect(await count("calendar_feeds", asha.id)).toBe(0);
      expect(await count("push_subscriptions", asha.id)).toBe(0);
    });
  }

  it("Settings offers Sign out everywhere as a plain form POST (works without JavaScript)", async () => {
    const me = await signedInUser();
    const html = await (await get("/dashboard/settings", { cookie: me.cookie })).text();
    const form =
      /<form method="post"[^>]*>\s*<input type="hidden" name="intent" value="sign-out-everywhere"\/>\s*<button type="submit"[^>]*>Sign out everywhere<\/button>/.exec(
        html,
      );
    expect(form).not.toBeNull();
  });
});

describe("a deleted account", () => {
  it("cannot be messaged: a clear refusal, nothing stored, no notification", async () => {
    const { asha, bharat } = await compromised();
    // A ride they shared stays in the history after deletion, so the pair still "shares a ride":
    // only the closed-account rule refuses.
    await createCompletedRide(
      { db: db() },
      { driverId: asha.id, date: addDays(istDate(), -1), riders: [{ riderId: bharat.id }] },
    );
    const deleted = await postForm(
      "/dashboard/delete-account",
      { password: PASSWORD, confirm: "DELETE" },
      { cookie: asha.cookie },
    );
    expect(deleted.status).toBe(302);
    const before = await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE receiver_id = ?")
      .bind(asha.id)
      .first<number>("n");
    const res = await postForm(
      "/dashboard/messages",
      { intent: "send", to: asha.id, content: "still there?", clientId: crypto.randomUUID() },
      { cookie: bharat.cookie },
    );
    expect(res.status).toBe(403);
    expect(await res.text()).toContain(ACCOUNT_CLOSED);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE receiver_id = ?").bind(asha.id).first<number>("n"),
    ).toBe(before);
    expect(await count("notifications", asha.id)).toBe(0);
    // Opening the old chat shows the history but no way to write.
    const chat = await (
      await get(`/dashboard/messages?c=${conversationIdFor(asha.id, bharat.id)}`, { cookie: bharat.cookie })
    ).text();
    expect(chat).toContain(ACCOUNT_CLOSED);
  });

  it("gets no notification from any path (THE notification insert skips it), so nothing is queued for it", async () => {
    const { asha } = await compromised();
    await postForm("/dashboard/delete-account", { password: PASSWORD, confirm: "DELETE" }, { cookie: asha.cookie });
    await db().batch([
      notificationInsert(db(), {
        userId: asha.id,
        type: "ride_request",
        title: "New ride request",
        message: "Someone asked for a seat",
        data: { ride_id: "x" },
      }),
    ]);
    expect(await count("notifications", asha.id)).toBe(0);
    expect(await count("outbox", asha.id)).toBe(0);
  });

  it("leaves no trace of the person's name in others' queued or sent outbox payloads", async () => {
    const { asha, bharat } = await compromised();
    // What a seat request from Asha queued for Bharat (the trigger copies the words into the outbox).
    await db().batch([
      notificationInsert(db(), {
        userId: bharat.id,
        type: "ride_request",
        title: "New ride request",
        message: "Asha Rao asked for 1 seat on your ride from Koramangala",
        data: { ride_id: "r1", status: "pending" },
      }),
    ]);
    const queued = async () =>
      (
        await env.DB.prepare("SELECT payload FROM outbox WHERE user_id = ? AND kind = 'notification'")
          .bind(bharat.id)
          .all<{ payload: string }>()
      ).results.map((r) => JSON.parse(r.payload) as { title: string; message: string; data: Record<string, unknown> });
    expect((await queued()).some((p) => p.message.includes("Asha Rao"))).toBe(true);
    const res = await postForm(
      "/dashboard/delete-account",
      { password: PASSWORD, confirm: "DELETE" },
      { cookie: asha.cookie },
    );
    expect(res.status).toBe(302);
    // (Asha was the only admin of their community, so Bharat is also told he is its admin now.)
    const after = (await queued()).filter((p) => p.title !== "You are now an admin");
    expect(after.length).toBeGreaterThan(0);
    for (const p of after) {
      expect(JSON.stringify(p)).not.toContain("Asha Rao");
      // The rest of the payload is intact.
      expect(p.title).toBe("New ride request");
      expect(p.data).toEqual({ ride_id: "r1", status: "pending" });
    }
    expect(after.some((p) => p.message === "Deleted user asked for 1 seat on your ride from Koramangala")).toBe(true);
  });

  it("hears nothing from the live fan-out, even on a socket that outlived the deletion (a failed close)", async () => {
    const me = await signedInUser();
    const s = await watched("/ws/user", me.cookie);
    const fanOut = async () => {
      const ctx = createExecutionContext();
      publishChange({ env, ctx, db: db() }, audience([me.id]));
      await waitOnExecutionContext(ctx);
      await sleep(300);
    };
    // While the account is live, the fan-out reaches the socket...
    await fanOut();
    await s.waitFor((f) => f.type === "badges");
    const seen = s.frames.length;
    // ...and once it is marked deleted (the close at deletion did not reach this socket), not.
    await env.DB.prepare("UPDATE users SET deleted_at = ? WHERE id = ?").bind(Date.now(), me.id).run();
    await fanOut();
    expect(s.frames.length).toBe(seen);
    s.close();
  });
});
