import { env } from "../support/env";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRide, createUser } from "../../db/factories";
import { safeRedirect } from "~/utils/auth.server";
import { BASE, db, get, postForm, signedInUser } from "../support/worker";
import { APP_COOKIE_NAMES, MALFORMED_COOKIE_VALUES, malformedCookie, offSiteRedirect } from "../support/fuzz-inputs";
import { workerFetch } from "../support/worker-fetch";

// Issue 19, findings 1 (open redirect through dot segments) and 5 (an unreadable signed
// cookie answered 500 on every page).

/** A Location a browser would follow without leaving this site. */
function expectSameOriginPath(location: string | null, what: string) {
  expect(location, what).not.toBeNull();
  expect(
    location!.startsWith("/") && !location!.startsWith("//") && !location!.startsWith("/\\"),
    `${what}: ${JSON.stringify(location)}`,
  ).toBe(true);
  // A browser drops tabs and newlines before parsing a URL.
  const asBrowser = new URL(location!.replace(/[\t\n\r]/g, ""), BASE);
  expect(asBrowser.origin, `${what}: ${JSON.stringify(location)}`).toBe(BASE);
}

const REPORTED = ["/..//evil.example/phish", "/.//evil.example", "/x/..//evil.example", "/%2e%2e//evil.example"];

let ip = 0;
const nextIp = () => ({ "CF-Connecting-IP": `203.0.113.${++ip % 250}`, "X-Test-Seq": String(ip) });

describe("finding 1: redirectTo is checked after normalisation", () => {
  it("the reported variants fall back, in safeRedirect and after a real sign-in", async () => {
    for (const to of REPORTED) expect(safeRedirect(to), to).toBe("/dashboard");
    await createUser(
      { db: db() },
      { email: "asha@example.in", password: "masala-dosa-42", pepper: env.PASSWORD_PEPPER },
    );
    for (const redirectTo of REPORTED) {
      const res = await postForm(
        "/login",
        { identifier: "asha@example.in", password: "masala-dosa-42", redirectTo },
        { headers: nextIp() },
      );
      expect(res.status).toBe(302);
      expect(res.headers.get("Location"), redirectTo).toBe("/dashboard");
    }
    // A same-site path with dot segments still works, normalised.
    const ok = await postForm(
      "/login",
      { identifier: "asha@example.in", password: "masala-dosa-42", redirectTo: "/rides/../dashboard/settings" },
      { headers: nextIp() },
    );
    expect(ok.headers.get("Location")).toBe("/dashboard/settings");
  });

  it("the login page's redirectTo from ?redirectTo= is refused when it leads off-site", async () => {
    await createUser(
      { db: db() },
      { email: "bala@example.in", password: "masala-dosa-42", pepper: env.PASSWORD_PEPPER },
    );
    const page = await get("/login?redirectTo=%2F..%2F%2Fevil.example%2Fphish");
    expect(page.status).toBe(200);
    const res = await postForm(
      "/login",
      { identifier: "bala@example.in", password: "masala-dosa-42", redirectTo: "/..//evil.example/phish" },
      { headers: nextIp() },
    );
    expect(res.headers.get("Location")).toBe("/dashboard");
  });

  it("generated variants (dot segments, encoded dots, slashes, backslashes, tabs, newlines) never give an off-site Location after sign-in or a ride intent", async () => {
    await createUser(
      { db: db() },
      { email: "chitra@example.in", password: "masala-dosa-42", pepper: env.PASSWORD_PEPPER },
    );
    const user = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: (await createUser({ db: db() })).id });
    // The function itself, over many inputs (cheap).
    fc.assert(
      fc.property(offSiteRedirect, (to) => {
        const out = safeRedirect(to);
        expectSameOriginPath(out, `safeRedirect(${JSON.stringify(to)})`);
      }),
      { numRuns: 2000 },
    );
    // And through the worker: sign-in and a ride intent, whose answers a browser follows.
    await fc.assert(
      fc.asyncProperty(offSiteRedirect, async (redirectTo) => {
        const signIn = await postForm(
          "/login",
          { identifier: "chitra@example.in", password: "masala-dosa-42", redirectTo },
          { headers: nextIp() },
        );
        expect(signIn.status).toBe(302);
        expectSameOriginPath(signIn.headers.get("Location"), `sign-in with ${JSON.stringify(redirectTo)}`);
        const intent = await postForm(
          `/rides/${ride.id}`,
          { intent: "save", rideId: ride.id, redirectTo },
          { cookie: user.cookie },
        );
        expect(intent.status).toBeLessThan(500);
        expectSameOriginPath(intent.headers.get("Location"), `ride intent with ${JSON.stringify(redirectTo)}`);
      }),
      { numRuns: 25 },
    );
  });
});

describe("finding 5: an unreadable cookie is no cookie", () => {
  const PAGES = ["/", "/login", "/signup", "/dashboard", "/onboarding", "/rides", "/login.data", "/dashboard.data"];

  it("the reported cookies answer pages without a 500, and a visitor's bad session cookie is cleared", async () => {
    for (const cookie of [
      "lr_session=%",
      "lr_session=a%zz",
      "lr_toast=%",
      "lr_onboarding=%",
      "lr_oauth=%",
      "lr_ref=%",
      "lr_return=a%zz",
    ]) {
      for (const path of PAGES) {
        const res = await get(path, { cookie });
        expect(res.status, `${path} with ${cookie}`).toBeLessThan(500);
        await res.arrayBuffer();
      }
    }
    const dashboard = await get("/dashboard", { cookie: "lr_session=%" });
    expect(dashboard.status).toBe(302);
    expect(dashboard.headers.get("Location")).toBe("/login?redirectTo=%2Fdashboard");
    expect(dashboard.headers.get("Set-Cookie")).toMatch(/^lr_session=;.*Max-Age=0/);
    const login = await get("/login", { cookie: "lr_toast=%" });
    expect(login.status).toBe(200);
    expect(login.headers.get("Set-Cookie")).toMatch(/^lr_toast=;.*Max-Age=0/);
  });

  it("a signed-in user with an unreadable toast or onboarding draft cookie keeps working", async () => {
    const user = await signedInUser({ onboarded: false });
    const onboarding = await get("/onboarding", { cookie: `${user.cookie}; lr_onboarding=a%zz; lr_toast=%` });
    expect(onboarding.status).toBe(200);
    expect(await onboarding.text()).toContain("Step 1 of 4");
    const next = await postForm(
      "/onboarding?step=1",
      { step: "1", intent: "next", phone: "9845012345" },
      { cookie: `${user.cookie}; lr_onboarding=%` },
    );
    expect(next.status).toBe(302);
    expect(next.headers.get("Location")).toBe("/onboarding?step=2");
    // The unreadable draft is replaced by a readable one.
    expect(next.headers.get("Set-Cookie")).toMatch(/^lr_onboarding=eyJ[^;]+\./);
  });

  it("an unreadable OAuth state cookie does not block Google sign-in", async () => {
    const res = await postForm("/auth/google", {}, { cookie: "lr_oauth=%" });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("Location")!).host).toBe("accounts.google.com");
  });

  it("the /ws/user upgrade with an unreadable session cookie is a 401, not a 500", async () => {
    for (const value of ["%", "a%zz"]) {
      const res = await workerFetch(
        new Request(`${BASE}/ws/user`, {
          headers: { Upgrade: "websocket", Cookie: `lr_session=${value}`, Origin: BASE },
        }),
      );
      expect(res.status).toBe(401);
    }
  });

  it("generated malformed cookies on pages, sign-in and the socket upgrade: never a 5xx", async () => {
    expect(APP_COOKIE_NAMES.length).toBeGreaterThan(5);
    expect(MALFORMED_COOKIE_VALUES).toContain("%");
    const user = await signedInUser();
    await fc.assert(
      fc.asyncProperty(malformedCookie, fc.constantFrom(...PAGES), fc.boolean(), async (cookie, path, signedIn) => {
        const header = signedIn ? `${user.cookie}; ${cookie}` : cookie;
        const page = await get(path, { cookie: header });
        expect(page.status, `${path} with ${cookie}`).toBeLessThan(500);
        await page.arrayBuffer();
        const post = await postForm(
          "/login",
          { identifier: "nobody@example.in", password: "whatever-123" },
          { cookie: header, headers: nextIp() },
        );
        expect(post.status, `POST /login with ${cookie}`).toBeLessThan(500);
        const ws = await workerFetch(
          new Request(`${BASE}/ws/user`, { headers: { Upgrade: "websocket", Cookie: cookie, Origin: BASE } }),
        );
        expect(ws.status, `/ws/user with ${cookie}`).toBeLessThan(500);
      }),
      { numRuns: 30 },
    );
  });
});
