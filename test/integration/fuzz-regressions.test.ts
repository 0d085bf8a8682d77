import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRide, createUser } from "../../db/factories";
import { LINE_INVALID } from "~/schemas/text";
import { db, postForm, signedInUser, tableCounts } from "../support/worker";

// The defects the fuzzer (fuzz.test.ts) found, pinned as plain examples so they stay fixed
// even on a run whose random inputs miss them.

describe("inputs the fuzzer found", () => {
  it("a NUL in a route parameter no longer breaks the redirect (was a 500)", async () => {
    const user = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: (await createUser({ db: db() })).id });
    const res = await postForm(
      "/booking-confirmation/x%00y",
      { intent: "save", rideId: ride.id, redirectTo: "not-a-path" },
      { cookie: user.cookie },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/booking-confirmation/x%00y");
  });

  it("redirectTo with a tab (browsers read '/\\t/evil' as '//evil') falls back to the dashboard", async () => {
    await createUser(
      { db: db() },
      { email: "tab@example.in", password: "masala-dosa-42", pepper: env.PASSWORD_PEPPER },
    );
    const res = await postForm(
      "/login",
      { identifier: "tab@example.in", password: "masala-dosa-42", redirectTo: "/\t/evil.example" },
      { headers: { "CF-Connecting-IP": "10.9.9.1" } },
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard");
  });

  it("a same-site redirectTo keeps its path and query, percent-encoded", async () => {
    const user = await signedInUser();
    const ride = await createRide({ db: db() }, { driverId: (await createUser({ db: db() })).id });
    const res = await postForm(
      `/rides/${ride.id}`,
      { intent: "save", rideId: ride.id, redirectTo: "/rides?q=Koramangala ✓" },
      { cookie: user.cookie },
    );
    expect(res.headers.get("Location")).toBe("/rides?q=Koramangala%20%E2%9C%93");
  });

  it("a community name of 3 UTF-16 units but 2 characters is refused with the length message, not a 500 from the CHECK", async () => {
    const user = await signedInUser();
    const before = await tableCounts();
    const res = await postForm(
      "/communities/new",
      {
        name: "\u{10000}!",
        type: "residential",
        location: "HSR Layout",
        description: "Neighbours sharing the commute.",
      },
      { cookie: user.cookie },
    );
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Name must be at least 3 characters");
    expect(await tableCounts()).toEqual(before);
  });

  it("control characters in a community name are refused with a message and nothing is stored", async () => {
    const user = await signedInUser();
    const before = await tableCounts();
    const res = await postForm(
      "/communities/new",
      {
        name: "Priya\u0000Sharma",
        type: "residential",
        location: "HSR Layout",
        description: "Neighbours sharing the commute.",
      },
      { cookie: user.cookie },
    );
    expect(res.status).toBe(400);
    // A community name is one line: its message also names line breaks (issue 34).
    expect(await res.text()).toContain(LINE_INVALID);
    expect(await tableCounts()).toEqual(before);
  });

  it("control characters in a profile name or a message are refused too", async () => {
    const a = await signedInUser({ fullName: "Asha Rao" });
    const b = await signedInUser({ fullName: "Bharat Menon" });
    const c = await createCommunity({ db: db() }, { createdBy: a.id });
    await addMember({ db: db() }, { communityId: c.id, userId: b.id });
    const before = await tableCounts();
    const profile = await postForm("/dashboard/profile", { fullName: "Rahul Verma\u000e\b" }, { cookie: a.cookie });
    expect(profile.status).toBe(400);
    const message = await postForm(
      `/dashboard/messages?to=${b.id}`,
      { intent: "send", to: b.id, content: "\u0000" },
      { cookie: a.cookie },
    );
    expect(message.status).toBe(400);
    // (Rendering the profile page may create the user's referral code; that is the page, not the form.)
    const { user_referral_codes: _a, ...rest } = await tableCounts();
    const { user_referral_codes: _b, ...restBefore } = before;
    expect(rest).toEqual(restBefore);
    const name = await env.DB.prepare("SELECT full_name FROM user_profiles WHERE user_id = ?")
      .bind(a.id)
      .first<{ full_name: string }>();
    expect(name?.full_name).toBe("Asha Rao");
  });

  it("a fractional profile-completion step is step 1, not a 500", async () => {
    const user = await signedInUser();
    const res = await postForm("/profile-completion", { step: "1.5", fullName: "" }, { cookie: user.cookie });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Full name is required");
  });
});
