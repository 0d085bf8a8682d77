// Issue 15, item 1: the outbox and e-mail. The outbox row is written in the same transaction as
// the change; the sender retries with back-off and never sends twice; settings and verification
// are respected; every notification e-mail carries a working one-click unsubscribe; the
// development mailbox exists only with DEV_MAILBOX=1.
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { addMember, createCommunity } from "../../db/factories";
import { decideRequest } from "~/models/ride-requests.server";
import { backoffMs } from "~/models/outbox/queue.server";
import { deliverOutbox } from "~/models/outbox/deliver.server";
import { sinkTransport, TransportError, type MailTransport, type OutgoingMail } from "~/models/outbox/transport.server";
import { createRide, createRideRequest, createUser } from "../support/rides";
import { BASE, db, get, postForm, signedInUser } from "../support/worker";
import { workerFetch } from "../support/worker-fetch";
import { createDb } from "~/models/db.server";
import { instrumentD1, newD1Stats } from "~/utils/d1-stats.server";

const verified = { emailVerifiedAt: Date.now() - 86_400_000 };

type SinkRow = {
  id: string;
  idempotency_key: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: string;
};

async function sinkFor(email: string): Promise<SinkRow[]> {
  const r = await env.DB.prepare("SELECT * FROM mail_sink WHERE to_address = ? ORDER BY created_at")
    .bind(email.toLowerCase())
    .all<SinkRow>();
  return r.results;
}

async function outboxFor(userId: string) {
  const r = await env.DB.prepare(
    "SELECT channel, kind, status, attempts, next_attempt_at, last_error FROM outbox WHERE user_id = ? ORDER BY channel",
  )
    .bind(userId)
    .all<{
      channel: string;
      kind: string;
      status: string;
      attempts: number;
      next_attempt_at: number;
      last_error: string | null;
    }>();
  return r.results;
}

/** The first link in an e-mail's text part that starts with `prefix` (path relative to BASE). */
function linkIn(text: string, prefix: string): string {
  const m = text.match(new RegExp(`${BASE.replace(/[.:/]/g, "\\$&")}${prefix.replace(/[?]/g, "\\?")}[^\\s]*`));
  if (!m) throw new Error(`no ${prefix} link in:\n${text}`);
  return m[0].slice(BASE.length);
}

async function driverRiderRide(driverOpts = {}) {
  const driver = await signedInUser({ fullName: "Priya Sharma", ...verified, ...driverOpts });
  const rider = await signedInUser({ fullName: "Rahul <b>Verma</b>", ...verified });
  const ride = await createRide(
    { db: db() },
    {
      driverId: driver.id,
      fromLocation: "HSR Layout",
      toLocation: "Manyata Tech Park",
      tripCostPaise: 45000,
      seats: 3,
    },
  );
  return { driver, rider, ride };
}

describe("the outbox", () => {
  it("a ride request e-mails the driver: queued with the request, sent right after, with a working link", async () => {
    const { driver, rider, ride } = await driverRiderRide();
    const res = await postForm(
      `/rides/${ride.id}/book`,
      { seats: "2", notes: "Near the gate" },
      { cookie: rider.cookie },
    );
    expect(res.status).toBe(302);
    // The request's notification queued one row per channel; e-mail was sent in waitUntil.
    expect((await outboxFor(driver.id)).map((r) => [r.channel, r.kind, r.status])).toEqual([
      ["email", "notification", "sent"],
      ["push", "notification", "skipped"],
    ]);
    const [mail, ...more] = await sinkFor(driver.email!);
    expect(more).toEqual([]);
    expect(mail.subject).toBe("New ride request: HSR Layout → Manyata Tech Park");
    expect(mail.text_body).toContain("Hello Priya,");
    expect(mail.text_body).toContain("requested 2 seats on your ride from HSR Layout to Manyata Tech Park");
    expect(mail.text_body).toMatch(/Departs: [A-Z][a-z]{2} \d{1,2}, \d{4} at 8:30 AM IST/);
    expect(mail.text_body).toContain("Seat price: ₹150.00");
    // A rider's name is text in both parts, never markup.
    expect(mail.html_body).toContain("Rahul &lt;b&gt;Verma&lt;/b&gt;");
    expect(mail.html_body).not.toContain("<b>Verma</b>");
    const headers = JSON.parse(mail.headers);
    expect(headers["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(headers["List-Unsubscribe"]).toMatch(/^<http:\/\/localhost\/unsubscribe\?token=[\w.-]+>$/);
    // The link opens the ride for the driver.
    const link = linkIn(mail.text_body, `/rides/${ride.id}`);
    const page = await get(link, { cookie: driver.cookie });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Manyata Tech Park");
  });

  it("an injected failure in the change's batch leaves neither the change nor its outbox rows", async () => {
    const { driver, rider, ride } = await driverRiderRide();
    const req = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id });
    // The last statement of the accept batch (booked_seats) fails.
    await env.DB.prepare(
      "CREATE TRIGGER inject_failure BEFORE UPDATE OF booked_seats ON rides BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    ).run();
    await expect(decideRequest({ db: db() }, driver.id, req.id, "accepted")).rejects.toThrow(/injected failure/);
    await env.DB.prepare("DROP TRIGGER inject_failure").run();
    const status = await env.DB.prepare("SELECT status FROM ride_requests WHERE id = ?")
      .bind(req.id)
      .first<{ status: string }>();
    expect(status?.status).toBe("pending");
    expect(
      await env.DB.prepare("SELECT count(*) AS n FROM notifications WHERE user_id = ?")
        .bind(rider.id)
        .first<{ n: number }>(),
    ).toEqual({ n: 0 });
    expect(await outboxFor(rider.id)).toEqual([]);
    // Without the failure the same change writes both.
    await decideRequest({ db: db() }, driver.id, req.id, "accepted");
    expect((await outboxFor(rider.id)).map((r) => r.channel)).toEqual(["email", "push"]);
  });

  it("a transport failure is retried with back-off, and a lost answer never makes a second e-mail", async () => {
    const { driver, rider, ride } = await driverRiderRide();
    const req = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id });
    const t0 = Date.now();
    await decideRequest({ db: db() }, driver.id, req.id, "accepted", t0);
    const sink = sinkTransport(db());
    let calls = 0;
    const down: MailTransport = {
      name: "down",
      send: async () => {
        calls++;
        throw new TransportError("503 from provider");
      },
    };
    expect(await deliverOutbox({ db: db(), env }, { now: t0, transport: down, push: null })).toMatchObject({
      sent: 0,
      retried: 1,
    });
    let [email] = await outboxFor(rider.id);
    expect(email).toMatchObject({
      status: "pending",
      attempts: 1,
      next_attempt_at: t0 + backoffMs(1),
      last_error: "503 from provider",
    });
    // Not due yet: nothing is tried.
    expect(await deliverOutbox({ db: db(), env }, { now: t0 + 1000, transport: down, push: null })).toMatchObject({
      sent: 0,
      retried: 0,
    });
    expect(calls).toBe(1);
    // Second attempt: the provider accepted the message but the answer was lost.
    const lostAnswer: MailTransport = {
      name: "lost",
      send: async (m) => {
        await sink.send(m);
        throw new TransportError("connection reset");
      },
    };
    await deliverOutbox({ db: db(), env }, { now: t0 + backoffMs(1), transport: lostAnswer, push: null });
    [email] = await outboxFor(rider.id);
    expect(email).toMatchObject({ status: "pending", attempts: 2, next_attempt_at: t0 + backoffMs(1) + backoffMs(2) });
    expect(backoffMs(2)).toBeGreaterThan(backoffMs(1));
    // Third attempt succeeds: the same key, so the sink (like Resend's Idempotency-Key) keeps one.
    await deliverOutbox({ db: db(), env }, { now: t0 + backoffMs(1) + backoffMs(2), transport: sink, push: null });
    [email] = await outboxFor(rider.id);
    expect(email).toMatchObject({ status: "sent", attempts: 3 });
    const mails = await sinkFor(rider.email!);
    expect(mails.map((m) => m.subject)).toEqual(["Request accepted: HSR Layout → Manyata Tech Park"]);
    expect(mails[0].text_body).toContain("Your seats: 1 (₹150.00 in all)");
    // A sent row is never sent again.
    expect(await deliverOutbox({ db: db(), env }, { now: t0 + 86_400_000, transport: sink, push: null })).toMatchObject(
      { sent: 0 },
    );
  });

  it("gives up after the last attempt, and a permanent refusal is not retried", async () => {
    const { driver, rider, ride } = await driverRiderRide();
    const req = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id });
    const t0 = Date.now();
    await decideRequest({ db: db() }, driver.id, req.id, "rejected", t0);
    const refused: MailTransport = {
      name: "refused",
      send: async () => {
        throw new TransportError("422: invalid recipient", true);
      },
    };
    await deliverOutbox({ db: db(), env }, { now: t0, transport: refused, push: null });
    const [email] = await outboxFor(rider.id);
    expect(email).toMatchObject({ status: "skipped", attempts: 1 });
    expect(email.last_error).toContain("422");
  });

  it("concurrent senders deliver each row exactly once", async () => {
    const { driver, ride } = await driverRiderRide();
    const riders = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createUser({ db: db() }, { fullName: `Rider ${i}`, ...verified })),
    );
    const t0 = Date.now();
    for (const r of riders) {
      const req = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: r.id });
      await decideRequest({ db: db() }, driver.id, req.id, "rejected", t0);
    }
    const sent: OutgoingMail[] = [];
    const counting: MailTransport = {
      name: "counting",
      send: async (m) => {
        sent.push(m);
      },
    };
    await Promise.all(
      Array.from({ length: 5 }, () =>
        deliverOutbox({ db: db(), env }, { now: t0, transport: counting, push: null, limit: 3 }),
      ),
    );
    await deliverOutbox({ db: db(), env }, { now: t0, transport: counting, push: null });
    expect(sent.map((m) => m.to).sort()).toEqual(riders.map((r) => r.email!.toLowerCase()).sort());
    expect(new Set(sent.map((m) => m.key)).size).toBe(sent.length);
  });

  it("respects email_notifications and e-mail verification", async () => {
    const { driver, ride } = await driverRiderRide();
    const off = await createUser({ db: db() }, { ...verified, settings: { emailNotifications: false } });
    const unverified = await createUser({ db: db() });
    const on = await createUser({ db: db() }, verified);
    const t0 = Date.now();
    for (const r of [off, unverified, on]) {
      const req = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: r.id });
      await decideRequest({ db: db() }, driver.id, req.id, "rejected", t0);
    }
    await deliverOutbox({ db: db(), env }, { now: t0, push: null });
    expect((await outboxFor(off.id))[0]).toMatchObject({
      status: "skipped",
      last_error: "e-mail notifications are off",
    });
    expect((await outboxFor(unverified.id))[0]).toMatchObject({
      status: "skipped",
      last_error: "e-mail address not verified",
    });
    expect((await outboxFor(on.id))[0]).toMatchObject({ status: "sent" });
    expect(await sinkFor(off.email!)).toEqual([]);
    expect(await sinkFor(unverified.email!)).toEqual([]);
    expect((await sinkFor(on.email!)).length).toBe(1);
  });

  it("a cancelled ride e-mails its riders, and a community decision e-mails the member", async () => {
    const { driver, rider, ride } = await driverRiderRide();
    await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id, status: "accepted" });
    const res = await postForm(
      `/rides/${ride.id}`,
      { intent: "cancel-ride", rideId: ride.id, reason: "Car trouble" },
      { cookie: driver.cookie },
    );
    expect(res.status).toBe(302);
    const [cancelled] = await sinkFor(rider.email!);
    expect(cancelled.subject).toBe("Ride cancelled: HSR Layout → Manyata Tech Park");
    expect(cancelled.text_body).toContain("Reason: Car trouble");

    const moderator = await signedInUser(verified);
    const member = await createUser({ db: db() }, verified);
    const community = await createCommunity({ db: db() }, { createdBy: moderator.id, name: "Koramangala <Commuters>" });
    const m = await addMember({ db: db() }, { communityId: community.id, userId: member.id, status: "pending" });
    expect(
      (
        await postForm(
          `/communities/${community.id}`,
          { intent: "approve", memberId: m.id },
          { cookie: moderator.cookie },
        )
      ).status,
    ).toBe(302);
    const [approved] = await sinkFor(member.email!);
    expect(approved.subject).toBe("Request Approved");
    expect(approved.text_body).toContain("Your request to join Koramangala <Commuters> has been approved.");
    expect(approved.html_body).toContain("Koramangala &lt;Commuters&gt;");
    expect(linkIn(approved.text_body, "/communities/")).toBe(`/communities/${community.id}`);
  });

  it("a backlog of notifications older than a day is skipped as too old, a batch in two round trips, and nothing is e-mailed; a fresh one still goes", async () => {
    const { driver, rider, ride } = await driverRiderRide();
    const now = Date.now();
    const dayAgo = now - 2 * 86_400_000;
    // 30 rows an outage left behind, for a person who would get them if they were fresh.
    const insert = env.DB.prepare(
      "INSERT INTO outbox (id, channel, user_id, kind, idempotency_key, payload, status, attempts, next_attempt_at, created_at) VALUES (?, 'email', ?, 'notification', ?, ?, 'pending', 0, ?, ?)",
    );
    const payload = JSON.stringify({
      notification_id: "n-old",
      type: "ride_request",
      title: "New ride request",
      message: "Someone asked for a seat.",
      data: { ride_id: ride.id },
    });
    await env.DB.batch(
      Array.from({ length: 30 }, (_, i) =>
        insert.bind(
          `old-${i}-${driver.id}`,
          driver.id,
          `notification:old-${i}:${driver.id}`,
          payload,
          dayAgo + i,
          dayAgo + i,
        ),
      ),
    );
    const stats = newD1Stats();
    const report = await deliverOutbox({ db: createDb(instrumentD1(env.DB, stats)), env }, { now, push: null });
    expect(report).toEqual({ sent: 0, skipped: 25, retried: 0 });
    // The claim and one statement for the 25: no person read, no e-mail rendered.
    expect(stats.queries).toBe(2);
    expect(await deliverOutbox({ db: db(), env }, { now, push: null })).toEqual({ sent: 0, skipped: 5, retried: 0 });
    const rows = await env.DB.prepare("SELECT status, last_error FROM outbox WHERE user_id = ? AND id LIKE 'old-%'")
      .bind(driver.id)
      .all<{ status: string; last_error: string }>();
    expect(rows.results).toHaveLength(30);
    expect(rows.results.every((r) => r.status === "skipped" && r.last_error === "too old")).toBe(true);
    expect(await sinkFor(driver.email!)).toEqual([]);
    // A request today is still e-mailed (sent right after the change, in waitUntil).
    expect((await postForm(`/rides/${ride.id}/book`, { seats: "1", notes: "" }, { cookie: rider.cookie })).status).toBe(
      302,
    );
    expect((await sinkFor(driver.email!)).map((m) => m.subject)).toHaveLength(1);
  });

  it("chat messages are not e-mailed", async () => {
    const a = await signedInUser(verified);
    const b = await createUser({ db: db() }, verified);
    await env.DB.prepare(
      "INSERT INTO notifications (id, user_id, type, title, message, data, read, created_at) VALUES ('n1', ?, 'message', 'New message', 'Hi', '{}', 0, ?)",
    )
      .bind(b.id, Date.now())
      .run();
    expect(await outboxFor(b.id)).toEqual([]);
    expect(a.id).toBeTruthy();
  });
});

describe("one-click unsubscribe", () => {
  async function unsubscribeLink() {
    const { driver, rider, ride } = await driverRiderRide();
    await postForm(`/rides/${ride.id}/book`, { seats: "1", notes: "" }, { cookie: rider.cookie });
    const [mail] = await sinkFor(driver.email!);
    return { driver, link: linkIn(mail.text_body, "/unsubscribe?token=") };
  }
  const emailSetting = async (userId: string) =>
    (
      await env.DB.prepare("SELECT email_notifications AS on_ FROM user_settings WHERE user_id = ?")
        .bind(userId)
        .first<{ on_: number }>()
    )?.on_;

  it("the link's page works without JavaScript: a GET changes nothing, the button turns the setting off", async () => {
    const { driver, link } = await unsubscribeLink();
    const page = await get(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Turn off e-mail notifications");
    expect(await emailSetting(driver.id)).toBe(1);
    const token = new URL(link, BASE).searchParams.get("token")!;
    const res = await postForm(link, { token });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toContain("done=1");
    expect(await emailSetting(driver.id)).toBe(0);
  });

  it("RFC 8058 one-click POST from a mail app (no cookies, no Origin) turns it off", async () => {
    const { driver, link } = await unsubscribeLink();
    const res = await workerFetch(
      new Request(`${BASE}${link}`, {
        method: "POST",
        body: "List-Unsubscribe=One-Click",
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
      }),
    );
    expect(res.status).toBe(200);
    expect(await emailSetting(driver.id)).toBe(0);
  });

  it("a forged or altered token changes nothing", async () => {
    const { driver, link } = await unsubscribeLink();
    const token = new URL(link, BASE).searchParams.get("token")!;
    const [body, mac] = token.split(".");
    const other = btoa(JSON.stringify({ p: "unsubscribe", u: "someone-else" })).replace(/=+$/, "");
    for (const bad of [`${other}.${mac}`, `${body}.${mac.slice(0, -2)}AA`, "garbage", ""]) {
      const res = await postForm(`/unsubscribe?token=${encodeURIComponent(bad)}`, { token: bad });
      expect(res.status).toBe(400);
    }
    expect(await emailSetting(driver.id)).toBe(1);
  });
});

describe("the development mailbox", () => {
  it("is a 404 unless DEV_MAILBOX=1", async () => {
    for (const path of ["/dev/mailbox", "/dev/mailbox/x", "/dev/mailbox/x/html"]) {
      expect((await get(path)).status).toBe(404);
    }
  });

  it("with DEV_MAILBOX=1 lists the messages and shows their text, links and HTML part", async () => {
    const { driver, rider, ride } = await driverRiderRide();
    await postForm(`/rides/${ride.id}/book`, { seats: "1", notes: "" }, { cookie: rider.cookie });
    const devEnv = { ...env, DEV_MAILBOX: "1" };
    const list = await workerFetch(new Request(`${BASE}/dev/mailbox`), devEnv);
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(html).toContain("New ride request: HSR Layout → Manyata Tech Park");
    const [mail] = await sinkFor(driver.email!);
    const one = await workerFetch(new Request(`${BASE}/dev/mailbox/${mail.id}`), devEnv);
    const page = await one.text();
    expect(page).toContain(`href="http://localhost/rides/${ride.id}"`);
    expect(page).toContain("List-Unsubscribe-Post");
    const part = await workerFetch(new Request(`${BASE}/dev/mailbox/${mail.id}/html`), devEnv);
    expect(part.headers.get("Content-Type")).toContain("text/html");
    expect(await part.text()).toContain("Rahul &lt;b&gt;Verma&lt;/b&gt;");
    expect((await workerFetch(new Request(`${BASE}/dev/mailbox/nope`), devEnv)).status).toBe(404);
  });

  // Issue 34, finding 13: the global headers replaced the HTML part's sandbox policy with the
  // site's, under which the e-mail's HTML ran same-origin with the app.
  it("the HTML part keeps its own sandbox policy under the site's headers", async () => {
    const { driver, rider, ride } = await driverRiderRide();
    await postForm(`/rides/${ride.id}/book`, { seats: "1", notes: "" }, { cookie: rider.cookie });
    const [mail] = await sinkFor(driver.email!);
    const part = await workerFetch(new Request(`${BASE}/dev/mailbox/${mail.id}/html`), { ...env, DEV_MAILBOX: "1" });
    const policies = part.headers
      .get("Content-Security-Policy")!
      .split(",")
      .map((p) => p.trim());
    expect(policies[0]).toMatch(/^sandbox allow-popups allow-top-navigation-by-user-activation; default-src 'none';/);
    // The site's policy is enforced beside it (a browser applies every policy it is sent).
    expect(policies[1]).toContain("frame-ancestors 'none'");
    expect(part.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });
});
