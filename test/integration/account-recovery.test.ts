// Issue 15, item 2: "Forgot password?" (one answer for every address, rate-limited, honeypot),
// single-use 30-minute reset links that a newer request withdraws, a reset that ends every
// other session and signs in afresh, and e-mail verification (sign-up's e-mail, the badge, the
// referral that waits for it).
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { HONEYPOT_FIELD } from "~/components/honeypot";
import { RESET_TTL_MS, resetPassword, RESETS_PER_ACCOUNT } from "~/models/password-resets.server";
import { completeReferral, ensureReferralCode, redeemReferralCode } from "~/models/referrals.server";
import { RESET_LINK_INVALID } from "~/schemas/account-recovery";
import { deliverOutbox } from "~/models/outbox/deliver.server";
import { hashPassword } from "~/utils/password.server";
import { toastOf } from "../support/rides";
import { awayFromMinuteBoundary, BASE, Browser, db, get, postForm, signedInUser } from "../support/worker";
import { createSession } from "~/models/sessions.server";
import { serializeSessionCookie } from "~/utils/auth.server";
import { openSocket, sleep } from "../support/messages";

const PEPPER = "test-pepper";
const OLD = "old-masala-2026";
const NEW = "new-filter-coffee-2026";

async function mailsTo(email: string) {
  const r = await env.DB.prepare("SELECT subject, text_body FROM mail_sink WHERE to_address = ? ORDER BY created_at")
    .bind(email.toLowerCase())
    .all<{ subject: string; text_body: string }>();
  return r.results;
}

function link(text: string, path: string): string {
  const m = text.match(new RegExp(`http://localhost${path.replace("?", "\\?")}[^\\s]*`));
  if (!m) throw new Error(`no ${path} link in ${text}`);
  return m[0].slice(BASE.length);
}

async function resetLinkFor(email: string, index = -1) {
  const mails = (await mailsTo(email)).filter((m) => m.subject === "Reset your LoopRide password");
  return link(mails.at(index)!.text_body, "/reset-password?token=");
}

const tokenOf = (path: string) => new URL(path, BASE).searchParams.get("token")!;

async function account() {
  awayFromMinuteBoundary(20);
  const user = await signedInUser({ password: OLD, pepper: PEPPER, fullName: "Kavya Nair" });
  return user;
}

describe("forgot password", () => {
  it("answers the same for a known and an unknown address; only the account holder gets a link", async () => {
    const user = await account();
    const known = await postForm("/forgot-password", { email: user.email!.toUpperCase() });
    const unknown = await postForm("/forgot-password", { email: "nobody-here@example.test" });
    for (const res of [known, unknown]) {
      expect(res.status).toBe(302);
      expect(res.headers.get("Location")).toBe("/login");
    }
    expect(toastOf(known)).toEqual(toastOf(unknown));
    expect(toastOf(known)?.title).toBe("Check your e-mail");
    expect(await mailsTo("nobody-here@example.test")).toEqual([]);
    const [mail] = await mailsTo(user.email!);
    expect(mail.subject).toBe("Reset your LoopRide password");
    expect(mail.text_body).toContain("The link works once, for 30 minutes.");
    // Only the hash of the token is stored.
    const token = tokenOf(await resetLinkFor(user.email!));
    const stored = await env.DB.prepare("SELECT token_hash FROM password_resets WHERE user_id = ?")
      .bind(user.id)
      .all<{ token_hash: string }>();
    expect(stored.results).toHaveLength(1);
    expect(stored.results[0].token_hash).not.toContain(token);
    expect(stored.results[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("a bad address is a clear error; the honeypot and the per-account limit send nothing, with the same answer", async () => {
    const user = await account();
    const bad = await postForm("/forgot-password", { email: "not-an-address" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Please enter a valid e-mail address");
    const bot = await postForm("/forgot-password", { email: user.email!, [HONEYPOT_FIELD]: "spam" });
    expect(bot.status).toBe(302);
    expect(await mailsTo(user.email!)).toEqual([]);
    for (let i = 0; i < RESETS_PER_ACCOUNT + 2; i++) {
      const res = await postForm(
        "/forgot-password",
        { email: user.email! },
        { headers: { "CF-Connecting-IP": `10.0.0.${i}` } },
      );
      expect(res.status).toBe(302);
      expect(toastOf(res)?.title).toBe("Check your e-mail");
    }
    expect((await mailsTo(user.email!)).length).toBe(RESETS_PER_ACCOUNT);
  });

  it("is rate-limited per address", async () => {
    awayFromMinuteBoundary(20);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (
          await postForm(
            "/forgot-password",
            { email: `x${i}@example.test` },
            { headers: { "CF-Connecting-IP": "10.9.9.9" } },
          )
        ).status,
      );
    expect(statuses.slice(0, 10).every((s) => s === 302)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});

describe("resetting the password", () => {
  it("ends every other session, signs in afresh, and the new password works (the old one not)", async () => {
    const user = await account();
    const otherSession = await createSession({ db: db() }, user.id);
    const otherCookie = (await serializeSessionCookie(new Request(BASE), env, otherSession)).split(";")[0];
    expect((await get("/dashboard", { cookie: otherCookie })).status).toBe(200);
    await postForm("/forgot-password", { email: user.email! });
    const path = await resetLinkFor(user.email!);
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Choose a new password");

    const browser = new Browser();
    const res = await browser.post(path, { token: tokenOf(path), password: NEW, confirmPassword: NEW });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard");
    expect(toastOf(res)?.title).toBe("Password changed");
    // The old sessions are gone; the new one works.
    expect((await get("/dashboard", { cookie: otherCookie })).headers.get("Location")).toMatch(/^\/login/);
    expect((await get("/dashboard", { cookie: user.cookie })).headers.get("Location")).toMatch(/^\/login/);
    expect((await browser.get("/dashboard")).status).toBe(200);
    const sessions = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?")
      .bind(user.id)
      .first<{ n: number }>();
    expect(sessions?.n).toBe(1);
    // The link proved the mailbox.
    const verified = await env.DB.prepare("SELECT email_verified_at FROM users WHERE id = ?")
      .bind(user.id)
      .first<{ email_verified_at: number | null }>();
    expect(verified?.email_verified_at).not.toBeNull();
    // Sign in with the new password, not the old.
    expect((await postForm("/login", { identifier: user.email!, password: OLD })).status).toBe(400);
    expect((await postForm("/login", { identifier: user.email!, password: NEW })).status).toBe(302);
  });

  it("closes the open live-update sockets of every other session", async () => {
    const user = await account();
    const socket = await openSocket("/ws/user", user.cookie);
    let closedWith: number | null = null;
    socket.ws.addEventListener("close", (e) => (closedWith = e.code));
    await postForm("/forgot-password", { email: user.email! });
    const path = await resetLinkFor(user.email!);
    expect((await postForm(path, { token: tokenOf(path), password: NEW, confirmPassword: NEW })).status).toBe(302);
    const deadline = Date.now() + 3000;
    while (closedWith === null && Date.now() < deadline) await sleep(25);
    expect(closedWith).toBe(4001);
  });

  it("a link works once, even when used concurrently", async () => {
    const user = await account();
    await postForm("/forgot-password", { email: user.email! });
    const token = tokenOf(await resetLinkFor(user.email!));
    const hashes = await Promise.all(Array.from({ length: 5 }, (_, i) => hashPassword(`${NEW}-${i}`, PEPPER)));
    const results = await Promise.allSettled(hashes.map((h) => resetPassword({ db: db() }, token, h)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const winner = hashes[results.findIndex((r) => r.status === "fulfilled")];
    const stored = await env.DB.prepare("SELECT hash FROM passwords WHERE user_id = ?")
      .bind(user.id)
      .first<{ hash: string }>();
    expect(stored?.hash).toBe(winner);
    // Used up: the page says so and a POST changes nothing.
    expect(await (await get(`/reset-password?token=${token}`)).text()).toContain("This link has expired");
    const again = await postForm("/reset-password", { token, password: NEW, confirmPassword: NEW });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain(RESET_LINK_INVALID);
    expect(
      (await env.DB.prepare("SELECT hash FROM passwords WHERE user_id = ?").bind(user.id).first<{ hash: string }>())
        ?.hash,
    ).toBe(winner);
  });

  it("expires after 30 minutes, and a newer request withdraws the older link", async () => {
    const user = await account();
    await postForm("/forgot-password", { email: user.email! });
    const first = tokenOf(await resetLinkFor(user.email!));
    const hash = await hashPassword(NEW, PEPPER);
    await expect(resetPassword({ db: db() }, first, hash, Date.now() + RESET_TTL_MS + 1000)).rejects.toThrow(
      RESET_LINK_INVALID,
    );
    await postForm("/forgot-password", { email: user.email! });
    const second = tokenOf(await resetLinkFor(user.email!));
    expect(second).not.toBe(first);
    await expect(resetPassword({ db: db() }, first, hash)).rejects.toThrow(RESET_LINK_INVALID);
    await expect(resetPassword({ db: db() }, second, hash)).resolves.toEqual({ userId: user.id });
  });

  it("mismatched passwords and a common password are refused with a message; nothing changes", async () => {
    const user = await account();
    await postForm("/forgot-password", { email: user.email! });
    const token = tokenOf(await resetLinkFor(user.email!));
    const before = await env.DB.prepare("SELECT hash FROM passwords WHERE user_id = ?")
      .bind(user.id)
      .first<{ hash: string }>();
    const differ = await postForm("/reset-password", { token, password: NEW, confirmPassword: `${NEW}x` });
    expect(differ.status).toBe(400);
    expect(await differ.text()).toContain("The two passwords do not match");
    const common = await postForm("/reset-password", {
      token,
      password: "password123",
      confirmPassword: "password123",
    });
    expect(common.status).toBe(400);
    expect(
      (await env.DB.prepare("SELECT hash FROM passwords WHERE user_id = ?").bind(user.id).first<{ hash: string }>())
        ?.hash,
    ).toBe(before?.hash);
    expect((await get("/dashboard", { cookie: user.cookie })).status).toBe(200);
  });
});

describe("e-mail verification", () => {
  it("sign-up e-mails a link; following it verifies the address and the profile shows the badge", async () => {
    awayFromMinuteBoundary(20);
    const browser = new Browser();
    const email = `fresh-${Date.now()}@example.test`;
    const res = await browser.post("/signup", { fullName: "Ananya Iyer", identifier: email, password: NEW });
    expect(res.status).toBe(302);
    const [mail] = await mailsTo(email);
    expect(mail.subject).toBe("Confirm your e-mail address for LoopRide");
    const path = link(mail.text_body, "/verify-email?token=");
    // Opening the link changes nothing (mail scanners open links); the button does.
    const page = await get(path);
    expect(await page.text()).toContain(`Is ${email} your e-mail address?`);
    const row = () =>
      env.DB.prepare("SELECT id, email_verified_at FROM users WHERE email = ?")
        .bind(email)
        .first<{ id: string; email_verified_at: number | null }>();
    expect((await row())?.email_verified_at).toBeNull();
    const done = await browser.post(path, { token: tokenOf(path) });
    expect(done.status).toBe(302);
    expect(toastOf(done)?.title).toBe("E-mail confirmed");
    expect((await row())?.email_verified_at).not.toBeNull();
    // A forged token verifies nothing.
    expect((await postForm("/verify-email", { token: `${tokenOf(path)}x` })).status).toBe(400);
  });

  it("the profile shows 'Not verified' with a resend button, then 'Verified'", async () => {
    const user = await signedInUser();
    const html = await (await get("/dashboard/profile", { cookie: user.cookie })).text();
    expect(html).toContain("Not verified");
    const res = await postForm("/dashboard/profile", { intent: "resend-verification" }, { cookie: user.cookie });
    expect(res.status).toBe(302);
    const [mail] = await mailsTo(user.email!);
    expect(mail.subject).toBe("Confirm your e-mail address for LoopRide");
    const path = link(mail.text_body, "/verify-email?token=");
    await postForm(path, { token: tokenOf(path) });
    const after = await (await get("/dashboard/profile", { cookie: user.cookie })).text();
    expect(after).toContain("✓ Verified");
    const again = await postForm("/dashboard/profile", { intent: "resend-verification" }, { cookie: user.cookie });
    expect(toastOf(again)).toMatchObject({
      title: "No confirmation link sent",
      description: "Your e-mail address is already confirmed.",
      type: "error",
    });
  });

  it("a link for an address the account no longer has verifies nothing", async () => {
    const user = await signedInUser();
    await postForm("/dashboard/profile", { intent: "resend-verification" }, { cookie: user.cookie });
    const [mail] = await mailsTo(user.email!);
    const path = link(mail.text_body, "/verify-email?token=");
    await env.DB.prepare("UPDATE users SET email = ? WHERE id = ?").bind(`changed-${user.email}`, user.id).run();
    expect((await postForm(path, { token: tokenOf(path) })).status).toBe(400);
    expect(
      (
        await env.DB.prepare("SELECT email_verified_at AS v FROM users WHERE id = ?")
          .bind(user.id)
          .first<{ v: number | null }>()
      )?.v,
    ).toBeNull();
  });

  it("a referral is credited only once the new account's e-mail is verified", async () => {
    const referrer = await signedInUser();
    const code = await ensureReferralCode({ db: db() }, referrer.id);
    const newcomer = await signedInUser();
    expect(await redeemReferralCode({ db: db() }, newcomer.id, code)).toMatchObject({ ok: true });
    expect(await completeReferral({ db: db() }, newcomer.id)).toEqual({ status: "unverified" });
    // Verifying through the link credits it (the newcomer is onboarded).
    await postForm("/dashboard/profile", { intent: "resend-verification" }, { cookie: newcomer.cookie });
    const [mail] = await mailsTo(newcomer.email!);
    const path = link(mail.text_body, "/verify-email?token=");
    await postForm(path, { token: tokenOf(path) });
    const ref = await env.DB.prepare("SELECT status FROM referrals WHERE referred_user_id = ?")
      .bind(newcomer.id)
      .first<{ status: string }>();
    expect(ref?.status).toBe("completed");
  });

  it("account e-mails go out even with e-mail notifications off; notification e-mails do not", async () => {
    const user = await account();
    await env.DB.prepare("UPDATE user_settings SET email_notifications = 0 WHERE user_id = ?").bind(user.id).run();
    await postForm("/forgot-password", { email: user.email! });
    await deliverOutbox({ db: db(), env });
    expect((await mailsTo(user.email!)).map((m) => m.subject)).toEqual(["Reset your LoopRide password"]);
  });
});
