import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createUser } from "../../db/factories";
import { generateReferralCode, isReferralCodeShape } from "~/domain/referral";
import { profileProgress } from "~/domain/profile-score";
import { completeReferral, ensureReferralCode, redeemReferralCode } from "~/models/referrals.server";
import { Browser, db, get, postForm, signedInUser, tableCounts } from "../support/worker";

async function newUserBrowser(opts: Parameters<typeof signedInUser>[0] = { onboarded: false }) {
  const user = await signedInUser(opts);
  const b = new Browser();
  b.cookies.set("lr_session", user.cookie.split("=")[1]);
  return { user, b };
}

const profileOf = (userId: string) =>
  env.DB.prepare("SELECT phone_number, vehicle_info FROM user_profiles WHERE user_id = ?")
    .bind(userId)
    .first<{ phone_number: string | null; vehicle_info: string }>();

describe("onboarding wizard", () => {
  it("validates each step on the server with the spec's messages and keeps answers in the draft", async () => {
    const { user, b } = await newUserBrowser();
    const empty = await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: "" });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Please enter your mobile number");
    const short = await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: "98450" });
    expect(await short.text()).toContain("Please enter a valid 10-digit mobile number");
    const ok = await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: "98450 1234" });
    expect(ok.status).toBe(400); // 9 digits after removing spaces
    const good = await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: "9845012345" });
    expect(good.headers.get("Location")).toBe("/onboarding?step=2");

    const noChoice = await b.post("/onboarding?step=2", { step: "2", intent: "next" });
    expect(await noChoice.text()).toContain("Please select whether you have a car");
    const noType = await b.post("/onboarding?step=2", { step: "2", intent: "next", hasCar: "yes", carType: "" });
    expect(await noType.text()).toContain("Please select your car type");
    const badType = await b.post("/onboarding?step=2", { step: "2", intent: "next", hasCar: "yes", carType: "rocket" });
    expect(badType.status).toBe(400);
    await b.post("/onboarding?step=2", { step: "2", intent: "next", hasCar: "yes", carType: "hybrid" });
    // Nothing reaches the profile before Complete Setup.
    expect(await profileOf(user.id)).toMatchObject({ phone_number: null, vehicle_info: "{}" });
    const review = await b.get("/onboarding?step=4");
    const html = await review.text();
    expect(html).toContain("9845012345");
    expect(html).toContain("Hybrid");

    const done = await b.post("/onboarding?step=4", { step: "4", intent: "complete" });
    expect(done.headers.get("Location")).toBe("/dashboard");
    expect(await profileOf(user.id)).toEqual({
      phone_number: "9845012345",
      vehicle_info: JSON.stringify({ has_car: true, car_type: "hybrid" }),
    });
    const code = await env.DB.prepare("SELECT referral_code FROM user_referral_codes WHERE user_id = ?")
      .bind(user.id)
      .first<{ referral_code: string }>();
    expect(isReferralCodeShape(code!.referral_code)).toBe(true);
    const page = await b.follow(done);
    expect(page.html).toContain("Profile completed successfully!");
  });

  it("a step that is not a whole number from 1 to 4 is step 1, never a 500", async () => {
    const { b } = await newUserBrowser();
    // The fuzzer's counterexample: step "1.51" selected no schema and threw.
    const back = await b.post("/onboarding?step=1", {
      intent: "back",
      step: "1.51",
      phone: "98765 43210",
      hasCar: "yes",
      carType: "0000-00-00",
      referralCode: "",
    });
    expect(back.status).toBe(302);
    expect(back.headers.get("Location")).toBe("/onboarding?step=1");
    // Read as step 1, whose phone is missing: the step's own message, nothing saved.
    const next = await b.post("/onboarding?step=2", { intent: "next", step: "2.9", hasCar: "no" });
    expect(next.status).toBe(400);
    expect(await next.text()).toContain("Please enter your mobile number");
    for (const step of ["3.5", "9", "-1"]) {
      const page = await b.get(`/onboarding?step=${step}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Step 1 of 4");
    }
  });

  it("Complete Setup with a skipped step sends the user back to it and saves nothing", async () => {
    const { user, b } = await newUserBrowser();
    const res = await b.post("/onboarding?step=4", { step: "4", intent: "complete" });
    expect(res.headers.get("Location")).toBe("/onboarding?step=1");
    expect(await profileOf(user.id)).toMatchObject({ phone_number: null });
  });

  it("an unknown referral code is reported but the profile is saved", async () => {
    const { user, b } = await newUserBrowser();
    await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: "9845012345" });
    await b.post("/onboarding?step=2", { step: "2", intent: "next", hasCar: "no" });
    await b.post("/onboarding?step=3", { step: "3", intent: "next", referralCode: "  lrnope99 " });
    const done = await b.post("/onboarding?step=4", { step: "4", intent: "complete" });
    expect((await b.follow(done)).html).toContain("Invalid referral code, but your profile was updated successfully.");
    expect(await profileOf(user.id)).toMatchObject({ phone_number: "9845012345" });
  });

  it("a valid code entered at onboarding credits both users", async () => {
    const referrer = await createUser({ db: db() });
    const code = await ensureReferralCode({ db: db() }, referrer.id);
    // A verified e-mail: referrals wait for one (issue 15).
    const { user, b } = await newUserBrowser({ onboarded: false, emailVerifiedAt: Date.now() });
    await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: "9845012345" });
    await b.post("/onboarding?step=2", { step: "2", intent: "next", hasCar: "no" });
    await b.post("/onboarding?step=3", { step: "3", intent: "next", referralCode: code.toLowerCase() });
    await b.post("/onboarding?step=4", { step: "4", intent: "complete" });
    const credits = await env.DB.prepare("SELECT user_id, credits FROM user_credits ORDER BY credits").all();
    expect(credits.results).toEqual([
      { user_id: user.id, credits: 375 },
      { user_id: referrer.id, credits: 750 },
    ]);
  });

  it("an unknown intent is a 400 and changes nothing", async () => {
    const { b } = await newUserBrowser();
    const before = await tableCounts();
    expect((await b.post("/onboarding", { step: "1", intent: "explode" })).status).toBe(400);
    expect(await tableCounts()).toEqual(before);
  });
});

describe("referral credits", () => {
  it("codes are 'LR' + 6 uppercase alphanumerics", () => {
    for (let i = 0; i < 50; i++) expect(generateReferralCode()).toMatch(/^LR[A-Z0-9]{6}$/);
  });

  it("20 concurrent redemptions of one code by one user credit exactly once", async () => {
    for (let round = 0; round < 3; round++) {
      const referrer = await createUser({ db: db() });
      const code = await ensureReferralCode({ db: db() }, referrer.id);
      const newcomer = await createUser({ db: db() }, { emailVerifiedAt: Date.now() });
      const results = await Promise.all(
        Array.from({ length: 20 }, () => redeemReferralCode({ db: db() }, newcomer.id, code)),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === "already")).toBe(true);
      const wallet = (id: string) =>
        env.DB.prepare("SELECT credits, total_earned FROM user_credits WHERE user_id = ?").bind(id).first();
      expect(await wallet(newcomer.id)).toEqual({ credits: 375, total_earned: 375 });
      // The referrer's 750 waits for the new account to finish onboarding (referral-farming.test.ts).
      expect(await wallet(referrer.id)).toBeNull();
      const completions = await Promise.all(
        Array.from({ length: 20 }, () => completeReferral({ db: db() }, newcomer.id)),
      );
      expect(completions.filter((c) => c.status === "completed")).toHaveLength(1);
      expect(await wallet(referrer.id)).toEqual({ credits: 750, total_earned: 750 });
      const tx = await env.DB.prepare(
        "SELECT user_id, amount, description FROM credit_transactions WHERE user_id IN (?, ?) ORDER BY amount",
      )
        .bind(newcomer.id, referrer.id)
        .all();
      expect(tx.results).toEqual([
        { user_id: newcomer.id, amount: 375, description: "Welcome bonus" },
        { user_id: referrer.id, amount: 750, description: "Referral bonus" },
      ]);
      const ref = await env.DB.prepare(
        "SELECT status, completed_at IS NOT NULL AS done FROM referrals WHERE referred_user_id = ?",
      )
        .bind(newcomer.id)
        .first();
      expect(ref).toEqual({ status: "completed", done: 1 });
    }
  });

  it("ignores the user's own code and refuses unknown codes", async () => {
    const me = await createUser({ db: db() });
    const code = await ensureReferralCode({ db: db() }, me.id);
    expect(await redeemReferralCode({ db: db() }, me.id, code)).toEqual({ ok: false, reason: "own" });
    expect(await redeemReferralCode({ db: db() }, me.id, "LR000000")).toEqual({ ok: false, reason: "invalid" });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM credit_transactions").first()).toEqual({ n: 0 });
  });

  it("ensureReferralCode is stable and unique per user, even when called concurrently", async () => {
    const me = await createUser({ db: db() });
    const codes = await Promise.all(Array.from({ length: 10 }, () => ensureReferralCode({ db: db() }, me.id)));
    expect(new Set(codes).size).toBe(1);
  });

  it("sign-up through ?ref= credits 375 at once and 750 once the newcomer completes onboarding", async () => {
    const referrer = await createUser({ db: db() });
    const code = await ensureReferralCode({ db: db() }, referrer.id);
    const b = new Browser();
    const landing = await b.get(`/signup?ref=${code}`);
    const html = await landing.text();
    expect(html).toContain(`value="${code}"`);
    expect(html).toMatch(/readOnly=""|readonly=""/);
    const res = await b.post("/signup", {
      fullName: "New Friend",
      identifier: "friend@example.com",
      password: "sambar-rice-88",
      referralCode: code,
    });
    expect((await b.follow(res)).html).toContain("Welcome bonus applied!");
    const credits = () =>
      env.DB.prepare(
        "SELECT u.email, c.credits FROM user_credits c JOIN users u ON u.id = c.user_id WHERE c.credits > 0 ORDER BY c.credits",
      ).all();
    expect((await credits()).results.map((r) => r.credits)).toEqual([375]);
    // The newcomer confirms the e-mail (issue 15: referrals wait for a verified address).
    await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE email = 'friend@example.com'")
      .bind(Date.now())
      .run();
    await b.post("/onboarding?step=1", { step: "1", intent: "next", phone: "9845012345" });
    await b.post("/onboarding?step=2", { step: "2", intent: "next", hasCar: "no" });
    await b.post("/onboarding?step=4", { step: "4", intent: "complete" });
    expect((await credits()).results.map((r) => r.credits)).toEqual([375, 750]);
    // The remembered code is forgotten after use.
    expect(b.cookies.has("lr_ref")).toBe(false);
  });

  it("?ref= with an empty value forgets the remembered code", async () => {
    const b = new Browser();
    await b.get("/signup?ref=LRABCDEF");
    expect(b.cookies.has("lr_ref")).toBe(true);
    await b.get("/signup?ref=");
    expect(b.cookies.has("lr_ref")).toBe(false);
  });
});

describe("profile completion, profile and settings", () => {
  it("scores with the spec's weights and thresholds", () => {
    const empty = {
      fullName: null,
      residentialArea: null,
      workplace: null,
      phoneNumber: null,
      emergencyContact: null,
      vehicleInfo: {},
    };
    expect(profileProgress(empty)).toEqual({
      score: 0,
      status: "incomplete",
      hints: ["Add your full name", "Add your residential area", "Add your workplace"],
    });
    expect(profileProgress({ ...empty, fullName: "A", residentialArea: "B", workplace: "C" }).status).toBe("basic");
    expect(
      profileProgress({
        fullName: "A",
        residentialArea: "B",
        workplace: "C",
        phoneNumber: "9",
        emergencyContact: "E",
        vehicleInfo: { has_car: false },
      }),
    ).toMatchObject({ score: 100, status: "complete", hints: [] });
    expect(profileProgress(null).status).toBe("incomplete");
  });

  it("requires the required fields on the server and saves each step", async () => {
    const user = await signedInUser();
    const bad = await postForm(
      "/profile-completion?step=1",
      { step: "1", fullName: "", residentialArea: "", workplace: "" },
      { cookie: user.cookie },
    );
    expect(bad.status).toBe(400);
    const html = await bad.text();
    for (const m of ["Full name is required", "Residential area is required", "Workplace is required"])
      expect(html).toContain(m);
    const ok = await postForm(
      "/profile-completion?step=1",
      { step: "1", fullName: "Deepa Rao", residentialArea: "Jayanagar", workplace: "UB City" },
      { cookie: user.cookie },
    );
    expect(ok.headers.get("Location")).toBe("/profile-completion?step=2");
    const detour = await postForm(
      "/profile-completion?step=4",
      { step: "4", maxDetourMinutes: "61" },
      { cookie: user.cookie },
    );
    expect(await detour.text()).toContain("Maximum detour must be between 0 and 60 minutes");
    const prefs = await postForm(
      "/profile-completion?step=4",
      { step: "4", maxDetourMinutes: "25", musicPreference: "quiet", smokingAllowed: "on" },
      { cookie: user.cookie },
    );
    expect(prefs.headers.get("Location")).toBe("/dashboard");
    const row = await env.DB.prepare(
      "SELECT full_name, first_name, max_detour_minutes, music_preference, smoking_allowed, conversation_preference FROM user_profiles WHERE user_id = ?",
    )
      .bind(user.id)
      .first();
    expect(row).toEqual({
      full_name: "Deepa Rao",
      first_name: "Deepa",
      max_detour_minutes: 25,
      music_preference: "quiet",
      smoking_allowed: 1,
      conversation_preference: "casual",
    });
  });

  it("profile edit validates the UPI id and saves", async () => {
    const user = await signedInUser();
    const bad = await postForm(
      "/dashboard/profile",
      { fullName: "Ok Name", upiId: "not a upi" },
      { cookie: user.cookie },
    );
    expect(await bad.text()).toContain("Please enter a valid UPI ID");
    const ok = await postForm(
      "/dashboard/profile",
      { fullName: "Ok Name", bio: "Morning person", upiId: "ok.name@okhdfc" },
      { cookie: user.cookie },
    );
    expect(ok.status).toBe(302);
    expect(
      await env.DB.prepare("SELECT bio, upi_id FROM user_profiles WHERE user_id = ?").bind(user.id).first(),
    ).toEqual({ bio: "Morning person", upi_id: "ok.name@okhdfc" });
  });

  it("a missing profile shows 'Unknown User'", async () => {
    const user = await signedInUser({ onboarded: null });
    // Without a profile the user must onboard first; the onboarding page still renders.
    expect((await get("/onboarding", { cookie: user.cookie })).status).toBe(200);
  });

  it("settings toggles persist per user, dark mode renders on the server, unknown settings are refused", async () => {
    const a = await signedInUser();
    const b = await signedInUser();
    expect(
      (await postForm("/dashboard/settings", { setting: "darkMode", value: "on" }, { cookie: a.cookie })).status,
    ).toBe(302);
    expect(
      (await postForm("/dashboard/settings", { setting: "rideReminders", value: "off" }, { cookie: a.cookie })).status,
    ).toBe(302);
    expect(
      (await postForm("/dashboard/settings", { setting: "isAdmin", value: "on" }, { cookie: a.cookie })).status,
    ).toBe(400);
    expect(await (await get("/dashboard", { cookie: a.cookie })).text()).toMatch(/<html[^>]*class="dark"/);
    expect(await (await get("/dashboard", { cookie: b.cookie })).text()).not.toMatch(/<html[^>]*class="dark"/);
    const row = await env.DB.prepare(
      "SELECT dark_mode, ride_reminders, email_notifications FROM user_settings WHERE user_id = ?",
    )
      .bind(a.id)
      .first();
    expect(row).toEqual({ dark_mode: 1, ride_reminders: 0, email_notifications: 1 });
  });

  // The accessibility journey (test/e2e/a11y.spec.ts) checks each signed-in page's dark colours by
  // giving the light page these two attributes, instead of loading it a second time (issue 17).
  // That is the dark page only while nothing else in the markup depends on the setting: the
  // layout (root.tsx) is the one place that renders from it, except the Settings page's own
  // Dark mode switch, which the journey scans with the setting really on.
  it("the setting is rendered by the layout alone, and by the Settings page's own switch", () => {
    const sources = import.meta.glob("../../app/**/*.{ts,tsx}", {
      query: "?raw",
      import: "default",
      eager: true,
    }) as Record<string, string>;
    const readers = Object.entries(sources)
      .filter(([file, source]) => /\bdarkMode\b/.test(source) && !/\/app\/(models|schemas)\//.test(file))
      .map(([file]) => file.replace("../../app/", ""))
      .sort();
    expect(readers).toEqual(["root.tsx", "routes/_app.dashboard.settings.tsx"]);
  });

  it("dark mode changes only the <html> class and the color-scheme meta of a page", async () => {
    const user = await signedInUser();
    const markup = async (path: string) =>
      (await (await get(path, { cookie: user.cookie })).text())
        // Scripts carry the loader data (the setting itself) and a per-request nonce.
        .replace(/<script\b[\s\S]*?<\/script>/g, "")
        .replace(/ nonce="[^"]*"/g, "");
    const paths = [
      "/dashboard",
      "/dashboard/profile",
      "/dashboard/messages",
      "/dashboard/rides?tab=created",
      "/rides",
      "/rides/create",
      "/communities",
      "/communities/new",
      "/pricing",
      "/no-such-page",
    ];
    const light = await Promise.all(paths.map(markup));
    expect(
      (await postForm("/dashboard/settings", { setting: "darkMode", value: "on" }, { cookie: user.cookie })).status,
    ).toBe(302);
    for (const [i, path] of paths.entries()) {
      const dark = await markup(path);
      expect(dark, path).toContain('<html lang="en-IN" class="dark">');
      expect(dark, path).toContain('<meta name="color-scheme" content="dark"/>');
      const recoloured = light[i]
        .replace('<html lang="en-IN" class="">', '<html lang="en-IN" class="dark">')
        .replace('<meta name="color-scheme" content="light"/>', '<meta name="color-scheme" content="dark"/>');
      expect(recoloured, path).toBe(dark);
    }
  });
});
