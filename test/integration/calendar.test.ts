import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { createCommunity, createRide, createRideRequest } from "../../db/factories";
import { estimatedRideMinutes } from "~/domain/calendar";
import { addDays, istDate, istToInstant } from "~/domain/time";
import { Browser, db, get, postForm, signedInUser, tableCounts } from "../support/worker";
import { toastOf } from "../support/rides";
import { LINE_INVALID } from "~/schemas/text";

// Calendar (issue 15, item 5): a ride's .ics download and each user's private feed.

/** A minimal RFC 5545 reader: unfolds lines and returns each VEVENT's properties (name without parameters). */
function parseIcs(text: string) {
  expect(text.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true);
  expect(text.trimEnd().endsWith("END:VCALENDAR")).toBe(true);
  const lines = text
    .replace(/\r\n[ \t]/g, "")
    .split("\r\n")
    .filter(Boolean);
  const events: Record<string, string>[] = [];
  let current: Record<string, string> | null = null;
  for (const line of lines) {
    if (line === "BEGIN:VEVENT") current = {};
    else if (line === "END:VEVENT") events.push(current!), (current = null);
    else if (current) {
      const i = line.indexOf(":");
      current[line.slice(0, i).split(";")[0]] = line
        .slice(i + 1)
        .replace(/\\,/g, ",")
        .replace(/\\n/gi, "\n");
    }
  }
  return { events, calendar: lines };
}

/** 20261201T030000Z for an instant. */
const icsUtc = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

async function world() {
  const driver = await signedInUser({ fullName: "Deepa Driver" });
  const rider = await signedInUser({ fullName: "Ravi Rider" });
  const pending = await signedInUser({ fullName: "Pavan Pending" });
  const withdrawn = await signedInUser({ fullName: "Wasim Withdrawn" });
  const stranger = await signedInUser({ fullName: "Sanjay Stranger" });
  const date = addDays(istDate(), 3);
  const ride = await createRide(
    { db: db() },
    {
      driverId: driver.id,
      fromLocation: "HSR Layout",
      toLocation: "Manyata Tech Park",
      date,
      time: "08:30",
      tripCostPaise: 45000,
      seats: 3,
    },
  );
  await env.DB.prepare("UPDATE rides SET distance_km = 24 WHERE id = ?").bind(ride.id).run();
  await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, status: "accepted" });
  await createRideRequest({ db: db() }, { rideId: ride.id, riderId: pending.id });
  await createRideRequest({ db: db() }, { rideId: ride.id, riderId: withdrawn.id, status: "cancelled" });
  return { driver, rider, pending, withdrawn, stranger, ride, date };
}

describe("a ride's .ics download", () => {
  it("gives the driver an event at the IST departure, written in UTC, with an estimated end", async () => {
    const { driver, ride, date } = await world();
    const res = await get(`/rides/${ride.id}/calendar.ics`, { cookie: driver.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    expect(res.headers.get("Content-Disposition")).toBe(`attachment; filename="loopride-ride-${ride.id}.ics"`);
    expect(res.headers.get("Cache-Control")).toContain("no-store");
    const { events } = parseIcs(await res.text());
    expect(events).toHaveLength(1);
    const e = events[0];
    // 08:30 in Bengaluru is 03:00 UTC the same day.
    const start = istToInstant(date, "08:30");
    expect(e.DTSTART).toBe(`${date.replace(/-/g, "")}T030000Z`);
    expect(e.DTSTART).toBe(icsUtc(start));
    // 24 km at about 20 km/h: 72 minutes, rounded up to 75.
    expect(estimatedRideMinutes(24)).toBe(75);
    expect(e.DTEND).toBe(icsUtc(start + 75 * 60_000));
    expect(e.UID).toBe(`ride-${ride.id}@loopride`);
    expect(e.SUMMARY).toBe("LoopRide: HSR Layout → Manyata Tech Park");
    expect(e.STATUS).toBe("CONFIRMED");
    expect(e.URL).toBe(`http://localhost/rides/${ride.id}`);
    expect(e.DESCRIPTION).toContain("You are driving.");
    expect(e.DESCRIPTION).toContain("Cost per seat ₹150.00");
  });

  it("riders with a request get it too (a pending one as tentative); anyone else is refused and nothing changes", async () => {
    const { rider, pending, withdrawn, stranger, ride } = await world();
    const accepted = parseIcs(await (await get(`/rides/${ride.id}/calendar.ics`, { cookie: rider.cookie })).text())
      .events[0];
    expect(accepted.STATUS).toBe("CONFIRMED");
    expect(accepted.DESCRIPTION).toContain("Your seat is confirmed.");
    const tentative = parseIcs(await (await get(`/rides/${ride.id}/calendar.ics`, { cookie: pending.cookie })).text())
      .events[0];
    expect(tentative.STATUS).toBe("TENTATIVE");
    const before = await tableCounts();
    // A public ride the stranger can see, but is not part of: 403.
    for (const who of [stranger, withdrawn]) {
      const res = await get(`/rides/${ride.id}/calendar.ics`, { cookie: who.cookie });
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain("BEGIN:VCALENDAR");
    }
    expect((await get(`/rides/no-such-ride/calendar.ics`, { cookie: stranger.cookie })).status).toBe(404);
    const visitor = await get(`/rides/${ride.id}/calendar.ics`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toMatch(/^\/login/);
    expect(await tableCounts()).toEqual(before);
  });

  it("a community ride answers an outsider as a missing ride does (404)", async () => {
    const driver = await signedInUser();
    const outsider = await signedInUser();
    const community = await createCommunity({ db: db() }, { createdBy: driver.id });
    const ride = await createRide({ db: db() }, { driverId: driver.id, communityId: community.id });
    expect((await get(`/rides/${ride.id}/calendar.ics`, { cookie: outsider.cookie })).status).toBe(404);
    expect((await get(`/rides/${ride.id}/calendar.ics`, { cookie: driver.cookie })).status).toBe(200);
  });

  it("the ride page and the booking confirmation link to the download", async () => {
    const { driver, rider, ride } = await world();
    const request = await env.DB.prepare("SELECT id FROM ride_requests WHERE rider_id = ?")
      .bind(rider.id)
      .first<string>("id");
    for (const [path, cookie] of [
      [`/rides/${ride.id}`, driver.cookie],
      [`/rides/${ride.id}`, rider.cookie],
      [`/booking-confirmation/${request}`, rider.cookie],
    ]) {
      const html = await (await get(path, { cookie })).text();
      expect(html, path).toContain(`href="/rides/${ride.id}/calendar.ics"`);
    }
  });
});

describe("the private calendar feed", () => {
  async function makeFeed(cookie: string) {
    const b = new Browser();
    b.cookies.set("lr_session", cookie.split("=")[1]);
    const res = await b.post("/calendar-feed", { intent: "create-feed" });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard/settings#calendar");
    expect(toastOf(res)?.title).toBe("Calendar feed ready");
    const html = await (await b.get("/dashboard/settings")).text();
    const url =
      /data-testid="calendar-feed-url"[^>]*value="([^"]+)"|value="([^"]+)"[^>]*data-testid="calendar-feed-url"/.exec(
        html,
      );
    const feedUrl = url?.[1] ?? url?.[2];
    expect(feedUrl).toMatch(/^http:\/\/localhost\/calendar\/[0-9a-f]{64}\/rides\.ics$/);
    // Issue 38, defect 5: a webcal:// link to the same feed subscribes without copying or JavaScript.
    expect(html).toMatch(
      new RegExp(
        `<a href="${feedUrl!.replace("http:", "webcal:").replaceAll(".", "\\.")}"[^>]*>Add to my calendar app</a>`,
      ),
    );
    return { b, feedUrl: feedUrl!, path: new URL(feedUrl!).pathname };
  }

  it("lists only its owner's rides as driver and confirmed rider, without a cookie, and stores only a hash", async () => {
    const { driver, rider, pending, ride } = await world();
    // The rider also drives one ride of their own, has a cancelled ride and a past one; someone else's ride exists too.
    const own = await createRide(
      { db: db() },
      {
        driverId: rider.id,
        fromLocation: "Whitefield",
        toLocation: "Koramangala",
        date: addDays(istDate(), 5),
        time: "18:15",
      },
    );
    const cancelled = await createRide(
      { db: db() },
      { driverId: rider.id, fromLocation: "Indiranagar", toLocation: "Koramangala", status: "cancelled" },
    );
    const longAgo = await createRide(
      { db: db() },
      { driverId: rider.id, fromLocation: "Jayanagar", toLocation: "Koramangala", date: addDays(istDate(), -30) },
    );
    const others = await createRide(
      { db: db() },
      { driverId: driver.id, fromLocation: "Hebbal", toLocation: "Koramangala" },
    );
    await createRideRequest({ db: db() }, { rideId: others.id, riderId: pending.id, status: "accepted" });

    const { path } = await makeFeed(rider.cookie);
    const token = path.split("/")[2];
    const stored = await env.DB.prepare("SELECT token_hash FROM calendar_feeds WHERE user_id = ?")
      .bind(rider.id)
      .first<string>("token_hash");
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toBe(token);
    const dump = JSON.stringify(await env.DB.prepare("SELECT * FROM calendar_feeds").all());
    expect(dump).not.toContain(token);

    // Calendar apps send no cookie.
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/calendar; charset=utf-8");
    const { events, calendar } = parseIcs(await res.text());
    expect(calendar).toContain("X-WR-CALNAME:LoopRide rides");
    expect(events.map((e) => e.UID)).toEqual([`ride-${ride.id}@loopride`, `ride-${own.id}@loopride`]);
    expect(events[1].DTSTART).toBe(icsUtc(istToInstant(addDays(istDate(), 5), "18:15")));
    for (const id of [cancelled.id, longAgo.id, others.id]) expect(events.some((e) => e.UID.includes(id))).toBe(false);
  });

  it("revoking makes the URL answer 404; a new URL replaces the old one", async () => {
    const { rider } = await world();
    const first = await makeFeed(rider.cookie);
    const second = await makeFeed(rider.cookie);
    expect(second.path).not.toBe(first.path);
    expect((await get(first.path)).status).toBe(404);
    expect((await get(second.path)).status).toBe(200);
    const res = await second.b.post("/calendar-feed", { intent: "revoke-feed" });
    expect(toastOf(res)?.title).toBe("Calendar feed turned off");
    expect(res.headers.getSetCookie().some((c) => c.startsWith("lr_calfeed=;"))).toBe(true);
    const gone = await get(second.path);
    expect(gone.status).toBe(404);
    expect(await gone.text()).toBe("Calendar feed not found");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM calendar_feeds").first<number>("n")).toBe(0);
    const html = await (await second.b.get("/dashboard/settings")).text();
    expect(html).toContain("You have no calendar feed.");
  });

  it("the settings page shows the URL only with the show-once cookie, and only while it is the current token", async () => {
    const { rider, driver } = await world();
    const { feedUrl, path } = await makeFeed(rider.cookie);
    // Another device (no cookie): the feed is on, the URL is not shown.
    const html = await (await get("/dashboard/settings", { cookie: rider.cookie })).text();
    expect(html).toContain('data-testid="calendar-feed-on"');
    expect(html).not.toContain(feedUrl);
    expect(html).not.toContain(path.split("/")[2]);
    // Someone else's token in their own cookie shows nothing of it on their page.
    const d = new Browser();
    d.cookies.set("lr_session", driver.cookie.split("=")[1]);
    const driverHtml = await (await d.get("/dashboard/settings")).text();
    expect(driverHtml).toContain("You have no calendar feed.");
  });

  it("malformed and unknown tokens are 404; unknown intents 400; visitors sign in", async () => {
    const { rider } = await world();
    for (const token of ["abc", "0".repeat(64), "g".repeat(64), "%2e%2e"])
      expect((await get(`/calendar/${token}/rides.ics`)).status).toBe(404);
    const before = await tableCounts();
    expect((await postForm("/calendar-feed", { intent: "share-feed" }, { cookie: rider.cookie })).status).toBe(400);
    const visitor = await postForm("/calendar-feed", { intent: "create-feed" });
    expect(visitor.headers.get("Location")).toMatch(/^\/login/);
    expect(await tableCounts()).toEqual(before);
  });

  it("concurrent 'make a new URL' leaves exactly one feed, and only the last stored token works", async () => {
    const { rider } = await world();
    const results = await Promise.all(
      Array.from({ length: 5 }, () => postForm("/calendar-feed", { intent: "create-feed" }, { cookie: rider.cookie })),
    );
    const tokens = results.map((r) => {
      const c = r.headers.getSetCookie().find((s) => s.startsWith("lr_calfeed="))!;
      return JSON.parse(atob(decodeURIComponent(c.split(";")[0].split("=")[1]).split(".")[0])) as string;
    });
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM calendar_feeds WHERE user_id = ?")
        .bind(rider.id)
        .first<number>("n"),
    ).toBe(1);
    const statuses = await Promise.all(tokens.map(async (t) => (await get(`/calendar/${t}/rides.ics`)).status));
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 404)).toHaveLength(4);
  });
});

// Issue 34, finding 11: a bare CR in a driver's name began a property of its own in riders'
// calendars (calendar apps break lines at CR too; the ics library escapes only LF and CRLF).
describe("control characters in names and places", () => {
  /** Every property line of a calendar, broken at CR and LF alike, as a lenient reader would. */
  const propertyNames = (ics: string) =>
    ics
      .replace(/\r\n[ \t]/g, "")
      .split(/\r\n|\r|\n/)
      .filter(Boolean)
      .map((l) => l.split(/[:;]/)[0]);

  it("a CR or LF stored in a name or place (before the rule, or by another path) adds no property to the feed or the download", async () => {
    const { driver, rider, ride } = await world();
    await env.DB.prepare("UPDATE user_profiles SET full_name = ? WHERE user_id = ?")
      .bind("Deepa\rX-INJECTED-NAME:1\u2028ATTENDEE:x", driver.id)
      .run();
    await env.DB.prepare("UPDATE rides SET from_location = ? WHERE id = ?")
      .bind("HSR\rX-INJECTED-PLACE:1\nLOCATION:elsewhere", ride.id)
      .run();
    const b = new Browser();
    b.cookies.set("lr_session", rider.cookie.split("=")[1]);
    await b.post("/calendar-feed", { intent: "create-feed" });
    const html = await (await b.get("/dashboard/settings")).text();
    const feed = new URL(/value="(http:\/\/localhost\/calendar\/[0-9a-f]{64}\/rides\.ics)"/.exec(html)![1]).pathname;
    for (const res of [await get(feed), await get(`/rides/${ride.id}/calendar.ics`, { cookie: rider.cookie })]) {
      expect(res.status).toBe(200);
      const text = await res.text();
      const names = propertyNames(text);
      expect(names.filter((n) => n.startsWith("X-INJECTED"))).toEqual([]);
      expect(names.filter((n) => n === "LOCATION")).toHaveLength(1);
      expect(names).not.toContain("ATTENDEE");
      const [event] = parseIcs(text).events;
      expect(event.DESCRIPTION).toContain("Driver: Deepa X-INJECTED-NAME:1 ATTENDEE:x.");
      expect(event.LOCATION).toBe("HSR X-INJECTED-PLACE:1 LOCATION:elsewhere");
    }
  });

  it("a name with a CR is refused by the profile and sign-up forms with a message, and nothing changes", async () => {
    const user = await signedInUser({ fullName: "Asha Rao" });
    const before = await tableCounts();
    for (const fullName of ["Asha\rX-INJECTED:1", "Asha\nRao", "Asha\tRao", "Asha\u2028Rao"]) {
      const res = await postForm("/dashboard/profile", { fullName }, { cookie: user.cookie });
      expect(res.status, JSON.stringify(fullName)).toBe(400);
      expect(await res.text()).toContain(LINE_INVALID);
    }
    const signup = await postForm("/signup", {
      fullName: "Mallory\rX-INJECTED:1",
      identifier: "mallory@example.test",
      password: "a long enough passphrase",
    });
    expect(signup.status).toBe(400);
    expect(await signup.text()).toContain(LINE_INVALID);
    // (Rendering the profile page may create the user's referral code; that is the page, not the form.)
    const { user_referral_codes: _a, ...after } = await tableCounts();
    const { user_referral_codes: _b, ...was } = before;
    expect(after).toEqual(was);
    const row = await env.DB.prepare("SELECT full_name FROM user_profiles WHERE user_id = ?")
      .bind(user.id)
      .first<{ full_name: string }>();
    expect(row?.full_name).toBe("Asha Rao");
    // A bio is several lines and keeps them.
    expect(
      (
        await postForm(
          "/dashboard/profile",
          { fullName: "Asha Rao", bio: "Line one\r\nLine two" },
          { cookie: user.cookie },
        )
      ).status,
    ).toBe(302);
  });
});
