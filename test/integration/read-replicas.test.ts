import { env } from "../support/env";
import { afterEach, describe, expect, it } from "vitest";
import { createUser } from "../../db/factories";
import { appCookie } from "~/utils/cookies.server";
import { BOOKMARK_COOKIE } from "~/utils/d1-session.server";
import { fakeGoogle, stopFakeGoogle } from "../support/fake-google";
import { BASE, db, signedInUser } from "../support/worker";
import { workerFetch } from "../support/worker-fetch";

// Issue 17, item 3 (ADR 0026): reads through the D1 Sessions API, the bookmark of a write in
// a cookie. Local D1 has no replicas, so a stale read cannot be staged here; what these tests
// prove is the part LoopRide owns: which constraint or bookmark every request opens its
// session with, and that the bookmark handed to the next page covers the write. D1
// guarantees that a session started from a bookmark reads at least that state.

const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;

type Opened = { from: string | undefined; session: D1DatabaseSession };

/** The real D1 binding, recording every session the worker opens (and the sessions themselves). */
function watchedEnv() {
  const opened: Opened[] = [];
  const DB = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "withSession") {
        return (from?: string) => {
          const session = target.withSession(from);
          opened.push({ from, session });
          return session;
        };
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { env: { ...env, DB } as Env, opened };
}

/** The primary's bookmark now. */
async function primaryBookmark() {
  const s = env.DB.withSession("first-primary");
  await s.prepare("SELECT 1").all();
  return s.getBookmark()!;
}

/** A browser that keeps its cookies, talking to the worker with the watched binding. */
function browser(workerEnv: Env, cookie = "") {
  const jar = new Map<string, string>(cookie ? cookie.split("; ").map((c) => c.split("=", 2) as [string, string]) : []);
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const absorb = (res: Response) => {
    for (const sc of res.headers.getSetCookie()) {
      const [pair, ...attrs] = sc.split(";");
      const name = pair.slice(0, pair.indexOf("="));
      if (attrs.some((a) => /max-age=0\b/i.test(a))) jar.delete(name);
      else jar.set(name, pair.slice(pair.indexOf("=") + 1));
    }
    return res;
  };
  return {
    jar,
    get: async (path: string) =>
      absorb(
        await workerFetch(
          new Request(`${BASE}${path}`, { redirect: "manual", headers: { Cookie: header() } }),
          workerEnv,
        ),
      ),
    post: async (path: string, fields: Record<string, string>) =>
      absorb(
        await workerFetch(
          new Request(`${BASE}${path}`, {
            method: "POST",
            redirect: "manual",
            body: new URLSearchParams(fields),
            headers: {
              "Content-Type": "application/x-www-form-urlencoded",
              Host: "localhost",
              Origin: BASE,
              "Sec-Fetch-Site": "same-origin",
              Cookie: header(),
            },
          }),
          workerEnv,
        ),
      ),
  };
}

const bookmarkSetBy = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith(`${BOOKMARK_COOKIE}=`));

describe("read replicas: D1 sessions and the bookmark cookie", () => {
  afterEach(() => {
    stopFakeGoogle();
  });

  it("a page without a bookmark reads through first-unconstrained and sets no bookmark", async () => {
    const user = await signedInUser();
    const { env: watched, opened } = watchedEnv();
    const res = await browser(watched, user.cookie).get("/dashboard/settings");
    expect(res.status).toBe(200);
    expect(opened.map((o) => o.from)).toEqual(["first-unconstrained"]);
    expect(bookmarkSetBy(res)).toBeUndefined();
  });

  it("read-your-writes across a redirect: the POST writes on the primary, its redirect carries the bookmark, the next GET starts there and sees the write", async () => {
    const user = await signedInUser();
    const { env: watched, opened } = watchedEnv();
    const b = browser(watched, user.cookie);
    const before = await primaryBookmark();

    const res = await b.post("/dashboard/settings", { setting: "darkMode", value: "on" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard/settings");
    expect(opened.map((o) => o.from)).toEqual(["first-primary"]);
    const written = opened[0].session.getBookmark()!;
    expect(written).toMatch(BOOKMARK);
    // The write moved the primary past where it was before the request.
    expect(written.localeCompare(before)).toBe(1);
    const set = bookmarkSetBy(res)!;
    expect(set).toMatch(/HttpOnly/i);
    expect(set).toMatch(/SameSite=Lax/i);
    expect(set).toMatch(/Path=\//);
    expect(set).not.toMatch(/Secure/i); // plain http here; the https case is below

    const page = await b.get(res.headers.get("Location")!);
    expect(page.status).toBe(200);
    expect(opened.map((o) => o.from)).toEqual(["first-primary", written]);
    const html = await page.text();
    expect(html).toMatch(/<html[^>]*class="dark"/);
    expect(html).toMatch(/aria-checked="true"[^>]*aria-labelledby="label-darkMode"/);
    // Reading does not move the cookie.
    expect(bookmarkSetBy(page)).toBeUndefined();
  });

  it("signing in: the new session row is read through the sign-in's bookmark on the first signed-in page", async () => {
    await createUser(
      { db: db() },
      { email: "meera@example.in", password: "idli-vada-77", pepper: env.PASSWORD_PEPPER },
    );
    const { env: watched, opened } = watchedEnv();
    const b = browser(watched);
    const res = await b.post("/login", {
      identifier: "meera@example.in",
      password: "idli-vada-77",
      redirectTo: "/dashboard/settings",
    });
    expect(res.status).toBe(302);
    expect(bookmarkSetBy(res)).toBeDefined();
    const written = opened[0].session.getBookmark()!;
    const page = await b.get("/dashboard/settings");
    expect(page.status).toBe(200);
    expect(opened.at(-1)!.from).toBe(written);
  });

  it("the cookie is refreshed after each write: later writes hand on later bookmarks", async () => {
    const user = await signedInUser();
    const { env: watched, opened } = watchedEnv();
    const b = browser(watched, user.cookie);
    const first = await b.post("/dashboard/settings", { setting: "rideReminders", value: "off" });
    const one = b.jar.get(BOOKMARK_COOKIE);
    const second = await b.post("/dashboard/settings", { setting: "rideReminders", value: "on" });
    const two = b.jar.get(BOOKMARK_COOKIE);
    expect(bookmarkSetBy(first)).toBeDefined();
    expect(bookmarkSetBy(second)).toBeDefined();
    expect(one).toBeDefined();
    expect(two).not.toBe(one);
    const [a, c] = [opened[0].session.getBookmark()!, opened[1].session.getBookmark()!];
    expect(c.localeCompare(a)).toBe(1);
    const page = await b.get("/dashboard/settings");
    expect(opened.at(-1)!.from).toBe(c);
    expect(await page.text()).toMatch(/aria-checked="true"[^>]*aria-labelledby="label-rideReminders"/);
  });

  it("a GET that writes (the Google sign-in callback creates the account and session) hands on its bookmark too", async () => {
    const { env: watched, opened } = watchedEnv();
    const b = browser(watched);
    const start = await b.post("/auth/google", {});
    const state = new URL(start.headers.get("Location")!).searchParams.get("state")!;
    fakeGoogle({ sub: "g-rr-1", name: "Kavya Rao", email: "kavya@gmail.com", email_verified: true });
    const callback = await b.get(`/auth/callback?code=abc&state=${state}`);
    expect(callback.status).toBe(302);
    expect(callback.headers.get("Location")).toBe("/onboarding");
    expect(opened.at(-1)!.from).toBe("first-unconstrained");
    const written = opened.at(-1)!.session.getBookmark()!;
    expect(bookmarkSetBy(callback)).toBeDefined();
    const next = await b.get("/onboarding");
    expect(next.status).toBe(200);
    expect(opened.at(-1)!.from).toBe(written);
  });

  it("over https the bookmark cookie is Secure", async () => {
    const user = await signedInUser();
    const origin = "https://localhost";
    const { serializeSessionCookie } = await import("~/utils/auth.server");
    const cookie = (await serializeSessionCookie(new Request(origin), env, user.sessionId)).split(";")[0];
    const res = await workerFetch(
      new Request(`${origin}/dashboard/settings`, {
        method: "POST",
        body: new URLSearchParams({ setting: "darkMode", value: "on" }),
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Host: "localhost",
          Origin: origin,
          "Sec-Fetch-Site": "same-origin",
          Cookie: cookie,
        },
      }),
    );
    expect(res.status).toBe(302);
    expect(bookmarkSetBy(res)).toMatch(/;\s*Secure/i);
  });

  it("a POST that changes nothing starts on the primary and hands on no bookmark", async () => {
    const user = await signedInUser();
    const { env: watched, opened } = watchedEnv();
    const res = await browser(watched, user.cookie).post("/dashboard/settings", {
      setting: "noSuchSetting",
      value: "on",
    });
    expect(res.status).toBe(400);
    expect(opened.map((o) => o.from)).toEqual(["first-primary"]);
    expect(bookmarkSetBy(res)).toBeUndefined();
  });

  it("a forged, foreign or garbage bookmark cookie: no 500, the page reads from the primary and the cookie is cleared", async () => {
    const user = await signedInUser();
    const wellFormed = "ffffffff-ffffffff-ffffffff-ffffffffffffffffffffffffffffffff";
    // A real bookmark signed with another secret: a cookie this deployment did not set.
    const foreign = appCookie<string>(new Request(BASE), { ...env, SESSION_SECRET: "another-secret" } as Env, {
      name: BOOKMARK_COOKIE,
      maxAge: 60,
    });
    const foreignCookie = (await foreign.serialize(await primaryBookmark()))
      .split(";")[0]
      .slice(BOOKMARK_COOKIE.length + 1);
    expect(foreignCookie).toBeTruthy();
    for (const value of [
      "garbage",
      "%",
      "a%zz",
      wellFormed,
      encodeURIComponent(btoa(JSON.stringify(wellFormed))),
      foreignCookie,
      "x".repeat(3000),
    ]) {
      const { env: watched, opened } = watchedEnv();
      const res = await workerFetch(
        new Request(`${BASE}/dashboard/settings`, {
          headers: { Cookie: `${user.cookie}; ${BOOKMARK_COOKIE}=${value}` },
        }),
        watched,
      );
      expect(res.status, value).toBe(200);
      expect(
        opened.map((o) => o.from),
        value,
      ).toEqual(["first-primary"]);
      expect(bookmarkSetBy(res), value).toMatch(/Max-Age=0/i);
    }
  });

  it("the scheduled run and Durable Objects keep using the binding itself (the primary)", async () => {
    // Nothing but requests opens a session: a cron run through the watched binding opens none.
    const { env: watched, opened } = watchedEnv();
    const { default: worker } = await import("../../server");
    const { createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const ctx = createExecutionContext();
    await worker.scheduled!(
      { cron: "*/5 * * * *", scheduledTime: Date.now(), noRetry() {} } as ScheduledController,
      watched,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(opened).toEqual([]);
  });
});
