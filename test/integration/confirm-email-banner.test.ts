// Issue 38, item 3: a member whose e-mail is not confirmed gets no ride e-mails, and nothing
// said so. The dashboard and Settings now ask (with Resend, the profile's rate-limited "send
// again", which comes back to the page it was pressed on), and Settings says e-mail is paused.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { toastOf } from "../support/rides";
import { get, postForm, signedInUser } from "../support/worker";
import { debugFetch } from "../support/worker-fetch";

const BANNER = "Confirm your e-mail to get ride e-mails";
const PAUSED = "E-mail is paused until you confirm your address.";
const html = async (path: string, cookie: string) =>
  (await (await get(path, { cookie })).text()).replaceAll("<!-- -->", "");

/** The D1 round trips a page made (Server-Timing with DEBUG_TIMING, as d1-budget.test.ts reads it). */
function d1Queries(res: Response) {
  const m = /d1;(?:dur=[\d.]+;)?desc="[^"]*queries=(\d+)/.exec(res.headers.get("Server-Timing") ?? "");
  expect(m, "Server-Timing d1 entry").not.toBeNull();
  return Number(m![1]);
}

async function verifyMails(userId: string) {
  return (await env.DB.prepare("SELECT count(*) AS n FROM outbox WHERE user_id = ? AND kind = 'verify_email'")
    .bind(userId)
    .first<{ n: number }>())!.n;
}

describe("the confirm-your-e-mail banner", () => {
  it("shows on the dashboard and in Settings while the address is unconfirmed, and goes once it is", async () => {
    const user = await signedInUser();
    for (const path of ["/dashboard", "/dashboard/settings"]) {
      const page = await html(path, user.cookie);
      expect(page, path).toContain(BANNER);
      expect(page, path).toContain(user.email!);
      // A real form: Resend works without JavaScript.
      expect(page, path).toMatch(/<form method="post" action="\/dashboard\/profile"[^>]*>/);
      expect(page, path).toContain(`name="back" value="${path}"`);
    }
    await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    for (const path of ["/dashboard", "/dashboard/settings"]) {
      const page = await html(path, user.cookie);
      expect(page, path).not.toContain(BANNER);
      expect(page, path).not.toContain('value="resend-verification"');
    }
  });

  it("is not shown to an account without an e-mail address", async () => {
    const user = await signedInUser({ email: null, phone: "9800000123" });
    expect(await html("/dashboard", user.cookie)).not.toContain(BANNER);
    expect(await html("/dashboard/settings", user.cookie)).not.toContain(PAUSED);
  });

  it("costs the dashboard no D1 round trip: still the session's read and one batch", async () => {
    const user = await signedInUser();
    const res = await debugFetch("http://localhost/dashboard", { headers: { Cookie: user.cookie } });
    expect((await res.text()).includes(BANNER)).toBe(true);
    expect(d1Queries(res)).toBeLessThanOrEqual(2);
  });
});

describe("Resend", () => {
  it("queues one confirmation e-mail and comes back to the page it was pressed on, with its toast", async () => {
    const user = await signedInUser();
    const res = await postForm(
      "/dashboard/profile",
      { intent: "resend-verification", back: "/dashboard" },
      { cookie: user.cookie },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard");
    expect(toastOf(res)).toMatchObject({ title: "Confirmation link sent", description: "Please check your e-mail." });
    expect(await verifyMails(user.id)).toBe(1);
    const fromSettings = await postForm(
      "/dashboard/profile",
      { intent: "resend-verification", back: "/dashboard/settings" },
      { cookie: user.cookie },
    );
    expect(fromSettings.headers.get("Location")).toBe("/dashboard/settings");
    // The same minute: the existing once-a-minute key keeps it one e-mail.
    expect(await verifyMails(user.id)).toBe(1);
  });

  it("goes back only to a page that shows the banner: any other `back` is refused, nothing queued", async () => {
    const user = await signedInUser();
    for (const back of ["https://evil.example/", "//evil.example", "/rides"]) {
      const res = await postForm(
        "/dashboard/profile",
        { intent: "resend-verification", back },
        { cookie: user.cookie },
      );
      expect(res.headers.get("Location") ?? "", back).not.toContain("evil.example");
      expect(res.status, back).toBeLessThan(500);
    }
    expect(await verifyMails(user.id)).toBe(0);
  });

  it("an error (already confirmed) comes back to the banner's page with the error toast", async () => {
    const user = await signedInUser({ emailVerifiedAt: Date.now() });
    const res = await postForm(
      "/dashboard/profile",
      { intent: "resend-verification", back: "/dashboard/settings" },
      { cookie: user.cookie },
    );
    expect(res.headers.get("Location")).toBe("/dashboard/settings");
    expect(toastOf(res)).toMatchObject({ type: "error", title: "No confirmation link sent" });
  });
});

describe("Settings' e-mail notifications", () => {
  it("says e-mail is paused while the address is unconfirmed, even with the switch on", async () => {
    const user = await signedInUser();
    const page = await html("/dashboard/settings", user.cookie);
    expect(page).toContain(PAUSED);
    expect(page).toMatch(/data-testid="toggle-emailNotifications"[^>]*>/);
    await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ?").bind(Date.now(), user.id).run();
    expect(await html("/dashboard/settings", user.cookie)).not.toContain(PAUSED);
  });
});
