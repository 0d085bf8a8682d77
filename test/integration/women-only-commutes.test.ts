import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createRideRequest } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { COMMUTE_LOCK_NEEDS_WOMAN } from "~/models/commute-women.server";
import { createCommute, topUpCommutes } from "~/models/commutes.server";
import { WOMEN_ONLY_DRIVER } from "~/models/ride-publishing.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";

// Issue 37, item 8: women-only usable. "Your gender" in Settings (and the profile) at any
// time; Publish a Commute offers women-only; the comfort lock for a whole commute.

const DAY = 86_400_000;
const woman = (fullName = "Lakshmi Driver") => signedInUser({ fullName, profile: { gender: "female" } });
const man = (fullName = "Karthik Rider") => signedInUser({ fullName, profile: { gender: "male" } });

const form = (over: Record<string, string | string[]> = {}) => ({
  fromLocation: "HSR Layout",
  toLocation: "Manyata Tech Park",
  weekdays: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"],
  time: "08:30",
  startDate: addDays(istDate(), 1),
  endDate: "",
  seats: "3",
  tripCost: "300",
  notes: "",
  communityId: "",
  ...over,
});

const days = async (commuteId: string) =>
  (
    await env.DB.prepare(
      "SELECT id, women_only, women_lock_booked, booked_seats, created_at FROM rides WHERE commute_id = ? ORDER BY date",
    )
      .bind(commuteId)
      .all<{
        id: string;
        women_only: number;
        women_lock_booked: number | null;
        booked_seats: number;
        created_at: number;
      }>()
  ).results;

describe("Publish a Commute: women only", () => {
  it("a woman driver is offered it and every day is women-only; a man is refused with the rule's message", async () => {
    const her = await woman();
    const him = await man("Karthik Driver");
    const label = "Women only (only women can book seats, every day)";
    expect(await (await get("/commutes/new", { cookie: her.cookie })).text()).toContain(label);
    expect(await (await get("/commutes/new", { cookie: him.cookie })).text()).not.toContain(label);

    const res = await postForm("/commutes/new", form({ womenOnly: "on" }), { cookie: her.cookie });
    expect(res.status).toBe(302);
    const commuteId = res.headers.get("Location")!.split("/").pop()!;
    const made = await days(commuteId);
    expect(made.length).toBeGreaterThan(0);
    expect(made.every((d) => d.women_only === 1)).toBe(true);
    const page = await (await get(`/commutes/${commuteId}`, { cookie: him.cookie })).text();
    expect(page).toContain("Women only: only women can book seats on this commute&#x27;s days.");

    const before = await dbChecksum();
    const refused = await postForm("/commutes/new", form({ womenOnly: "on" }), { cookie: him.cookie });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain(WOMEN_ONLY_DRIVER.split(".")[0]);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
  });
});

describe("the comfort lock for a whole commute", () => {
  async function commuteWithRiders() {
    const her = await woman();
    const rider = await woman("Meera Rider");
    const him = await man();
    const c = await createCommute({ db: db() }, her.id, {
      fromLocation: "HSR Layout",
      toLocation: "Manyata Tech Park",
      weekdays: 127,
      time: "08:30",
      startDate: addDays(istDate(), 1),
      endDate: null,
      seats: 3,
      tripCost: 30000,
      notes: null,
      communityId: null,
    });
    const [first, second] = await days(c.id);
    await createRideRequest({ db: db() }, { rideId: first.id, riderId: rider.id, status: "accepted" });
    // A man booked before the lock keeps his seat; his pending request on another day is declined.
    await createRideRequest({ db: db() }, { rideId: first.id, riderId: him.id, status: "accepted" });
    const pending = await createRideRequest({ db: db() }, { rideId: second.id, riderId: him.id });
    return { her, rider, him, commuteId: c.id, pending };
  }

  it("locks every upcoming day at its booked seats, declines men's pending requests, and locks days added later", async () => {
    const { her, him, commuteId, pending } = await commuteWithRiders();
    const res = await postForm(`/commutes/${commuteId}`, { intent: "women-lock-all" }, { cookie: her.cookie });
    expect(res.status).toBe(302);
    expect(toastOf(res)?.title).toBe("Open seats kept for women");
    const locked = await days(commuteId);
    expect(locked.every((d) => d.women_lock_booked === d.booked_seats)).toBe(true);
    expect(locked[0].women_lock_booked).toBe(2);
    const status = await env.DB.prepare("SELECT status FROM ride_requests WHERE id = ?").bind(pending.id).first();
    expect(status).toEqual({ status: "rejected" });
    expect(await notificationsFor(him.id)).toMatchObject([{ title: "Request declined" }]);
    // His accepted seat stays.
    const kept = await env.DB.prepare(
      "SELECT count(*) AS n FROM ride_requests WHERE rider_id = ? AND status = 'accepted'",
    )
      .bind(him.id)
      .first();
    expect(kept).toEqual({ n: 1 });

    // The daily top-up a few days on: the new days are locked too.
    const later = Date.now() + 3 * DAY;
    await topUpCommutes({ db: db() }, later);
    const added = (await days(commuteId)).filter((d) => d.created_at === later);
    expect(added.length).toBeGreaterThan(0);
    expect(added.every((d) => d.women_lock_booked === d.booked_seats)).toBe(true);

    const page = await (await get(`/commutes/${commuteId}`, { cookie: him.cookie })).text();
    expect(page).toContain("The open seats on every day of this commute are for women only");
  });

  it("is not offered to, and refused for, anyone but the commute's woman driver", async () => {
    const { him, rider, commuteId } = await commuteWithRiders();
    for (const who of [him, rider]) {
      expect(await (await get(`/commutes/${commuteId}`, { cookie: who.cookie })).text()).not.toContain(
        "Keep open seats for women on every day",
      );
      const before = await dbChecksum();
      const res = await postForm(`/commutes/${commuteId}`, { intent: "women-lock-all" }, { cookie: who.cookie });
      expect([302, 403]).toContain(res.status);
      expect(changedTables(before, await dbChecksum())).toEqual([]);
    }
    // A man's own commute: the rule's refusal.
    const c = await createCommute({ db: db() }, him.id, {
      fromLocation: "HSR Layout",
      toLocation: "Koramangala",
      weekdays: 127,
      time: "09:00",
      startDate: addDays(istDate(), 1),
      endDate: null,
      seats: 3,
      tripCost: 20000,
      notes: null,
      communityId: null,
    });
    const res = await postForm(`/commutes/${c.id}`, { intent: "women-lock-all" }, { cookie: him.cookie });
    expect(toastOf(res)?.description).toBe(COMMUTE_LOCK_NEEDS_WOMAN);
    expect((await days(c.id)).every((d) => d.women_lock_booked === null)).toBe(true);
  });
});

describe("Your gender, at any time", () => {
  it("is set in Settings (private), and the refused value changes nothing", async () => {
    const me = await signedInUser({ fullName: "Asha Rao" });
    const res = await postForm("/dashboard/settings", { intent: "gender", gender: "female" }, { cookie: me.cookie });
    expect(res.status).toBe(302);
    expect(toastOf(res)?.title).toBe("Settings saved");
    const row = () => env.DB.prepare("SELECT gender FROM user_profiles WHERE user_id = ?").bind(me.id).first();
    expect(await row()).toEqual({ gender: "female" });
    const html = await (await get("/dashboard/settings", { cookie: me.cookie })).text();
    expect(html).toMatch(/<option value="female" selected="">Woman<\/option>/);
    await postForm("/dashboard/settings", { intent: "gender", gender: "robot" }, { cookie: me.cookie });
    expect(await row()).toEqual({ gender: "female" });
    await postForm("/dashboard/settings", { intent: "gender", gender: "unsaid" }, { cookie: me.cookie });
    expect(await row()).toEqual({ gender: null });
  });

  it("is on the profile form, with the car", async () => {
    const me = await signedInUser({ fullName: "Asha Rao" });
    const res = await postForm(
      "/dashboard/profile",
      { fullName: "Asha Rao", gender: "female", licensePlate: "" },
      { cookie: me.cookie },
    );
    expect(res.status).toBe(302);
    const row = await env.DB.prepare("SELECT gender FROM user_profiles WHERE user_id = ?").bind(me.id).first();
    expect(row).toEqual({ gender: "female" });
    const html = await (await get("/dashboard/profile", { cookie: me.cookie })).text();
    expect(html).toContain("Registration number");
    expect(html).toContain("Your gender (private");
  });
});

describe("Settings: no dead switches", () => {
  it("has no 'Share location' switch; 'Show my mobile number to people on my rides' is on by default", async () => {
    const me = await signedInUser();
    const html = await (await get("/dashboard/settings", { cookie: me.cookie })).text();
    expect(html).not.toContain("Share location");
    expect(html).toContain("Show my mobile number to people on my rides");
    expect(html).toMatch(/aria-checked="true"[^>]*aria-labelledby="label-showPhone"/);
  });
});
