// Issue 16, item 2: community rules set by its admins: the pricing mode of rides shared with
// the community (free, equal split, per seat; the ride keeps the mode it was created under),
// women-only rides, and approved pickup points offered first by Create a New Ride.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRideRequest } from "../../db/factories";
import { addDays, istDate } from "~/domain/time";
import { setCommunityPolicy, WOMEN_ONLY_COMMUNITY } from "~/models/community-policy.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { toastOf } from "../support/rides";
import { db, get, postForm, signedInUser } from "../support/worker";

const ctx = () => ({ db: db() });
const text = async (res: Response) =>
  (await res.text())
    .replace(/<!-- -->/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");
// The form is on the moderation tab, so it posts there (and is shown there again with its errors).
const setPolicy = (communityId: string, cookie: string, fields: Record<string, string>) =>
  postForm(
    `/communities/${communityId}?tab=moderation`,
    { intent: "set-policy", pricingMode: "equal", ...fields },
    { cookie },
  );

async function world() {
  const admin = await signedInUser({ fullName: "Anita Admin", profile: { gender: "female" } });
  const mod = await signedInUser({ fullName: "Manoj Moderator" });
  const member = await signedInUser({ fullName: "Meera Member", profile: { gender: "female" } });
  const man = await signedInUser({ fullName: "Vikram Member", profile: { gender: "male" } });
  const community = await createCommunity(ctx(), {
    createdBy: admin.id,
    name: "Infosys Electronic City Pool",
    type: "workplace",
  });
  await addMember(ctx(), { communityId: community.id, userId: mod.id, role: "moderator" });
  await addMember(ctx(), { communityId: community.id, userId: member.id });
  await addMember(ctx(), { communityId: community.id, userId: man.id });
  return { admin, mod, member, man, community };
}

const policyRow = (communityId: string) =>
  env.DB.prepare("SELECT pricing_mode, women_only FROM communities WHERE id = ?")
    .bind(communityId)
    .first<{ pricing_mode: string; women_only: number }>();
const pickupIds = async (communityId: string) =>
  (
    await env.DB.prepare("SELECT place_id FROM community_pickup_points WHERE community_id = ? ORDER BY position")
      .bind(communityId)
      .all<{ place_id: string }>()
  ).results.map((r) => r.place_id);

const rideForm = (communityId: string, from = "HSR Layout") => ({
  intent: "create",
  fromLocation: from,
  toLocation: "Manyata Tech Park",
  date: addDays(istDate(), 2),
  time: "08:30",
  seats: "3",
  tripCost: "301",
  notes: "",
  communityId,
});

/** Offers a ride through the real form; returns its id. */
async function offer(cookie: string, driverId: string, communityId: string) {
  const res = await postForm("/rides/create", rideForm(communityId), { cookie });
  expect(res.status, await res.clone().text()).toBe(302);
  const row = await env.DB.prepare(
    "SELECT id FROM rides WHERE driver_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1",
  )
    .bind(driverId)
    .first<{ id: string }>();
  return row!.id;
}

/** Two members booked on the ride, its departure moved to an hour ago, completed by the driver through the page. */
async function bookAndComplete(rideId: string, driverCookie: string, riderIds: string[]) {
  for (const riderId of riderIds) await createRideRequest(ctx(), { rideId, riderId, status: "accepted" });
  const past = Date.now() - 3_600_000;
  await env.DB.prepare("UPDATE rides SET date = ?, departs_at = ? WHERE id = ?")
    .bind(addDays(istDate(), -1), past, rideId)
    .run();
  const res = await postForm(`/rides/${rideId}/completion`, { intent: "complete" }, { cookie: driverCookie });
  expect(res.status).toBe(302);
  return (
    await env.DB.prepare("SELECT amount_paise, status FROM payments WHERE ride_id = ? ORDER BY payer_id")
      .bind(rideId)
      .all<{ amount_paise: number; status: string }>()
  ).results;
}

describe("setting the community rules", () => {
  it("an admin sets pricing, women-only and pickup points in one form; members see them; outsiders do not; logged", async () => {
    const w = await world();
    expect(await policyRow(w.community.id)).toEqual({ pricing_mode: "equal", women_only: 0 });
    const res = await setPolicy(w.community.id, w.admin.cookie, {
      pricingMode: "free",
      womenOnly: "on",
      pickupPoints: "koramangala\r\n HSR layout \n\nKoramangala",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/communities/${w.community.id}?tab=moderation`);
    expect(toastOf(res)?.title).toBe("Community Rules Updated");
    expect(await policyRow(w.community.id)).toEqual({ pricing_mode: "free", women_only: 1 });
    // Typed names become the list's places, duplicates once, in the admin's order.
    expect(await pickupIds(w.community.id)).toEqual(["koramangala", "hsr-layout"]);

    const page = await text(await get(`/communities/${w.community.id}`, { cookie: w.member.cookie }));
    expect(page).toContain("Rules for rides shared here");
    expect(page).toContain("Free ride: riders pay nothing");
    expect(page).toContain("Women only: every ride shared here is women-only");
    expect(page).toContain("Koramangala, HSR Layout");
    // The form is the admins' (moderation tab); a moderator who is not an admin sees no form.
    expect(
      await text(await get(`/communities/${w.community.id}?tab=moderation`, { cookie: w.admin.cookie })),
    ).toContain("Save ride rules");
    expect(
      await text(await get(`/communities/${w.community.id}?tab=moderation`, { cookie: w.mod.cookie })),
    ).not.toContain("Save ride rules");
    const outsider = await signedInUser();
    expect(await text(await get(`/communities/${w.community.id}`, { cookie: outsider.cookie }))).not.toContain(
      "Rules for rides shared here",
    );

    const log = await env.DB.prepare("SELECT action, actor_id, detail FROM community_audit_log WHERE community_id = ?")
      .bind(w.community.id)
      .all();
    expect(log.results).toEqual([
      {
        action: "rules",
        actor_id: w.admin.id,
        detail: "pricing: free; women-only: yes; pickup points: Koramangala, HSR Layout",
      },
    ]);

    // Saving again replaces the list (an empty box clears it).
    await setPolicy(w.community.id, w.admin.cookie, { pricingMode: "per_seat", pickupPoints: "" });
    expect(await policyRow(w.community.id)).toEqual({ pricing_mode: "per_seat", women_only: 0 });
    expect(await pickupIds(w.community.id)).toEqual([]);
  });

  it("a moderator, a member, an outsider, a visitor and another community's admin may not: 403 and nothing changes", async () => {
    const w = await world();
    const outsider = await signedInUser();
    const otherAdmin = await signedInUser();
    await createCommunity(ctx(), { createdBy: otherAdmin.id, name: "Another Pool" });
    for (const cookie of [w.mod.cookie, w.member.cookie, outsider.cookie, otherAdmin.cookie, ""]) {
      const before = await dbChecksum();
      const res = await setPolicy(w.community.id, cookie, {
        pricingMode: "free",
        womenOnly: "on",
        pickupPoints: "Koramangala",
      });
      // A visitor is refused too; the page it would show again asks them to sign in first.
      if (cookie) expect(res.status).toBe(403);
      else expect([res.status, res.headers.get("Location")?.startsWith("/login?")]).toEqual([302, true]);
      expect(changedTables(before, await dbChecksum())).toEqual([]);
    }
    // Refused before the input is looked at: a non-admin's typo is a 403 too, not a "did you mean".
    expect((await setPolicy(w.community.id, w.member.cookie, { pickupPoints: "Koramangalla" })).status).toBe(403);
    // The model refuses the same way (a caller that skips the route).
    await expect(
      setCommunityPolicy(ctx(), w.member.id, w.community.id, {
        pricingMode: "free",
        womenOnly: false,
        pickupPoints: [],
      }),
    ).rejects.toThrow(/Only the community's admins/);
    // A missing community: 404.
    expect((await setPolicy("no-such-community", w.admin.cookie, { pricingMode: "free" })).status).toBe(404);
  });

  it("bad input gets a clear message by its field and changes nothing", async () => {
    const w = await world();
    const cases: [Record<string, string>, string][] = [
      [{ pickupPoints: "Koramangalla" }, 'We don\'t know "Koramangalla". Did you mean'],
      [
        { pickupPoints: Array.from({ length: 11 }, (_, i) => `Place ${i}`).join("\n") },
        "At most 10 pickup points, one per line",
      ],
      [{ pricingMode: "half" }, "Please choose how rides are priced"],
      [{ pickupPoints: "x".repeat(2001) }, "Too many pickup points"],
    ];
    for (const [fields, message] of cases) {
      const before = await dbChecksum();
      const res = await setPolicy(w.community.id, w.admin.cookie, fields);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(await text(res)).toContain(message);
      expect(changedTables(before, await dbChecksum())).toEqual([]);
    }
  });

  it("admins saving at the same moment: the rules are exactly one of the saves, never a mix", async () => {
    const w = await world();
    const lists = [
      ["Koramangala", "HSR Layout"],
      ["BTM Layout"],
      ["Indiranagar", "Whitefield", "Hebbal"],
      [],
      ["Jayanagar"],
    ];
    const modes = ["free", "equal", "per_seat", "free", "per_seat"] as const;
    const results = await Promise.allSettled(
      lists.map((l, i) =>
        setCommunityPolicy(ctx(), w.admin.id, w.community.id, {
          pricingMode: modes[i],
          womenOnly: i % 2 === 0,
          pickupPoints: l,
        }),
      ),
    );
    expect(results.every((r) => r.status === "fulfilled")).toBe(true);
    const row = (await policyRow(w.community.id))!;
    const names = (
      await env.DB.prepare("SELECT place_id FROM community_pickup_points WHERE community_id = ? ORDER BY position")
        .bind(w.community.id)
        .all<{ place_id: string }>()
    ).results;
    const last = (await env.DB.prepare(
      "SELECT detail FROM community_audit_log WHERE community_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1",
    )
      .bind(w.community.id)
      .first<{ detail: string }>())!;
    const i = lists.findIndex(
      (l, k) =>
        `pricing: ${modes[k]}; women-only: ${k % 2 === 0 ? "yes" : "no"}; pickup points: ${l.join(", ") || "none"}` ===
        last.detail,
    );
    expect(i).toBeGreaterThanOrEqual(0);
    expect(row).toEqual({ pricing_mode: modes[i], women_only: i % 2 === 0 ? 1 : 0 });
    expect(names.length).toBe(lists[i].length);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM community_audit_log WHERE community_id = ?")
        .bind(w.community.id)
        .first(),
    ).toEqual({ n: 5 });
  });
});

describe("pricing mode and the cost split", () => {
  it("free: riders owe ₹0, settled at once, the page says Free ride", async () => {
    const w = await world();
    await setPolicy(w.community.id, w.admin.cookie, { pricingMode: "free" });
    const rideId = await offer(w.admin.cookie, w.admin.id, w.community.id);
    expect(await env.DB.prepare("SELECT pricing_mode FROM rides WHERE id = ?").bind(rideId).first()).toEqual({
      pricing_mode: "free",
    });
    // Before booking, the ride page, the booking page and Discover's card say so instead of a seat price.
    for (const path of [`/rides/${rideId}`, `/rides/${rideId}/book`, "/rides?community=1"]) {
      const html = await text(await get(path, { cookie: w.member.cookie }));
      expect(html, path).toMatch(/data-testid="cost-per-seat">Free ride</);
      expect(html, path).not.toContain("₹100.33");
    }
    const pays = await bookAndComplete(rideId, w.admin.cookie, [w.member.id, w.man.id]);
    expect(pays).toEqual([
      { amount_paise: 0, status: "received" },
      { amount_paise: 0, status: "received" },
    ]);
    // The rider's booking confirmation says so too, not "₹100.33 × 1".
    const request = await env.DB.prepare("SELECT id FROM ride_requests WHERE ride_id = ? AND rider_id = ?")
      .bind(rideId, w.member.id)
      .first<{ id: string }>();
    const confirmation = await text(await get(`/booking-confirmation/${request!.id}`, { cookie: w.member.cookie }));
    expect(confirmation).toMatch(/data-testid="booking-price">(<!-- -->)?Free ride/);
    expect(confirmation).not.toContain("₹100.33");
    const page = await text(await get(`/rides/${rideId}/completion`, { cookie: w.member.cookie }));
    expect(page).toContain("Free ride");
    expect(page).not.toContain("Process Payments");
    expect(page).not.toContain("Fuel Cost Split Applied");
    // Nothing to ask for: Process Payments asks nobody.
    const again = await postForm(
      `/rides/${rideId}/completion`,
      { intent: "process-payments" },
      { cookie: w.admin.cookie },
    );
    expect(again.status).toBe(302);
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM payments WHERE ride_id = ? AND status <> 'received'")
        .bind(rideId)
        .first(),
    ).toEqual({ n: 0 });
  });

  it("per seat: members pay seats × cost per seat even though all are members", async () => {
    const w = await world();
    await setPolicy(w.community.id, w.admin.cookie, { pricingMode: "per_seat" });
    const rideId = await offer(w.admin.cookie, w.admin.id, w.community.id);
    const pays = await bookAndComplete(rideId, w.admin.cookie, [w.member.id, w.man.id]);
    // ₹301 / 3 seats = ₹100.33 per seat, one seat each.
    expect(pays.map((p) => p.amount_paise)).toEqual([10033, 10033]);
    const page = await text(await get(`/rides/${rideId}/completion`, { cookie: w.admin.cookie }));
    expect(page).toContain("Cost Per Seat");
  });

  it("equal split (the default): everyone shares equally, as before", async () => {
    const w = await world();
    const rideId = await offer(w.admin.cookie, w.admin.id, w.community.id);
    expect(await env.DB.prepare("SELECT pricing_mode FROM rides WHERE id = ?").bind(rideId).first()).toEqual({
      pricing_mode: "equal",
    });
    const pays = await bookAndComplete(rideId, w.admin.cookie, [w.member.id, w.man.id]);
    expect(pays.map((p) => p.amount_paise)).toEqual([10033, 10033]);
    expect(await text(await get(`/rides/${rideId}/completion`, { cookie: w.admin.cookie }))).toContain(
      "Fuel Cost Split Applied",
    );
  });

  it("changing the rule moves no price of a ride already offered; rides offered after it follow the new rule", async () => {
    const w = await world();
    const before = await offer(w.admin.cookie, w.admin.id, w.community.id);
    await setPolicy(w.community.id, w.admin.cookie, { pricingMode: "free" });
    const after = await offer(w.admin.cookie, w.admin.id, w.community.id);
    expect(await env.DB.prepare("SELECT pricing_mode FROM rides WHERE id = ?").bind(before).first()).toEqual({
      pricing_mode: "equal",
    });
    // Equal split with one rider: half the trip (₹150.50) is more than the ₹100.33 the rider
    // was shown, so they owe that (ADR 0046); the driver covers the rest.
    expect((await bookAndComplete(before, w.admin.cookie, [w.member.id])).map((p) => p.amount_paise)).toEqual([10033]);
    expect((await bookAndComplete(after, w.admin.cookie, [w.member.id])).map((p) => p.amount_paise)).toEqual([0]);
    // A ride older than the rule (no copy) splits as before, whatever the community says now.
    const old = await offer(w.admin.cookie, w.admin.id, w.community.id);
    await env.DB.prepare("UPDATE rides SET pricing_mode = NULL WHERE id = ?").bind(old).run();
    expect((await bookAndComplete(old, w.admin.cookie, [w.member.id])).map((p) => p.amount_paise)).toEqual([10033]);
  });
});

describe("women-only communities", () => {
  it("rides shared with it are women-only; a man is refused with a clear message and nothing is stored; existing rides keep theirs", async () => {
    const w = await world();
    const earlier = await offer(w.man.cookie, w.man.id, w.community.id);
    await setPolicy(w.community.id, w.admin.cookie, { womenOnly: "on" });
    expect(await env.DB.prepare("SELECT women_only FROM rides WHERE id = ?").bind(earlier).first()).toEqual({
      women_only: 0,
    });

    const rideId = await offer(w.member.cookie, w.member.id, w.community.id);
    expect(await env.DB.prepare("SELECT women_only FROM rides WHERE id = ?").bind(rideId).first()).toEqual({
      women_only: 1,
    });

    const before = await dbChecksum();
    const refused = await postForm("/rides/create", rideForm(w.community.id), { cookie: w.man.cookie });
    expect(refused.status).toBe(400);
    expect(await text(refused)).toContain(WOMEN_ONLY_COMMUNITY.slice(0, 60));
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    // Not shared with the community, he may still offer it to everyone.
    expect((await postForm("/rides/create", rideForm(""), { cookie: w.man.cookie })).status).toBe(302);
    // The form says which communities are women-only.
    expect(await text(await get("/rides/create", { cookie: w.man.cookie }))).toContain(
      "Infosys Electronic City Pool (women-only rides)",
    );
  });

  it("a man cannot publish a weekly commute shared with it either; a woman's occurrences are women-only with the community's pricing", async () => {
    const w = await world();
    await setPolicy(w.community.id, w.admin.cookie, { womenOnly: "on", pricingMode: "free" });
    const { createCommute } = await import("~/models/commutes.server");
    const input = {
      fromLocation: "HSR Layout",
      toLocation: "Manyata Tech Park",
      weekdays: 127,
      time: "08:30",
      seats: 3,
      tripCost: 30000,
      notes: null,
      communityId: w.community.id,
      startDate: addDays(istDate(), 1),
      endDate: null,
    };
    await expect(createCommute(ctx(), w.man.id, input)).rejects.toThrow(WOMEN_ONLY_COMMUNITY);
    const { id } = await createCommute(ctx(), w.member.id, input);
    const rows = await env.DB.prepare("SELECT DISTINCT women_only, pricing_mode FROM rides WHERE commute_id = ?")
      .bind(id)
      .all();
    expect(rows.results).toEqual([{ women_only: 1, pricing_mode: "free" }]);
  });
});

describe("approved pickup points on Create a New Ride", () => {
  it("listed above the pickup field and offered first in its choices, the chosen community's first, in the admins' order", async () => {
    const w = await world();
    const second = await createCommunity(ctx(), { createdBy: w.admin.id, name: "Zeta Koramangala Residents" });
    await setPolicy(w.community.id, w.admin.cookie, { pickupPoints: "Koramangala\nHSR Layout" });
    await setPolicy(second.id, w.admin.cookie, { pickupPoints: "BTM Layout" });
    const options = (html: string) =>
      [...html.matchAll(/<datalist id="([^"]+)-places">(.*?)<\/datalist>/g)].map((m) =>
        [...m[2].matchAll(/value="([^"]+)"/g)].map((o) => o[1]),
      );

    const page = await text(await get("/rides/create", { cookie: w.admin.cookie }));
    expect(page).toContain(
      "Approved pickup points: Infosys Electronic City Pool: Koramangala, HSR Layout; Zeta Koramangala Residents: BTM Layout",
    );
    expect(options(page)[0]).toEqual(["Koramangala", "HSR Layout", "BTM Layout"]);
    // The drop field is not a pickup.
    expect(options(page)[1]).toEqual([]);

    // Shared with the second community (the form shown again after a mistake): its point first.
    const again = await text(
      await postForm("/rides/create", { ...rideForm(second.id, "Koramangalla") }, { cookie: w.admin.cookie }),
    );
    expect(options(again)[0].slice(0, 3)).toEqual(["BTM Layout", "Koramangala", "HSR Layout"]);

    // A member of neither sees no list.
    const stranger = await signedInUser();
    expect(await text(await get("/rides/create", { cookie: stranger.cookie }))).not.toContain("Approved pickup points");
  });
});
