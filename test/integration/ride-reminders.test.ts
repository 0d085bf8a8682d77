// Issue 15, item 4: ride reminders. With ride_reminders on, the driver and each accepted rider
// get one reminder about an hour before departure, exactly once per person and ride however
// often (or however concurrently) the scheduler runs, and late runs still send it; none for
// cancelled rides, withdrawn requests, or people who turned reminders off.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { enqueueRideReminders } from "~/models/outbox/queue.server";
import { deliverOutbox } from "~/models/outbox/deliver.server";
import { formatWeekdayDate } from "~/domain/time";
import { createRide, createRideRequest, createUser } from "../support/rides";
import { postTestClock, PRODUCTION_ENV, runScheduled } from "../support/test-clock";
import { db } from "../support/worker";

const verified = { emailVerifiedAt: Date.now() - 86_400_000 };

/** IST date and time `minutes` from now. */
function istSlot(minutes: number) {
  const ist = new Date(Date.now() + minutes * 60_000 + 5.5 * 3600_000).toISOString();
  return { date: ist.slice(0, 10), time: ist.slice(11, 16) };
}

const runCron = () => runScheduled("*/5 * * * *");

async function remindersTo(email: string) {
  const r = await env.DB.prepare(
    "SELECT subject, text_body FROM mail_sink WHERE to_address = ? AND subject LIKE 'Reminder:%'",
  )
    .bind(email.toLowerCase())
    .all<{ subject: string; text_body: string }>();
  return r.results;
}

async function scene() {
  const driver = await createUser({ db: db() }, { fullName: "Arjun Rao", ...verified });
  const [accepted, pending, withdrawn, quiet] = await Promise.all(
    ["Kavya Nair", "Rahul Verma", "Vikram Reddy", "Sneha Kulkarni"].map((fullName) =>
      createUser({ db: db() }, { fullName, ...verified }),
    ),
  );
  await env.DB.prepare("UPDATE user_settings SET ride_reminders = 0 WHERE user_id = ?").bind(quiet.id).run();
  const slot = istSlot(50);
  const ride = await createRide(
    { db: db() },
    {
      driverId: driver.id,
      fromLocation: "Whitefield",
      toLocation: "Indiranagar",
      tripCostPaise: 24000,
      seats: 4,
      ...slot,
    },
  );
  await createRideRequest({ db: db() }, { rideId: ride.id, riderId: accepted.id, status: "accepted", seats: 2 });
  await createRideRequest({ db: db() }, { rideId: ride.id, riderId: pending.id, status: "pending" });
  await createRideRequest({ db: db() }, { rideId: ride.id, riderId: withdrawn.id, status: "cancelled" });
  await createRideRequest({ db: db() }, { rideId: ride.id, riderId: quiet.id, status: "accepted" });
  return { driver, accepted, pending, withdrawn, quiet, ride, slot };
}

describe("ride reminders", () => {
  it("the driver and each accepted rider get exactly one, however often the scheduler runs", async () => {
    const s = await scene();
    // Two runs one after the other, then three at once.
    await runCron();
    await runCron();
    await Promise.all([runCron(), runCron(), runCron()]);
    const [toDriver] = await remindersTo(s.driver.email!);
    expect(await remindersTo(s.driver.email!)).toHaveLength(1);
    expect(toDriver.subject).toBe(`Reminder: Whitefield → Indiranagar at ${formatted(s.slot.time)} IST`);
    expect(toDriver.text_body).toContain("You are driving, with 3 seats booked.");
    const toRider = await remindersTo(s.accepted.email!);
    expect(toRider).toHaveLength(1);
    expect(toRider[0].text_body).toContain("Your ride with Arjun Rao leaves soon.");
    expect(toRider[0].text_body).toContain("Your seats: 2 (₹120.00 in all)");
    for (const nobody of [s.pending, s.withdrawn, s.quiet]) expect(await remindersTo(nobody.email!)).toEqual([]);
    const rows = await env.DB.prepare(
      "SELECT count(*) AS n FROM outbox WHERE kind = 'reminder' AND payload ->> '$.ride_id' = ?",
    )
      .bind(s.ride.id)
      .first<{ n: number }>();
    // Driver and accepted rider, on both channels.
    expect(rows?.n).toBe(4);
  });

  it("concurrent enqueues queue each reminder once", async () => {
    const s = await scene();
    const counts = await Promise.all(Array.from({ length: 6 }, () => enqueueRideReminders({ db: db() })));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(4);
    expect(s.ride.id).toBeTruthy();
  });

  it("a late run still reminds; a ride more than 65 minutes away waits; a departed ride gets none", async () => {
    const driver = await createUser({ db: db() }, verified);
    const soon = await createRide(
      { db: db() },
      { driverId: driver.id, fromLocation: "HSR Layout", toLocation: "Koramangala", ...istSlot(10) },
    );
    const later = await createRide(
      { db: db() },
      { driverId: driver.id, fromLocation: "Hebbal", toLocation: "Yelahanka", ...istSlot(180) },
    );
    await runCron();
    const subjects = (await remindersTo(driver.email!)).map((m) => m.subject);
    expect(subjects.some((t) => t.startsWith("Reminder: HSR Layout → Koramangala"))).toBe(true);
    expect(subjects.some((t) => t.startsWith("Reminder: Hebbal"))).toBe(false);
    // Run again when the later ride is 60 minutes away: now it is reminded.
    const at = later.departsAt - 60 * 60_000;
    expect(await enqueueRideReminders({ db: db() }, at)).toBe(2);
    await deliverOutbox({ db: db(), env }, { now: at, push: null });
    expect((await remindersTo(driver.email!)).filter((m) => m.subject.startsWith("Reminder: Hebbal"))).toHaveLength(1);
    // After departure, nothing new.
    expect(await enqueueRideReminders({ db: db() }, soon.departsAt + 1)).toBe(0);
  });

  it("a ride cancelled, or a seat withdrawn, after the reminder was queued sends none", async () => {
    const s = await scene();
    await enqueueRideReminders({ db: db() });
    await env.DB.prepare("UPDATE ride_requests SET status = 'cancelled' WHERE ride_id = ? AND rider_id = ?")
      .bind(s.ride.id, s.accepted.id)
      .run();
    await deliverOutbox({ db: db(), env }, { push: null });
    expect(await remindersTo(s.accepted.email!)).toEqual([]);
    expect(await remindersTo(s.driver.email!)).toHaveLength(1);
    const other = await scene();
    await enqueueRideReminders({ db: db() });
    await env.DB.prepare("UPDATE rides SET status = 'cancelled' WHERE id = ?").bind(other.ride.id).run();
    await deliverOutbox({ db: db(), env }, { push: null });
    expect(await remindersTo(other.driver.email!)).toEqual([]);
    expect(await remindersTo(other.accepted.email!)).toEqual([]);
    const skipped = await env.DB.prepare("SELECT last_error FROM outbox WHERE user_id = ? AND channel = 'email'")
      .bind(other.driver.id)
      .first<{ last_error: string }>();
    expect(skipped?.last_error).toBe("the ride is not upcoming");
  });

  it("no reminder e-mail with e-mail notifications off (the reminder setting alone is not enough)", async () => {
    const s = await scene();
    await env.DB.prepare("UPDATE user_settings SET email_notifications = 0 WHERE user_id = ?")
      .bind(s.accepted.id)
      .run();
    await runCron();
    expect(await remindersTo(s.accepted.email!)).toEqual([]);
    expect(await remindersTo(s.driver.email!)).toHaveLength(1);
  });

  it("issue 35: the reminder is in the notifications panel too, once per person, and e-mailed once", async () => {
    const s = await scene();
    await runCron();
    await runCron();
    await Promise.all([runCron(), runCron(), runCron()]);
    const panel = async (userId: string) =>
      (
        await env.DB.prepare("SELECT message, data FROM notifications WHERE user_id = ? AND title = 'Ride reminder'")
          .bind(userId)
          .all<{ message: string; data: string }>()
      ).results;
    const leaves = `Your ride Whitefield → Indiranagar leaves at ${formatted(s.slot.time)} on ${formatWeekdayDate(s.slot.date)}.`;
    const early = "Please be at the pickup a few minutes early.";
    // Issue 36: both accepted riders are picked up at the start, at the departure (a tie: in
    // the order of the requests' ids).
    const stops = ["Kavya Nair (2 seats)", "Sneha Kulkarni (1 seat)"].map(
      (who) => `${formatted(s.slot.time)} · Whitefield · ${who}`,
    );
    const message = {
      [s.driver.id]: [
        `${leaves} Pickups in order: ${stops.join("; ")}. ${early}`,
        `${leaves} Pickups in order: ${[...stops].reverse().join("; ")}. ${early}`,
      ],
      [s.accepted.id]: [`${leaves} Your pickup: Whitefield, around ${formatted(s.slot.time)}. ${early}`],
    };
    for (const who of [s.driver, s.accepted]) {
      const rows = await panel(who.id);
      expect(rows).toHaveLength(1);
      expect(message[who.id]).toContain(rows[0].message);
      expect(JSON.parse(rows[0].data)).toEqual({ ride_id: s.ride.id, reminder: 1 });
      // The notice is not mailed a second time (the reminder e-mail is the one).
      expect(await remindersTo(who.email!)).toHaveLength(1);
      const mailedNotice = await env.DB.prepare(
        "SELECT count(*) AS n FROM outbox WHERE user_id = ? AND kind = 'notification' AND payload ->> '$.title' = 'Ride reminder'",
      )
        .bind(who.id)
        .first<{ n: number }>();
      expect(mailedNotice?.n).toBe(0);
    }
    for (const nobody of [s.pending, s.withdrawn, s.quiet]) expect(await panel(nobody.id)).toEqual([]);
  });

  it("issue 36: the driver's reminder lists each accepted rider's pickup and time in order; a rider's names their own", async () => {
    const driver = await createUser({ db: db() }, { fullName: "Arjun Rao", ...verified });
    const [atStart, onTheWay, asking] = await Promise.all(
      ["Kavya Nair", "Rahul Verma", "Vikram Reddy"].map((fullName) =>
        createUser({ db: db() }, { fullName, ...verified }),
      ),
    );
    const slot = istSlot(50);
    const ride = await createRide(
      { db: db() },
      {
        driverId: driver.id,
        fromLocation: "Whitefield",
        toLocation: "Electronic City Phase 1",
        vias: ["Marathahalli"],
        seats: 4,
        ...slot,
      },
    );
    // Accepted in the opposite order of the route, so the list's order is the route's.
    await createRideRequest(
      { db: db() },
      { rideId: ride.id, riderId: onTheWay.id, status: "accepted", seats: 2, pickup: "Bellandur" },
    );
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: atStart.id, status: "accepted" });
    // Not accepted: not in the reminder.
    await createRideRequest(
      { db: db() },
      { rideId: ride.id, riderId: asking.id, status: "pending", pickup: "Marathahalli" },
    );
    await runCron();

    // By hand (ADR 0049): Whitefield -> Marathahalli -> Bellandur is 9.0 km straight (the
    // ride passes Bellandur: no detour), x 1.4 road factor = 12.6 km, at 20 km/h = 38 min.
    const start = formatted(slot.time);
    const bellandur = formatted(plusMinutes(slot.time, 38));
    const [toDriver] = await remindersTo(driver.email!);
    expect(toDriver.text_body).toContain(
      [
        "Pickups in order (estimated times, IST):",
        `1. ${start} · Whitefield · Kavya Nair (1 seat)`,
        `2. ${bellandur} · Bellandur · Rahul Verma (2 seats)`,
        "Please be at the pickup point a few minutes early.",
      ].join("\n"),
    );
    expect(toDriver.text_body).not.toContain("Vikram");
    const [toRahul] = await remindersTo(onTheWay.email!);
    expect(toRahul.text_body).toContain(`Your pickup: Bellandur, around ${bellandur} IST`);
    expect(toRahul.text_body).not.toContain("Kavya");
    const [toKavya] = await remindersTo(atStart.email!);
    expect(toKavya.text_body).toContain(`Your pickup: Whitefield, around ${start} IST`);
    expect(toKavya.text_body).not.toContain("Rahul");

    // The panel notices say the same.
    const notice = async (userId: string) =>
      (
        await env.DB.prepare("SELECT message FROM notifications WHERE user_id = ? AND title = 'Ride reminder'")
          .bind(userId)
          .first<{ message: string }>()
      )?.message;
    expect(await notice(driver.id)).toContain(
      `Pickups in order: ${start} · Whitefield · Kavya Nair (1 seat); ${bellandur} · Bellandur · Rahul Verma (2 seats). Please be`,
    );
    expect(await notice(onTheWay.id)).toContain(`. Your pickup: Bellandur, around ${bellandur}. Please be`);
    expect(await notice(atStart.id)).toContain(`. Your pickup: Whitefield, around ${start}. Please be`);
  });

  it("POST /__test/five-minute-run runs the 5-minute work as of a time, only with LOOPRIDE_STAGE=test", async () => {
    const driver = await createUser({ db: db() }, verified);
    const ride = await createRide({ db: db() }, { driverId: driver.id, ...istSlot(180) });
    const call = (over: Record<string, unknown>) =>
      postTestClock(`/__test/five-minute-run?time=${ride.departsAt - 30 * 60_000}`, over);
    // Production (no stage marker, its secrets set): the catch-all page refuses the POST.
    const production = await call(PRODUCTION_ENV);
    expect(production.status).toBe(405);
    expect(await remindersTo(driver.email!)).toEqual([]);
    // Twice, as the cron runs: one reminder, mailed and in the panel.
    for (let i = 0; i < 2; i++) expect((await call({})).status).toBe(200);
    expect(await remindersTo(driver.email!)).toHaveLength(1);
    const panel = await env.DB.prepare(
      "SELECT count(*) AS n FROM notifications WHERE user_id = ? AND title = 'Ride reminder'",
    )
      .bind(driver.id)
      .first<{ n: number }>();
    expect(panel?.n).toBe(1);
  });
});

function plusMinutes(time: string, minutes: number) {
  const m = Number(time.slice(0, 2)) * 60 + Number(time.slice(3)) + minutes;
  return `${String(Math.floor(m / 60) % 24).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

function formatted(time: string) {
  const [h, m] = time.split(":").map(Number);
  return `${h % 12 === 0 ? 12 : h % 12}:${String(m).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
}
