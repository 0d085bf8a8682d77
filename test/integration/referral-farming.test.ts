import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createUser } from "../../db/factories";
import {
  completeReferral,
  ensureReferralCode,
  redeemReferralCode,
  REFERRALS_CREDITED_PER_DAY,
} from "~/models/referrals.server";
import { signupAddressHash } from "~/utils/public-form.server";
import { BASE, Browser, db } from "../support/worker";

// Issue 19, finding 8: referral credits were farmed with throwaway sign-ups (0 → 3,750 in
// minutes). The referrer is credited only once the new account is real (onboarding
// completed), at most REFERRALS_CREDITED_PER_DAY a day, and never for an account that
// shares the referrer's phone or sign-up address. ADR 0003.

const wallet = async (userId: string) =>
  (await env.DB.prepare("SELECT credits FROM user_credits WHERE user_id = ?").bind(userId).first<{ credits: number }>())
    ?.credits ?? 0;

let seq = 0;
function newcomer(address: string) {
  return new Browser({ "CF-Connecting-IP": address, "X-Seq": String(++seq) });
}

async function signUp(b: Browser, code: string) {
  const n = ++seq;
  const res = await b.post("/signup", {
    fullName: `Throwaway ${n}`,
    identifier: `throwaway-${n}@example.in`,
    password: "monsoon-ride-42",
    referralCode: code,
  });
  expect(res.status).toBe(302);
  expect(res.headers.get("Location")).toBe("/onboarding");
  // The newcomer confirms the e-mail (issue 15: referrals wait for a verified address).
  await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE email = ?")
    .bind(Date.now(), `throwaway-${n}@example.in`)
    .run();
}

async function onboard(b: Browser, phone: string) {
  expect((await b.post("/onboarding?step=1", { step: "1", intent: "next", phone })).status).toBe(302);
  expect((await b.post("/onboarding?step=2", { step: "2", intent: "next", hasCar: "no" })).status).toBe(302);
  const done = await b.post("/onboarding?step=4", { step: "4", intent: "complete" });
  expect(done.headers.get("Location")).toBe("/dashboard");
}

const phone = (n: number) => `98450${String(n).padStart(5, "0")}`;

describe("referral credits need a real account", () => {
  it("throwaway sign-ups with a code earn the referrer nothing until one of them completes onboarding", async () => {
    const referrer = await createUser({ db: db() }, { fullName: "Farmer" });
    const code = await ensureReferralCode({ db: db() }, referrer.id);
    const throwaways = Array.from({ length: 5 }, (_, i) => newcomer(`198.51.100.${10 + i}`));
    for (const b of throwaways) await signUp(b, code);
    expect(await wallet(referrer.id)).toBe(0);
    expect(
      await env.DB.prepare("SELECT status, count(*) AS n FROM referrals WHERE referrer_id = ? GROUP BY status")
        .bind(referrer.id)
        .all(),
    ).toMatchObject({ results: [{ status: "pending", n: 5 }] });
    await onboard(throwaways[0], phone(1));
    expect(await wallet(referrer.id)).toBe(750);
    const tx = await env.DB.prepare("SELECT amount, description FROM credit_transactions WHERE user_id = ?")
      .bind(referrer.id)
      .all();
    expect(tx.results).toEqual([{ amount: 750, description: "Referral bonus" }]);
  });

  it(`at most ${REFERRALS_CREDITED_PER_DAY} referral credits per referrer per IST day; the next day counts afresh`, async () => {
    const referrer = await createUser({ db: db() });
    const code = await ensureReferralCode({ db: db() }, referrer.id);
    // 23:00 IST on some day, and 00:30 IST the next day.
    const day1 = Date.UTC(2026, 10, 20, 17, 30);
    const day2 = Date.UTC(2026, 10, 20, 19, 0);
    const outcomes = [];
    for (let i = 0; i < REFERRALS_CREDITED_PER_DAY + 2; i++) {
      const u = await createUser({ db: db() }, { emailVerifiedAt: day1 });
      expect(await redeemReferralCode({ db: db() }, u.id, code, day1)).toMatchObject({ ok: true });
      outcomes.push(await completeReferral({ db: db() }, u.id, day1));
    }
    expect(outcomes.map((o) => (o.status === "completed" ? o.referrerCredited : o.status))).toEqual([
      true,
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    expect(await wallet(referrer.id)).toBe(750 * REFERRALS_CREDITED_PER_DAY);
    const next = await createUser({ db: db() }, { emailVerifiedAt: day2 });
    await redeemReferralCode({ db: db() }, next.id, code, day2);
    expect(await completeReferral({ db: db() }, next.id, day2)).toEqual({
      status: "completed",
      referrerCredited: true,
    });
    expect(await wallet(referrer.id)).toBe(750 * (REFERRALS_CREDITED_PER_DAY + 1));
  });

  it("the daily cap holds when many newcomers complete at once", async () => {
    const referrer = await createUser({ db: db() });
    const code = await ensureReferralCode({ db: db() }, referrer.id);
    const users = await Promise.all(
      Array.from({ length: 12 }, () => createUser({ db: db() }, { emailVerifiedAt: Date.now() })),
    );
    for (const u of users) await redeemReferralCode({ db: db() }, u.id, code);
    await Promise.all(users.map((u) => completeReferral({ db: db() }, u.id)));
    expect(await wallet(referrer.id)).toBe(750 * REFERRALS_CREDITED_PER_DAY);
  });

  it("no credit when the new account has the referrer's phone number (the referral stays pending)", async () => {
    const referrer = await createUser({ db: db() }, { profile: { phoneNumber: phone(77) } });
    const code = await ensureReferralCode({ db: db() }, referrer.id);
    const b = newcomer("198.51.100.40");
    await signUp(b, code);
    await onboard(b, phone(77));
    expect(await wallet(referrer.id)).toBe(0);
    expect(
      await env.DB.prepare("SELECT status FROM referrals WHERE referrer_id = ?").bind(referrer.id).first(),
    ).toEqual({ status: "pending" });
  });

  it("no credit when the new account was made from the referrer's sign-up address; the address itself is not stored", async () => {
    const address = "198.51.100.50";
    const hash = await signupAddressHash(new Request(BASE, { headers: { "CF-Connecting-IP": address } }), env);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    const referrer = await createUser({ db: db() });
    await env.DB.prepare("UPDATE users SET signup_address_hash = ? WHERE id = ?").bind(hash, referrer.id).run();
    const code = await ensureReferralCode({ db: db() }, referrer.id);
    const b = newcomer(address);
    await signUp(b, code);
    const stored = await env.DB.prepare("SELECT signup_address_hash FROM users WHERE id <> ?")
      .bind(referrer.id)
      .first<{ signup_address_hash: string }>();
    expect(stored!.signup_address_hash).toBe(hash);
    const dump = JSON.stringify((await env.DB.prepare("SELECT * FROM users").all()).results);
    expect(dump).not.toContain(address);
    await onboard(b, phone(88));
    expect(await wallet(referrer.id)).toBe(0);
    // The same sign-up from another address earns the credit.
    const other = newcomer("198.51.100.51");
    await signUp(other, code);
    await onboard(other, phone(89));
    expect(await wallet(referrer.id)).toBe(750);
  });

  it("20 concurrent onboarding completions grant exactly one credit", async () => {
    const referrer = await createUser({ db: db() });
    const code = await ensureReferralCode({ db: db() }, referrer.id);
    const b = newcomer("198.51.100.60");
    await signUp(b, code);
    expect((await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: phone(60) })).status).toBe(302);
    expect((await b.post("/onboarding?step=2", { step: "2", intent: "next", hasCar: "no" })).status).toBe(302);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => b.post("/onboarding?step=4", { step: "4", intent: "complete" })),
    );
    expect(results.every((r) => r.status < 500)).toBe(true);
    expect(await wallet(referrer.id)).toBe(750);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM credit_transactions WHERE user_id = ?").bind(referrer.id).first(),
    ).toEqual({ n: 1 });
  });
});
