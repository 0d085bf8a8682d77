import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createUser } from "../../db/factories";
import {
  CREDITS_TODAY_TEXT,
  NEW_USER_BONUS,
  REFERRAL_HOLD_TEXT,
  REFERRAL_OVER_LIMIT_TEXT,
  REFERRALS_CREDITED_PER_DAY,
  REFERRER_BONUS,
} from "~/domain/referral";
import { completeReferral, ensureReferralCode, redeemReferralCode } from "~/models/referrals.server";
import { db, get, signedInUser } from "../support/worker";

// Issue 38 item 5: the referrer sees each referral, why a pending one waits (the same rule
// completeReferral applies), and the credited ones; the FAQ and the Profile page say what
// credits are for today, which is nothing they can be spent on.

const verify = (userId: string) =>
  env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ?").bind(Date.now(), userId).run();
const onboard = (userId: string) =>
  env.DB.prepare("UPDATE user_profiles SET phone_number = ?, vehicle_info = ? WHERE user_id = ?")
    .bind(`98${userId.replace(/\D/g, "").padEnd(8, "7").slice(0, 8)}`, JSON.stringify({ has_car: false }), userId)
    .run();

/** The referrals on the referrer's Profile page: name → the line that says where each stands. */
async function referralLines(cookie: string) {
  const html = await (await get("/dashboard/profile", { cookie })).text();
  const lines: Record<string, string> = {};
  for (const m of html.matchAll(
    /data-testid="referral"><p><span class="font-medium">([^<]*)<\/span>.*?<span class="font-medium">(Pending|Completed)<\/span><\/p><p[^>]*>([^<]*)<\/p>/g,
  ))
    lines[m[1]] = `${m[2]}: ${m[3]}`;
  return { html, lines };
}

const text = (s: string) => s.replaceAll("'", "&#x27;").replaceAll('"', "&quot;");

describe("referral credits, honest", () => {
  it("each pending referral says why it waits, and the crediting agrees", async () => {
    const referrer = await signedInUser({ fullName: "Anita Rao", profile: { phoneNumber: "9845012345" } });
    const code = await ensureReferralCode({ db: db() }, referrer.id);
    const friend = async (fullName: string, opts: Parameters<typeof createUser>[1]) => {
      const u = await createUser({ db: db() }, { fullName, ...opts });
      expect(await redeemReferralCode({ db: db() }, u.id, code)).toMatchObject({ ok: true });
      return u;
    };
    const fresh = await friend("Fresh Friend", { onboarded: false, emailVerifiedAt: null });
    const confirmed = await friend("Confirmed Friend", { onboarded: false, emailVerifiedAt: Date.now() });
    const unconfirmed = await friend("Unconfirmed Friend", { emailVerifiedAt: null });
    const twin = await friend("Second Phone", { emailVerifiedAt: Date.now(), profile: { phoneNumber: "9845012345" } });
    const ready = await friend("Ready Friend", { emailVerifiedAt: Date.now() });
    expect(await completeReferral({ db: db() }, ready.id)).toEqual({ status: "completed", referrerCredited: true });

    const { html, lines } = await referralLines(referrer.cookie);
    expect(lines).toEqual({
      "Fresh Friend": `Pending: ${REFERRAL_HOLD_TEXT["confirm-email"]} ${REFERRAL_HOLD_TEXT.onboarding}`,
      "Confirmed Friend": `Pending: ${REFERRAL_HOLD_TEXT.onboarding}`,
      "Unconfirmed Friend": `Pending: ${REFERRAL_HOLD_TEXT["confirm-email"]}`,
      "Second Phone": `Pending: ${REFERRAL_HOLD_TEXT["shared-phone"]}`,
      "Ready Friend": expect.stringMatching(
        new RegExp(`^Completed: Credited: \\+${REFERRER_BONUS} credits on \\w+ \\d+\\.$`),
      ),
    });
    // Only the name and the reason reach the page: never a friend's address.
    for (const f of [fresh, confirmed, unconfirmed, twin, ready]) expect(html).not.toContain(String(f.email));

    // What the page says is what the crediting does: each waits for exactly what it says.
    expect(await completeReferral({ db: db() }, unconfirmed.id)).toEqual({ status: "unverified" });
    expect(await completeReferral({ db: db() }, twin.id)).toEqual({ status: "shared-phone" });
    await verify(unconfirmed.id);
    expect(await completeReferral({ db: db() }, unconfirmed.id)).toMatchObject({ status: "completed" });
    await onboard(confirmed.id);
    expect(await completeReferral({ db: db() }, confirmed.id)).toMatchObject({ status: "completed" });
    await verify(fresh.id);
    expect((await referralLines(referrer.cookie)).lines["Fresh Friend"]).toBe(
      `Pending: ${REFERRAL_HOLD_TEXT.onboarding}`,
    );
    const after = (await referralLines(referrer.cookie)).lines;
    expect(after["Unconfirmed Friend"]).toMatch(/^Completed: Credited: \+750 credits/);
    expect(after["Confirmed Friend"]).toMatch(/^Completed: Credited: \+750 credits/);
    expect(after["Second Phone"]).toBe(`Pending: ${REFERRAL_HOLD_TEXT["shared-phone"]}`);
  });

  it("a referral completed over the day's limit says it was not credited", async () => {
    const referrer = await signedInUser({ fullName: "Busy Referrer" });
    const code = await ensureReferralCode({ db: db() }, referrer.id);
    for (let i = 0; i <= REFERRALS_CREDITED_PER_DAY; i++) {
      const u = await createUser({ db: db() }, { fullName: `Friend ${i}`, emailVerifiedAt: Date.now() });
      await redeemReferralCode({ db: db() }, u.id, code);
      await completeReferral({ db: db() }, u.id);
    }
    const { lines } = await referralLines(referrer.cookie);
    const states = Object.values(lines);
    expect(states.filter((s) => s.startsWith("Completed: Credited"))).toHaveLength(REFERRALS_CREDITED_PER_DAY);
    expect(states.filter((s) => s === `Completed: ${text(REFERRAL_OVER_LIMIT_TEXT)}`)).toHaveLength(1);
  });

  it("someone who has referred no one is told so", async () => {
    const lonely = await signedInUser();
    expect((await referralLines(lonely.cookie)).html).toContain("No one has used your code yet.");
  });
});

describe("what credits are for, said where credits show", () => {
  // The app's own sources: what the texts promise is checked against what the code does.
  const sources = import.meta.glob("../../app/**/*.{ts,tsx}", { query: "?raw", import: "default", eager: true });

  it("nothing in the app spends credits, and the FAQ and the Profile page say so", async () => {
    const spending = Object.entries(sources as Record<string, string>).filter(([, src]) =>
      /transactionType:\s*["']spent|'spent'|totalSpent:\s*sql|total_spent\s*=|credits\s*-\s*\$\{/.test(src),
    );
    expect(spending.map(([path]) => path)).toEqual([]);
    expect(CREDITS_TODAY_TEXT).toContain("cannot be spent on anything yet");
    const faq = await (await get("/pricing")).text();
    expect(faq).toContain(CREDITS_TODAY_TEXT);
    const user = await signedInUser();
    expect(await (await get("/dashboard/profile", { cookie: user.cookie })).text()).toContain(CREDITS_TODAY_TEXT);
  });

  it("the FAQ's numbers and steps are the code's: the friend's bonus at once, the referrer's after both steps", async () => {
    const faq = await (await get("/pricing")).text();
    expect(faq).toContain(`get ${NEW_USER_BONUS} credits as a welcome bonus at once`);
    expect(faq).toContain(
      `You get ${REFERRER_BONUS} credits once they have confirmed their e-mail address and finished setting up their profile`,
    );
    expect(faq).toContain(`at most ${REFERRALS_CREDITED_PER_DAY} referrals are credited to you a day`);
    expect(faq).not.toContain("once it is applied, you earn");

    const wallet = async (id: string) =>
      (await env.DB.prepare("SELECT credits FROM user_credits WHERE user_id = ?").bind(id).first<{ credits: number }>())
        ?.credits ?? 0;
    const referrer = await createUser({ db: db() });
    const code = await ensureReferralCode({ db: db() }, referrer.id);
    const friend = await createUser({ db: db() }, { onboarded: false, emailVerifiedAt: null });
    await redeemReferralCode({ db: db() }, friend.id, code);
    expect(await wallet(friend.id)).toBe(NEW_USER_BONUS);
    expect(await wallet(referrer.id)).toBe(0);
    await verify(friend.id);
    await onboard(friend.id);
    await completeReferral({ db: db() }, friend.id);
    expect(await wallet(referrer.id)).toBe(REFERRER_BONUS);
  });
});
