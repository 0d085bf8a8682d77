import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createCompletedRide } from "../../db/factories";
import { statementPath, weekStartOf } from "~/domain/settle-up";
import { addDays, istDate } from "~/domain/time";
import { db, get, postForm, signedInUser } from "../support/worker";
import { toastOf } from "../support/rides";

// Issue 35, item 6: a weekly statement per rider and driver (IST, Monday to Sunday), paid once.

const text = (html: string) => html.replace(/<!--.*?-->/g, "").replace(/<[^>]+>/g, " ");

/** A past week with three rides of the pair in it, and rides just outside it and with someone else. */
async function week() {
  const driver = await signedInUser({ fullName: "Priya Driver", profile: { upiId: "priya@okaxis" } });
  const rider = await signedInUser({ fullName: "Asha Rider" });
  const otherDriver = await signedInUser({ fullName: "Ravi Other" });
  const stranger = await signedInUser({ fullName: "Stranger" });
  const monday = weekStartOf(addDays(istDate(), -14));
  const sunday = addDays(monday, 6);
  const ride = (date: string, time: string, driverId = driver.id) =>
    createCompletedRide(
      { db: db() },
      {
        driverId,
        date,
        time,
        seats: 3,
        tripCostPaise: 20000,
        riders: [{ riderId: rider.id }],
        paymentStatus: "pending",
      },
    );
  // Inside: Monday 00:00 IST, Wednesday 08:30, Sunday 23:59 IST (₹66.66 each: ₹200 / 3 seats).
  const inside = [await ride(monday, "00:00"), await ride(addDays(monday, 2), "08:30"), await ride(sunday, "23:59")];
  // Outside: the Sunday before at 23:59, the Monday after at 00:00, and another driver's ride.
  const before = await ride(addDays(monday, -1), "23:59");
  const after = await ride(addDays(sunday, 1), "00:00");
  const elsewhere = await ride(addDays(monday, 1), "09:00", otherDriver.id);
  const path = statementPath(monday, rider.id, driver.id);
  return { driver, rider, otherDriver, stranger, monday, inside, before, after, elsewhere, path };
}

const paymentsOf = async (rideIds: string[]) =>
  (
    await env.DB.prepare(
      `SELECT ride_id, amount_paise, status, method, settlement_id FROM payments WHERE ride_id IN (${rideIds
        .map(() => "?")
        .join(",")}) ORDER BY ride_id`,
    )
      .bind(...rideIds)
      .all<{ ride_id: string; amount_paise: number; status: string; method: string | null; settlement_id: string }>()
  ).results;
const settlementsOf = async (riderId: string) =>
  (
    await env.DB.prepare("SELECT id, amount_paise, rides, status, week_start FROM settlements WHERE payer_id = ?")
      .bind(riderId)
      .all<{ id: string; amount_paise: number; rides: number; status: string; week_start: string }>()
  ).results;
const payWeek = (path: string, cookie: string, expectedPaise: number, expectedRides: number, method = "upi") =>
  postForm(
    path,
    { intent: "pay-week", method, expectedPaise: String(expectedPaise), expectedRides: String(expectedRides) },
    { cookie },
  );

describe("the week's statement", () => {
  it("lists the pair's rides from Monday 00:00 to Sunday 23:59 IST, sums in paise, one UPI link and QR for the total", async () => {
    const w = await week();
    const res = await get(w.path, { cookie: w.rider.cookie });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html.match(/data-testid="statement-line"/g)).toHaveLength(3);
    for (const r of w.inside) expect(html).toContain(`/rides/${r.id}/completion`);
    for (const r of [w.before, w.after, w.elsewhere]) expect(html).not.toContain(`/rides/${r.id}/`);
    const page = text(html);
    // 3 × ₹66.66 = ₹199.98, not 3 × ₹66.67 nor ₹200.
    expect(html).toMatch(/data-testid="week-total">₹199\.98</);
    expect(html).toMatch(/data-testid="week-unpaid">₹199\.98</);
    expect(page).toContain("Mon, ");
    expect(page).toContain("12:00 AM");
    expect(page).toContain("11:59 PM");
    // One UPI link for the whole week, to the driver's UPI ID, with its QR code.
    expect(html.match(/href="upi:\/\/pay\?/g)).toHaveLength(1);
    expect(html).toContain("pa=priya%40okaxis");
    expect(html).toContain("am=199.98");
    expect(html).toContain('aria-label="UPI payment QR code"');
    expect(page).toContain("Pay ₹199.98 with a UPI app");
    // The weeks before and after are statements of their own.
    const next = await (await get(statementPath(addDays(w.monday, 7), w.rider.id, w.driver.id), w.rider)).text();
    expect(next).toContain(`/rides/${w.after.id}/completion`);
  });

  it("the driver sees the same statement, without a pay button; the list pages link to it", async () => {
    const w = await week();
    const html = await (await get(w.path, { cookie: w.driver.cookie })).text();
    expect(html.match(/data-testid="statement-line"/g)).toHaveLength(3);
    expect(html).not.toContain('value="pay-week"');
    expect(html).not.toContain("upi://pay");
    const riderList = text(await (await get("/dashboard/settle-up", { cookie: w.rider.cookie })).text());
    expect(riderList).toContain("You owe Priya Driver ₹199.98 for 3 rides.");
    const driverList = await (await get("/dashboard/settle-up", { cookie: w.driver.cookie })).text();
    expect(text(driverList)).toContain("Asha Rider owes you ₹199.98 for 3 rides.");
    expect(driverList).toContain(`href="${w.path}"`);
    for (const page of ["/dashboard", "/dashboard/rides"]) {
      expect(await (await get(page, { cookie: w.rider.cookie })).text()).toContain('href="/dashboard/settle-up"');
    }
  });

  it("only the rider and the driver may see it: anyone else, or a day that is not a Monday, is not found", async () => {
    const w = await week();
    for (const who of [w.stranger, w.otherDriver]) {
      const res = await get(w.path, { cookie: who.cookie });
      expect(res.status).toBe(404);
      expect(await res.text()).not.toContain("199.98");
      const list = await (await get("/dashboard/settle-up", { cookie: w.stranger.cookie })).text();
      expect(list).not.toContain(w.rider.id);
    }
    expect((await get(statementPath(addDays(w.monday, 1), w.rider.id, w.driver.id), w.rider)).status).toBe(404);
    expect((await get(statementPath("2026-02-30", w.rider.id, w.driver.id), w.rider)).status).toBe(404);
    // Nobody else can pay it, and the driver cannot mark their own rider's week paid.
    const before = await paymentsOf(w.inside.map((r) => r.id));
    expect((await payWeek(w.path, w.stranger.cookie, 19998, 3)).status).toBe(404);
    expect((await payWeek(w.path, w.driver.cookie, 19998, 3)).status).toBe(403);
    expect(await paymentsOf(w.inside.map((r) => r.id))).toEqual(before);
    expect(await settlementsOf(w.rider.id)).toEqual([]);
  });
});

describe("paying the week", () => {
  it("settles every ride in it with one payment, redirect and toast; the driver confirms it in one step", async () => {
    const w = await week();
    const res = await payWeek(w.path, w.rider.cookie, 19998, 3);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(w.path);
    expect(toastOf(res)).toMatchObject({ title: "Week marked as paid" });
    const [s] = await settlementsOf(w.rider.id);
    expect(s).toMatchObject({ amount_paise: 19998, rides: 3, status: "paid", week_start: w.monday });
    const pays = await paymentsOf(w.inside.map((r) => r.id));
    expect(pays.every((p) => p.status === "paid" && p.method === "upi" && p.settlement_id === s.id)).toBe(true);
    // Rides outside the week are untouched.
    expect((await paymentsOf([w.before.id, w.after.id, w.elsewhere.id])).map((p) => p.status)).toEqual([
      "pending",
      "pending",
      "pending",
    ]);
    const note = await env.DB.prepare("SELECT title FROM notifications WHERE user_id = ? AND title = ?")
      .bind(w.driver.id, "Week marked as paid")
      .all();
    expect(note.results).toHaveLength(1);
    // Paying it again: nothing left to pay; an error toast, nothing changes.
    const again = await payWeek(w.path, w.rider.cookie, 19998, 3);
    expect(toastOf(again)).toMatchObject({ type: "error" });
    expect(await settlementsOf(w.rider.id)).toHaveLength(1);

    const page = await (await get(w.path, { cookie: w.driver.cookie })).text();
    expect(page).toContain('value="confirm-week"');
    const confirmed = await postForm(
      w.path,
      { intent: "confirm-week", settlementId: s.id },
      { cookie: w.driver.cookie },
    );
    expect(toastOf(confirmed)).toMatchObject({ title: "Payment received" });
    expect((await paymentsOf(w.inside.map((r) => r.id))).map((p) => p.status)).toEqual([
      "received",
      "received",
      "received",
    ]);
    expect((await settlementsOf(w.rider.id))[0].status).toBe("received");
  });

  it("a ride paid on its own stays paid once: the week asks only the rest", async () => {
    const w = await week();
    const [one] = await paymentsOf([w.inside[1].id]);
    const id = (await env.DB.prepare("SELECT id FROM payments WHERE ride_id = ?")
      .bind(one.ride_id)
      .first<{ id: string }>())!.id;
    const single = await postForm(
      `/rides/${w.inside[1].id}/completion`,
      { intent: "mark-paid", paymentId: id, method: "cash" },
      { cookie: w.rider.cookie },
    );
    expect(toastOf(single)).toMatchObject({ title: "Marked as paid" });
    const html = await (await get(w.path, { cookie: w.rider.cookie })).text();
    expect(html).toMatch(/data-testid="week-total">₹199\.98</);
    expect(html).toMatch(/data-testid="week-unpaid">₹133\.32</);
    expect(html).toContain("am=133.32");
    // The statement the rider saw before paying that ride is stale now: refused, nothing changes.
    expect(toastOf(await payWeek(w.path, w.rider.cookie, 19998, 3))).toMatchObject({ type: "error" });
    expect(await settlementsOf(w.rider.id)).toEqual([]);
    expect(toastOf(await payWeek(w.path, w.rider.cookie, 13332, 2))).toMatchObject({ title: "Week marked as paid" });
    const pays = await paymentsOf(w.inside.map((r) => r.id));
    expect(pays.filter((p) => p.settlement_id).map((p) => p.amount_paise)).toEqual([6666, 6666]);
    expect(pays.find((p) => p.ride_id === w.inside[1].id)).toMatchObject({ method: "cash", settlement_id: null });
  });

  it("concurrent: two payments of the week at once settle it exactly once", async () => {
    const w = await week();
    const results = await Promise.all([
      payWeek(w.path, w.rider.cookie, 19998, 3),
      payWeek(w.path, w.rider.cookie, 19998, 3, "cash"),
      payWeek(w.path, w.rider.cookie, 19998, 3),
    ]);
    const toasts = results.map((r) => toastOf(r));
    expect(toasts.filter((t) => t?.title === "Week marked as paid")).toHaveLength(1);
    expect(toasts.filter((t) => t?.type === "error")).toHaveLength(2);
    const settled = await settlementsOf(w.rider.id);
    expect(settled).toHaveLength(1);
    const pays = await paymentsOf(w.inside.map((r) => r.id));
    expect(pays.every((p) => p.settlement_id === settled[0].id)).toBe(true);
    const notes = await env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE user_id = ? AND title = ?")
      .bind(w.driver.id, "Week marked as paid")
      .first<{ n: number }>();
    expect(notes!.n).toBe(1);
  });

  it("concurrent: a ride paid on its own while the week is paid is paid once, never twice", async () => {
    const w = await week();
    const id = (await env.DB.prepare("SELECT id FROM payments WHERE ride_id = ?")
      .bind(w.inside[0].id)
      .first<{ id: string }>())!.id;
    const [single, weekly] = await Promise.all([
      postForm(
        `/rides/${w.inside[0].id}/completion`,
        { intent: "mark-paid", paymentId: id, method: "cash" },
        { cookie: w.rider.cookie },
      ),
      payWeek(w.path, w.rider.cookie, 19998, 3),
    ]);
    const ok = [toastOf(single), toastOf(weekly)].filter((t) => t && t.type !== "error");
    expect(ok).toHaveLength(1);
    const pays = await paymentsOf(w.inside.map((r) => r.id));
    const settled = await settlementsOf(w.rider.id);
    const onItsOwn = pays.filter((p) => p.status === "paid" && !p.settlement_id);
    // Whichever came first, the amounts paid add up to the week once.
    const paidTotal =
      settled.reduce((n, s) => n + s.amount_paise, 0) + onItsOwn.reduce((n, p) => n + p.amount_paise, 0);
    expect(paidTotal).toBe(toastOf(weekly)?.type === "error" ? 6666 : 19998);
  });

  it("the database itself refuses to settle a payment twice or one already paid", async () => {
    const w = await week();
    await payWeek(w.path, w.rider.cookie, 19998, 3);
    const [s] = await settlementsOf(w.rider.id);
    const other = await env.DB.prepare(
      "INSERT INTO settlements (id, payer_id, payee_id, week_start, amount_paise, rides, method, status, created_at) VALUES ('s2', ?, ?, ?, 6666, 1, 'upi', 'paid', 1) RETURNING id",
    )
      .bind(w.rider.id, w.driver.id, w.monday)
      .first<{ id: string }>();
    await expect(
      env.DB.prepare("UPDATE payments SET settlement_id = ? WHERE settlement_id = ?").bind(other!.id, s.id).run(),
    ).rejects.toThrow(/payment already settled/);
    await env.DB.prepare("UPDATE payments SET status = 'paid' WHERE ride_id = ?").bind(w.before.id).run();
    await expect(
      env.DB.prepare("UPDATE payments SET settlement_id = 's2' WHERE ride_id = ?").bind(w.before.id).run(),
    ).rejects.toThrow(/payment already settled/);
  });

  it("a forged or malformed post is a 400, never a 500, and changes nothing", async () => {
    const w = await week();
    const forged: Record<string, string>[] = [
      { intent: "pay-week", expectedPaise: "lots", expectedRides: "3" },
      { intent: "pay-week", expectedPaise: "19998", expectedRides: "3", method: "cheque" },
      { intent: "settle-everything" },
    ];
    for (const fields of forged) {
      const res = await postForm(w.path, fields, { cookie: w.rider.cookie });
      expect(res.status).toBe(400);
    }
    expect(await settlementsOf(w.rider.id)).toEqual([]);
  });
});
