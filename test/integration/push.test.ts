import { env } from "../support/env";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRide, createRideRequest } from "../../db/factories";
import { deliverPush, MAX_PUSH_SUBSCRIPTIONS, PUSH_ENDPOINT_TAKEN, type PushCtx } from "~/models/push.server";
import { db, get, postForm, signedInUser, tableCounts } from "../support/worker";
import { toastOf } from "../support/rides";

// Web Push (issue 15, item 3). The push service is faked at the network edge: the worker's
// outbound fetch to the subscription endpoint is answered here, and the test DECRYPTS the
// payload with the browser's private key and auth secret (RFC 8291, aes128gcm), as a
// browser would, before checking what it says.

const HOST = "push.example.test"; // PUSH_ALLOWED_HOSTS in vitest.config.ts
const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const fromB64url = (s: string) =>
  Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4)), (c) =>
    c.charCodeAt(0),
  );

/** What a browser's PushManager.subscribe makes: an endpoint, a P-256 key pair and a 16-byte auth secret. */
async function browserSubscription(name: string = crypto.randomUUID()) {
  const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const publicRaw = new Uint8Array((await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer);
  const auth = crypto.getRandomValues(new Uint8Array(16));
  return {
    endpoint: `https://${HOST}/send/${name}`,
    p256dh: b64url(publicRaw),
    auth: b64url(auth),
    privateKey: pair.privateKey,
    publicRaw,
    authBytes: auth,
  };
}
type Browser = Awaited<ReturnType<typeof browserSubscription>>;

async function hkdf(salt: Uint8Array, ikm: Uint8Array, info: Uint8Array, bytes: number) {
  const key = await crypto.subtle.importKey("raw", ikm as BufferSource, "HKDF", false, ["deriveBits"]);
  return new Uint8Array(
    await crypto.subtle.deriveBits(
      { name: "HKDF", hash: "SHA-256", salt: salt as BufferSource, info: info as BufferSource },
      key,
      bytes * 8,
    ),
  );
}
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
};
const utf8 = (s: string) => new TextEncoder().encode(s);

/** RFC 8291 §3.4 / RFC 8188: decrypts an aes128gcm Web Push body with the browser's keys. */
async function decryptPush(body: Uint8Array, b: Browser): Promise<unknown> {
  const salt = body.slice(0, 16);
  const rs = new DataView(body.buffer, body.byteOffset + 16, 4).getUint32(0);
  const idlen = body[20];
  const serverPublic = body.slice(21, 21 + idlen);
  const ciphertext = body.slice(21 + idlen);
  expect(idlen).toBe(65);
  expect(ciphertext.length).toBeLessThanOrEqual(rs);
  const serverKey = await crypto.subtle.importKey(
    "raw",
    serverPublic,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const ecdh = new Uint8Array(await crypto.subtle.deriveBits({ name: "ECDH", public: serverKey }, b.privateKey, 256));
  const ikm = await hkdf(b.authBytes, ecdh, concat(utf8("WebPush: info\0"), b.publicRaw, serverPublic), 32);
  const cek = await hkdf(salt, ikm, utf8("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, utf8("Content-Encoding: nonce\0"), 12);
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["decrypt"]);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: nonce }, key, ciphertext));
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  expect(padded[end]).toBe(2);
  return JSON.parse(new TextDecoder().decode(padded.slice(0, end)));
}

type Delivery = { url: string; headers: Headers; body: Uint8Array };

/** The fake push service: records every POST to HOST and answers with `status`. */
function fakePushService(status: (url: string) => number = () => 201) {
  const deliveries: Delivery[] = [];
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = new Request(input, init);
    if (new URL(req.url).host !== HOST) return realFetch(input, init);
    deliveries.push({ url: req.url, headers: req.headers, body: new Uint8Array(await req.arrayBuffer()) });
    return new Response(null, { status: status(req.url) });
  });
  return deliveries;
}

afterEach(() => {
  vi.restoreAllMocks();
});

const subscribe = (cookie: string, b: Pick<Browser, "endpoint" | "p256dh" | "auth">) =>
  postForm(
    "/push-subscription",
    { intent: "subscribe", endpoint: b.endpoint, p256dh: b.p256dh, auth: b.auth },
    { cookie },
  );
const subscriptionsOf = async (userId: string) =>
  (
    await env.DB.prepare("SELECT endpoint FROM push_subscriptions WHERE user_id = ? ORDER BY endpoint")
      .bind(userId)
      .all<{ endpoint: string }>()
  ).results.map((r) => r.endpoint);
const ctx = (): PushCtx => ({ db: db(), env });

describe("push subscriptions", () => {
  it("a signed-in user stores this browser's subscription; the settings page knows it", async () => {
    const user = await signedInUser();
    const b = await browserSubscription();
    const res = await subscribe(user.cookie, b);
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/dashboard/settings");
    expect(toastOf(res)?.title).toBe("Push notifications are on for this browser");
    expect(await subscriptionsOf(user.id)).toEqual([b.endpoint]);
    const row = await env.DB.prepare("SELECT p256dh, auth FROM push_subscriptions WHERE user_id = ?")
      .bind(user.id)
      .first();
    expect(row).toEqual({ p256dh: b.p256dh, auth: b.auth });
    const html = await (await get("/dashboard/settings", { cookie: user.cookie })).text();
    expect(html).toContain(b.endpoint);
    expect(html).toContain(env.VAPID_PUBLIC_KEY);
    // Without JavaScript the page says honestly that push needs it.
    expect(html).toContain("Browser notifications need JavaScript in this browser");
  });

  it("refuses invalid subscriptions with a 400 and changes nothing", async () => {
    const user = await signedInUser();
    const b = await browserSubscription();
    const before = await tableCounts();
    const bad: Record<string, string>[] = [
      { endpoint: `http://${HOST}/send/x` }, // not https
      { endpoint: "not a url" },
      { endpoint: `https://user:pw@${HOST}/x` },
      { endpoint: `https://${HOST}/${"x".repeat(1100)}` },
      { p256dh: b64url(crypto.getRandomValues(new Uint8Array(64))) }, // not 65 bytes
      { p256dh: b64url(new Uint8Array(65)) }, // not an uncompressed point (0x04)
      { p256dh: "%%%not-base64%%%" },
      { auth: b64url(crypto.getRandomValues(new Uint8Array(12))) }, // not 16 bytes
      { auth: "" },
    ];
    for (const change of bad) {
      const res = await postForm(
        "/push-subscription",
        { intent: "subscribe", endpoint: b.endpoint, p256dh: b.p256dh, auth: b.auth, ...change },
        { cookie: user.cookie },
      );
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(await res.text()).toContain("not valid");
    }
    expect(
      (await postForm("/push-subscription", { intent: "subscribe-everyone" }, { cookie: user.cookie })).status,
    ).toBe(400);
    expect((await postForm("/push-subscription", {}, { cookie: user.cookie })).status).toBe(400);
    expect(await tableCounts()).toEqual(before);
  });

  it("accepts only known push services (the worker must not POST to any URL it is given)", async () => {
    const user = await signedInUser();
    const b = await browserSubscription();
    const before = await tableCounts();
    const res = await subscribe(user.cookie, { ...b, endpoint: "https://evil.example/collect" });
    expect(res.status).toBe(302);
    expect(toastOf(res)).toMatchObject({
      type: "error",
      title: "Push notifications could not be turned on",
      description: "This browser's push service is not supported. Please try another browser.",
    });
    expect(await tableCounts()).toEqual(before);
    // The real services are accepted.
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc",
      "https://updates.push.services.mozilla.com/wpush/v2/abc",
      "https://web.push.apple.com/abc",
      "https://wns2-par02p.notify.windows.com/w/?token=abc",
    ]) {
      expect(toastOf(await subscribe(user.cookie, { ...b, endpoint }))?.type, endpoint).toBeUndefined();
    }
    expect(await subscriptionsOf(user.id)).toHaveLength(4);
  });

  it("visitors are sent to sign in and nothing is stored", async () => {
    const b = await browserSubscription();
    const before = await tableCounts();
    const res = await postForm("/push-subscription", {
      intent: "subscribe",
      endpoint: b.endpoint,
      p256dh: b.p256dh,
      auth: b.auth,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toMatch(/^\/login/);
    expect(await tableCounts()).toEqual(before);
  });

  it("unsubscribe removes only the acting user's own subscription", async () => {
    const asha = await signedInUser();
    const bala = await signedInUser();
    const a = await browserSubscription();
    await subscribe(asha.cookie, a);
    // Bala cannot remove Asha's browser, even knowing its endpoint.
    const denied = await postForm(
      "/push-subscription",
      { intent: "unsubscribe", endpoint: a.endpoint },
      { cookie: bala.cookie },
    );
    expect(toastOf(denied)?.title).toBe("This browser was not subscribed");
    expect(await subscriptionsOf(asha.id)).toEqual([a.endpoint]);
    const res = await postForm(
      "/push-subscription",
      { intent: "unsubscribe", endpoint: a.endpoint },
      { cookie: asha.cookie },
    );
    expect(toastOf(res)?.title).toBe("Push notifications are off for this browser");
    expect(await subscriptionsOf(asha.id)).toEqual([]);
  });

  it("a browser has one row: the same account subscribing again updates its keys", async () => {
    const user = await signedInUser();
    const b = await browserSubscription();
    await subscribe(user.cookie, b);
    const renewed = { ...(await browserSubscription()), endpoint: b.endpoint };
    const res = await subscribe(user.cookie, renewed);
    expect(toastOf(res)?.title).toBe("Push notifications are on for this browser");
    const rows = await env.DB.prepare("SELECT user_id, p256dh, auth FROM push_subscriptions WHERE endpoint = ?")
      .bind(b.endpoint)
      .all();
    expect(rows.results).toEqual([{ user_id: user.id, p256dh: renewed.p256dh, auth: renewed.auth }]);
  });

  it("issue 34: another account that knows a browser's endpoint cannot take it over (concurrently neither)", async () => {
    const holder = await signedInUser();
    const b = await browserSubscription();
    await subscribe(holder.cookie, b);
    // Someone who learnt the endpoint subscribes it with keys of their own.
    const thief = await signedInUser();
    const theirs = { ...(await browserSubscription()), endpoint: b.endpoint };
    const res = await subscribe(thief.cookie, theirs);
    expect(res.status).toBe(302);
    expect(toastOf(res)).toMatchObject({
      title: "Push notifications could not be turned on",
      description: PUSH_ENDPOINT_TAKEN,
      type: "error",
    });
    const row = await env.DB.prepare("SELECT user_id, p256dh, auth FROM push_subscriptions WHERE endpoint = ?")
      .bind(b.endpoint)
      .first();
    expect(row).toEqual({ user_id: holder.id, p256dh: b.p256dh, auth: b.auth });
    expect(await subscriptionsOf(thief.id)).toEqual([]);
    // Racing for a fresh endpoint: exactly one account gets it, the others are told why.
    const people = await Promise.all([signedInUser(), signedInUser(), signedInUser(), signedInUser()]);
    const fresh = await browserSubscription();
    const results = await Promise.all(people.map((p) => subscribe(p.cookie, fresh)));
    const won = results.filter((r) => toastOf(r)?.title === "Push notifications are on for this browser");
    expect(won).toHaveLength(1);
    for (const r of results) if (!won.includes(r)) expect(toastOf(r)?.description).toBe(PUSH_ENDPOINT_TAKEN);
    const rows = await env.DB.prepare("SELECT user_id FROM push_subscriptions WHERE endpoint = ?")
      .bind(fresh.endpoint)
      .all<{ user_id: string }>();
    expect(rows.results).toHaveLength(1);
    expect(people.map((p) => p.id)).toContain(rows.results[0].user_id);
  });

  it(`keeps at most ${MAX_PUSH_SUBSCRIPTIONS} subscriptions per user, dropping the oldest`, async () => {
    const user = await signedInUser();
    const endpoints: string[] = [];
    for (let i = 0; i < MAX_PUSH_SUBSCRIPTIONS + 2; i++) {
      const b = await browserSubscription(`device-${String(i).padStart(2, "0")}`);
      endpoints.push(b.endpoint);
      await subscribe(user.cookie, b);
      await new Promise((r) => setTimeout(r, 2));
    }
    expect(await subscriptionsOf(user.id)).toEqual(endpoints.slice(2));
  });

  it("the database refuses a non-https endpoint and a second row for one endpoint", async () => {
    const u = await signedInUser();
    const insert = (id: string, endpoint: string) =>
      env.DB.prepare(
        "INSERT INTO push_subscriptions (id, user_id, endpoint, p256dh, auth, created_at) VALUES (?, ?, ?, 'k', 'a', 0)",
      )
        .bind(id, u.id, endpoint)
        .run();
    await expect(insert("p1", "http://x.example/1")).rejects.toThrow(/CHECK/);
    await insert("p2", "https://x.example/1");
    await expect(insert("p3", "https://x.example/1")).rejects.toThrow(/UNIQUE/);
  });
});

describe("push delivery", () => {
  async function acceptedRideFor(rider: { id: string; cookie: string }) {
    const driver = await signedInUser({ fullName: "Deepa Driver" });
    const ride = await createRide(
      { db: db() },
      { driverId: driver.id, fromLocation: "HSR Layout", toLocation: "Manyata Tech Park" },
    );
    const request = await createRideRequest({ db: db() }, { rideId: ride.id, riderId: rider.id });
    const res = await postForm(
      `/rides/${ride.id}`,
      { intent: "accept", requestId: request.id },
      { cookie: driver.cookie },
    );
    expect(res.status).toBe(302);
    return { driver, ride, request };
  }

  it("a driver's decision reaches the rider's subscribed browsers as an encrypted push that decrypts to the notification", async () => {
    const rider = await signedInUser({ fullName: "Ravi Rider" });
    const phone = await browserSubscription("phone");
    const laptop = await browserSubscription("laptop");
    await subscribe(rider.cookie, phone);
    await subscribe(rider.cookie, laptop);
    const deliveries = fakePushService();
    const { request } = await acceptedRideFor(rider);

    expect(deliveries.map((d) => d.url).sort()).toEqual([laptop.endpoint, phone.endpoint]);
    for (const d of deliveries) {
      const b = d.url === phone.endpoint ? phone : laptop;
      expect(d.headers.get("Content-Encoding")).toBe("aes128gcm");
      expect(Number(d.headers.get("TTL"))).toBeGreaterThan(0);
      // VAPID (RFC 8292): a JWT for this push service's origin, signed with our key.
      const auth = d.headers.get("Authorization")!;
      const m = /^vapid t=([^,]+), k=(.+)$/.exec(auth);
      expect(m?.[2]).toBe(env.VAPID_PUBLIC_KEY);
      const [h, p, sig] = m![1].split(".");
      expect(JSON.parse(new TextDecoder().decode(fromB64url(p)))).toMatchObject({
        aud: `https://${HOST}`,
        sub: env.VAPID_SUBJECT,
      });
      const vapidKey = await crypto.subtle.importKey(
        "raw",
        fromB64url(env.VAPID_PUBLIC_KEY!),
        { name: "ECDSA", namedCurve: "P-256" },
        false,
        ["verify"],
      );
      expect(
        await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, vapidKey, fromB64url(sig), utf8(`${h}.${p}`)),
      ).toBe(true);
      // The ciphertext does not contain the message in the clear.
      expect(new TextDecoder().decode(d.body)).not.toContain("accepted");
      const message = await decryptPush(d.body, b);
      expect(message).toMatchObject({ title: "Request accepted", url: `/booking-confirmation/${request.id}` });
      expect((message as { body: string }).body).toBe(
        "Deepa Driver accepted your request for HSR Layout → Manyata Tech Park.",
      );
    }
    // Nobody else subscribed: the driver (who acted) got nothing.
    expect(deliveries).toHaveLength(2);
  });

  it("a push decrypted with another browser's keys fails (the test's decryption really checks)", async () => {
    const rider = await signedInUser();
    const mine = await browserSubscription();
    const other = await browserSubscription();
    await subscribe(rider.cookie, mine);
    const deliveries = fakePushService();
    await acceptedRideFor(rider);
    expect(deliveries).toHaveLength(1);
    await expect(decryptPush(deliveries[0].body, other)).rejects.toThrow();
  });

  it("with push_notifications off nothing is sent", async () => {
    const rider = await signedInUser({ settings: { pushNotifications: false } });
    await subscribe(rider.cookie, await browserSubscription());
    const deliveries = fakePushService();
    await acceptedRideFor(rider);
    expect(deliveries).toEqual([]);
    const r = await deliverPush(ctx(), rider.id, { title: "t", body: "b", url: "/dashboard" });
    expect(r).toEqual({ skipped: "setting-off", sent: 0, removed: 0, failed: 0 });
    expect(deliveries).toEqual([]);
  });

  it("a 410 or 404 from the push service removes that subscription; other failures keep it", async () => {
    const user = await signedInUser();
    const gone = await browserSubscription("gone");
    const missing = await browserSubscription("missing");
    const flaky = await browserSubscription("flaky");
    const fine = await browserSubscription("fine");
    for (const b of [gone, missing, flaky, fine]) await subscribe(user.cookie, b);
    const deliveries = fakePushService((url) =>
      url.endsWith("/gone") ? 410 : url.endsWith("/missing") ? 404 : url.endsWith("/flaky") ? 503 : 201,
    );
    const r = await deliverPush(ctx(), user.id, {
      title: "Ride reminder",
      body: "Your ride leaves at 8:30 AM",
      url: "/dashboard/rides",
      tag: "t1",
    });
    expect(r).toEqual({ skipped: null, sent: 1, removed: 2, failed: 1 });
    expect(deliveries).toHaveLength(4);
    expect(await subscriptionsOf(user.id)).toEqual([fine.endpoint, flaky.endpoint]);
    expect(await decryptPush(deliveries.find((d) => d.url === fine.endpoint)!.body, fine)).toEqual({
      title: "Ride reminder",
      body: "Your ride leaves at 8:30 AM",
      url: "/dashboard/rides",
      tag: "t1",
    });
  });

  it("sends only to the user's own subscriptions, and never a link off the site", async () => {
    const user = await signedInUser();
    const other = await signedInUser();
    const mine = await browserSubscription();
    await subscribe(user.cookie, mine);
    await subscribe(other.cookie, await browserSubscription());
    const deliveries = fakePushService();
    await deliverPush(ctx(), user.id, { title: "t", body: "b", url: "https://evil.example/phish" });
    expect(deliveries.map((d) => d.url)).toEqual([mine.endpoint]);
    expect(await decryptPush(deliveries[0].body, mine)).toMatchObject({ url: "/dashboard" });
  });

  it("without VAPID keys nothing is sent and subscribing is refused with a message", async () => {
    const user = await signedInUser();
    const r = await deliverPush({ db: db(), env: { ...env, VAPID_PRIVATE_KEY: undefined } }, user.id, {
      title: "t",
      body: "b",
      url: "/",
    });
    expect(r.skipped).toBe("not-configured");
  });
});
