import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity, createRide, createRideRequest, type RideOptions } from "../../db/factories";
import { conversationIdFor } from "~/domain/conversation";
import { addDays, istDate, istToInstant } from "~/domain/time";
import { INQUIRIES_OFF, INQUIRY_LIMIT_REACHED, RIDE_NOT_OPEN, sendMessage } from "~/models/messages.server";
import { changedTables, dbChecksum } from "../support/db-checksum";
import { db, get, notificationsFor, postForm, signedInUser } from "../support/worker";

// Issue 20: a rider may message the driver of a ride they can see and book, about that ride.

const REFUSED = "You can only message people who share a community or a ride with you.";
/** The ride the factory makes by default, as the chat names it (the date part is checked apart). */
const ABOUT = /About: HSR Layout → Manyata Tech Park, (Sun|Mon|Tue|Wed|Thu|Fri|Sat), [A-Z][a-z]{2} \d{1,2}, 8:30 AM/;
const COMPOSER = 'placeholder="Type a message..."';

// Posted to the bare page: after a refused send from ?to=, the loader would redirect an
// existing conversation to ?c= and hide the refusal's status.
const send = (from: { cookie: string }, to: string, content: string, extra: Record<string, string> = {}) =>
  postForm("/dashboard/messages", { intent: "send", to, content, ...extra }, { cookie: from.cookie });

const html = async (res: Response) => (await res.text()).replace(/<!-- -->/g, "");

const inquiries = (riderId: string) =>
  env.DB.prepare(
    "SELECT ride_id, rider_id, driver_id, conversation_id FROM ride_inquiries WHERE rider_id = ? ORDER BY created_at",
  )
    .bind(riderId)
    .all<{ ride_id: string; rider_id: string; driver_id: string; conversation_id: string }>()
    .then((r) => r.results);

const messageCount = (conversationId: string) =>
  env.DB.prepare("SELECT count(*) AS n FROM messages WHERE conversation_id = ?")
    .bind(conversationId)
    .first<number>("n");

/** A driver with a public ride tomorrow and a rider who shares nothing with them. */
async function strangers(ride: Partial<RideOptions> = {}) {
  const driver = await signedInUser({ fullName: "Dinesh Driver" });
  const rider = await signedInUser({ fullName: "Rekha Rider" });
  const r = await createRide({ db: db() }, { driverId: driver.id, ...ride });
  return { driver, rider, ride: r, conversationId: conversationIdFor(driver.id, rider.id) };
}

describe("asking a driver about a ride", () => {
  it("a rider with no shared community asks from Discover; the message names the ride; the driver answers; both keep writing", async () => {
    const { driver, rider, ride, conversationId } = await strangers();
    // The Discover card's Contact carries the ride.
    const discover = await html(await get(`/rides?date=${ride.date}`, { cookie: rider.cookie }));
    expect(discover).toContain(`/dashboard/messages?to=${driver.id}&amp;ride=${ride.id}`);
    // The chat opens with a composer that names the ride.
    const open = await html(await get(`/dashboard/messages?to=${driver.id}&ride=${ride.id}`, { cookie: rider.cookie }));
    expect(open).toContain(COMPOSER);
    expect(open).toMatch(ABOUT);
    expect(open).toContain(`name="rideId" value="${ride.id}"`);
    // Without the ride there is no way in: the old rule.
    const bare = await html(await get(`/dashboard/messages?to=${driver.id}`, { cookie: rider.cookie }));
    expect(bare).not.toContain(COMPOSER);
    expect(bare).toContain(REFUSED);

    const res = await send(rider, driver.id, "Is there space for a laptop bag?", { rideId: ride.id });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe(`/dashboard/messages?c=${conversationId}`);
    expect(await inquiries(rider.id)).toEqual([
      { ride_id: ride.id, rider_id: rider.id, driver_id: driver.id, conversation_id: conversationId },
    ]);
    const [note] = await notificationsFor(driver.id, ["type", "data"]);
    expect(note).toMatchObject({
      type: "message",
      data: { conversation_id: conversationId, sender_id: rider.id, ride_id: ride.id },
    });

    // The driver sees the question with the ride named, and answers without any ride field.
    const driverView = await html(await get(`/dashboard/messages?c=${conversationId}`, { cookie: driver.cookie }));
    expect(driverView).toContain("Is there space for a laptop bag?");
    expect(driverView).toMatch(ABOUT);
    expect(driverView).toContain(COMPOSER);
    expect((await send(driver, rider.id, "Yes, the boot is empty")).status).toBe(302);
    // The rider follows up: the conversation is open while the ride is upcoming, and a
    // follow-up is neither a second inquiry nor counted against the daily limit.
    expect((await send(rider, driver.id, "Great, see you at 8:30", { rideId: ride.id })).status).toBe(302);
    expect(await messageCount(conversationId)).toBe(3);
    expect(await inquiries(rider.id)).toHaveLength(1);
    const counted = await env.DB.prepare("SELECT count FROM rate_limits WHERE key = ?")
      .bind(`ride-inquiry:${rider.id}`)
      .first<number>("count");
    expect(counted).toBe(1);
  });

  it("the ride page's Contact Driver carries the ride; a driver has no Contact on their own ride", async () => {
    const { driver, rider, ride } = await strangers();
    const page = await html(await get(`/rides/${ride.id}`, { cookie: rider.cookie }));
    expect(page).toContain(`/dashboard/messages?to=${driver.id}&amp;ride=${ride.id}`);
    const own = await html(await get(`/rides/${ride.id}`, { cookie: driver.cookie }));
    expect(own).not.toContain("Contact Driver");
  });

  it("a user who cannot see any ride of a person still cannot message them, about any ride id; nothing is stored", async () => {
    const driver = await signedInUser({ fullName: "Kiran Community" });
    const rider = await signedInUser({ fullName: "Outside Oscar" });
    const other = await signedInUser({ fullName: "Other Driver" });
    const community = await createCommunity({ db: db() }, { createdBy: driver.id });
    const communityRide = await createRide({ db: db() }, { driverId: driver.id, communityId: community.id });
    const othersRide = await createRide({ db: db() }, { driverId: other.id });
    const before = await dbChecksum();
    const attempts: Record<string, string>[] = [
      {},
      { rideId: communityRide.id },
      { rideId: othersRide.id },
      { rideId: "doesnotexist" },
    ];
    for (const extra of attempts) {
      const res = await send(rider, driver.id, "Hello?", extra);
      expect(res.status, JSON.stringify(extra)).toBe(403);
      expect(await res.text()).toContain(REFUSED);
    }
    // A driver cannot turn their own ride into a way to write to a stranger either.
    expect((await send(driver, rider.id, "Want a ride?", { rideId: communityRide.id })).status).toBe(403);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    // The page says so, with a way on instead of a dead end, and no composer.
    const page = await html(
      await get(`/dashboard/messages?to=${driver.id}&ride=${communityRide.id}`, { cookie: rider.cookie }),
    );
    expect(page).not.toContain(COMPOSER);
    expect(page).toContain(REFUSED);
    expect(page).toContain('href="/rides"');
  });

  it("a full, departed or cancelled ride opens no inquiry: the page explains and offers other rides", async () => {
    const driver = await signedInUser({ fullName: "Full Fatima" });
    const rider = await signedInUser();
    const full = await createRide({ db: db() }, { driverId: driver.id, seats: 2, bookedSeats: 2 });
    const departed = await createRide({ db: db() }, { driverId: driver.id, date: istDate(), time: "00:00" });
    const cancelled = await createRide({ db: db() }, { driverId: driver.id, status: "cancelled" });
    const before = await dbChecksum();
    for (const ride of [full, departed, cancelled]) {
      const res = await send(rider, driver.id, "Any chance?", { rideId: ride.id });
      expect(res.status, ride.id).toBe(403);
      expect(await res.text()).toContain(RIDE_NOT_OPEN);
      const page = await html(
        await get(`/dashboard/messages?to=${driver.id}&ride=${ride.id}`, { cookie: rider.cookie }),
      );
      expect(page).not.toContain(COMPOSER);
      expect(page).toContain(RIDE_NOT_OPEN);
      expect(page).not.toContain("Request a seat");
    }
    expect(changedTables(before, await dbChecksum())).toEqual([]);
  });

  it("a driver who turned ride inquiries off cannot be messaged by strangers (an open inquiry closes too); members and requesters still can", async () => {
    const { driver, rider, ride, conversationId } = await strangers();
    const member = await signedInUser({ fullName: "Meera Member" });
    const requester = await signedInUser({ fullName: "Rahul Requester" });
    const community = await createCommunity({ db: db() }, { createdBy: driver.id });
    await addMember({ db: db() }, { communityId: community.id, userId: member.id });
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: requester.id });
    expect((await send(rider, driver.id, "Pick-up at the main gate?", { rideId: ride.id })).status).toBe(302);

    // Settings: the switch is a plain form POST.
    const settings = await html(await get("/dashboard/settings", { cookie: driver.cookie }));
    expect(settings).toContain("Ride inquiries");
    const off = await postForm(
      "/dashboard/settings",
      { setting: "rideInquiries", value: "off" },
      { cookie: driver.cookie },
    );
    expect(off.status).toBe(302);
    expect(
      await env.DB.prepare("SELECT ride_inquiries FROM user_settings WHERE user_id = ?")
        .bind(driver.id)
        .first("ride_inquiries"),
    ).toBe(0);

    const stranger = await signedInUser({ fullName: "Sunil Stranger" });
    const before = await dbChecksum();
    const refused = await send(stranger, driver.id, "Hi, seat for tomorrow?", { rideId: ride.id });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain(INQUIRIES_OFF);
    // The open inquiry closed in both directions.
    expect((await send(rider, driver.id, "Still on?")).status).toBe(403);
    expect((await send(driver, rider.id, "Yes")).status).toBe(403);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    // Their pages say why and offer Request a seat, with no composer.
    const page = await html(
      await get(`/dashboard/messages?to=${driver.id}&ride=${ride.id}`, { cookie: stranger.cookie }),
    );
    expect(page).toContain(INQUIRIES_OFF);
    expect(page).toContain(`href="/rides/${ride.id}/book"`);
    expect(page).not.toContain(COMPOSER);
    const chat = await html(await get(`/dashboard/messages?c=${conversationId}`, { cookie: rider.cookie }));
    expect(chat).toContain("Pick-up at the main gate?");
    expect(chat).not.toContain(COMPOSER);
    // People with another relation are not affected.
    expect((await send(member, driver.id, "Carpool on Friday?")).status).toBe(302);
    expect((await send(requester, driver.id, "About my request", { rideId: ride.id })).status).toBe(302);
  });

  it("the conversation closes when the inquired ride departs, unless they share something else", async () => {
    const { driver, rider, ride } = await strangers();
    expect((await send(rider, driver.id, "Room for two?", { rideId: ride.id })).status).toBe(302);
    await env.DB.prepare("UPDATE rides SET departs_at = ? WHERE id = ?")
      .bind(Date.now() - 60_000, ride.id)
      .run();
    expect((await send(rider, driver.id, "Thanks for the ride")).status).toBe(403);
    expect((await send(driver, rider.id, "You're welcome")).status).toBe(403);
    // A request on another of the driver's rides is a relation of its own.
    const next = await createRide({ db: db() }, { driverId: driver.id, date: addDays(istDate(), 2) });
    await createRideRequest({ db: db() }, { rideId: next.id, riderId: rider.id });
    expect((await send(rider, driver.id, "Booked the next one")).status).toBe(302);
  });
});

describe("the daily limit on first messages to drivers with no other relation", () => {
  it("the 11th first message in a day is refused and changes nothing; follow-ups and people with a relation are not counted", async () => {
    const rider = await signedInUser({ fullName: "Eager Eshan" });
    const pairs = [];
    for (let i = 0; i < 11; i++) {
      const driver = await signedInUser({ fullName: `Driver ${i}` });
      pairs.push({ driver, ride: await createRide({ db: db() }, { driverId: driver.id }) });
    }
    for (const { driver, ride } of pairs.slice(0, 10)) {
      expect((await send(rider, driver.id, "Is this ride still on?", { rideId: ride.id })).status).toBe(302);
    }
    const before = await dbChecksum();
    const eleventh = await send(rider, pairs[10].driver.id, "Is this ride still on?", { rideId: pairs[10].ride.id });
    // A refused domain rule on a form: 409 with the message on the composer (ADR 0013).
    expect(eleventh.status).toBe(409);
    expect(await eleventh.text()).toContain(INQUIRY_LIMIT_REACHED);
    expect(changedTables(before, await dbChecksum())).toEqual([]);
    expect(await notificationsFor(pairs[10].driver.id)).toEqual([]);

    // A follow-up in an open inquiry, and a first message to a community neighbour, still go.
    expect((await send(rider, pairs[0].driver.id, "One more question")).status).toBe(302);
    const neighbour = await signedInUser();
    const community = await createCommunity({ db: db() }, { createdBy: neighbour.id });
    await addMember({ db: db() }, { communityId: community.id, userId: rider.id });
    const neighbourRide = await createRide({ db: db() }, { driverId: neighbour.id });
    expect((await send(rider, neighbour.id, "Hi neighbour", { rideId: neighbourRide.id })).status).toBe(302);
  });

  it("15 concurrent first messages to 15 drivers store exactly 10", async () => {
    const rider = await signedInUser({ fullName: "Burst Bhavana" });
    const pairs = await Promise.all(
      Array.from({ length: 15 }, async (_, i) => {
        const driver = await signedInUser({ fullName: `Burst Driver ${i}` });
        return { driver, ride: await createRide({ db: db() }, { driverId: driver.id }) };
      }),
    );
    const results = await Promise.all(
      pairs.map(({ driver, ride }) => send(rider, driver.id, "Seat free?", { rideId: ride.id })),
    );
    expect(results.filter((r) => r.status === 302)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    expect(await inquiries(rider.id)).toHaveLength(10);
    const sent = await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE sender_id = ?")
      .bind(rider.id)
      .first<number>("n");
    expect(sent).toBe(10);
    const conversations = await env.DB.prepare("SELECT count(*) AS n FROM conversations WHERE user_a = ? OR user_b = ?")
      .bind(rider.id, rider.id)
      .first<number>("n");
    expect(conversations).toBe(10);
  });

  it("a retried first message (20 concurrent identical sends) is stored once and counted once", async () => {
    const { driver, rider, ride, conversationId } = await strangers();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        send(rider, driver.id, "Leaving at 8:30 sharp?", { rideId: ride.id, clientId: "retry-once-1234" }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(302));
    expect(await messageCount(conversationId)).toBe(1);
    expect(await inquiries(rider.id)).toHaveLength(1);
    expect(
      await env.DB.prepare("SELECT count FROM rate_limits WHERE key = ?")
        .bind(`ride-inquiry:${rider.id}`)
        .first<number>("count"),
    ).toBe(1);
  });

  it("the day is the IST day: the limit resets at midnight in Bengaluru, not UTC", async () => {
    const rider = await signedInUser();
    const day = addDays(istDate(), 5);
    const lateEvening = istToInstant(day, "23:50");
    const afterMidnight = istToInstant(addDays(day, 1), "00:10");
    const drivers = [];
    for (let i = 0; i < 11; i++) {
      const driver = await signedInUser();
      drivers.push({ driver, ride: await createRide({ db: db() }, { driverId: driver.id, date: addDays(day, 3) }) });
    }
    // 10 at 23:50 IST (18:20 UTC): the 11th is refused at 23:55 IST...
    for (const { driver, ride } of drivers.slice(0, 10)) {
      await sendMessage({ db: db() }, rider.id, { to: driver.id, content: "Seat?", rideId: ride.id }, lateEvening);
    }
    await expect(
      sendMessage(
        { db: db() },
        rider.id,
        { to: drivers[10].driver.id, content: "Seat?", rideId: drivers[10].ride.id },
        lateEvening + 5 * 60_000,
      ),
    ).rejects.toThrow(INQUIRY_LIMIT_REACHED);
    // ...and allowed at 00:10 IST the next day (still the same UTC day).
    expect(new Date(afterMidnight).getUTCDate()).toBe(new Date(lateEvening).getUTCDate());
    const sent = await sendMessage(
      { db: db() },
      rider.id,
      { to: drivers[10].driver.id, content: "Seat?", rideId: drivers[10].ride.id },
      afterMidnight,
    );
    expect(sent.created).toBe(true);
  });
});
