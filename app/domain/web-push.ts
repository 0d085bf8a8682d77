// Web Push in WebCrypto only: the body encrypted for one browser (RFC 8291, aes128gcm of
// RFC 8188) and the VAPID authorisation (RFC 8292). Ours rather than a library's: the one we
// used declares Node >= 22 for code that runs in workerd, and its older release sends the
// obsolete "aesgcm" encoding (ADR 0043). Every browser's push service accepts this one.

export type VapidKeys = {
  /** The uncompressed P-256 point (65 bytes), base64url, as given to PushManager.subscribe. */
  publicKey: string;
  /** The private scalar d (32 bytes), base64url. */
  privateKey: string;
  /** A mailto: or https: contact for the push service's operators. */
  subject: string;
};

export type PushTarget = { endpoint: string; keys: { p256dh: string; auth: string } };

export type PushOptions = { ttl: number; urgency?: "very-low" | "low" | "normal" | "high" };

// RFC 8188 record size. A push service need accept only 4096 bytes in all, so the header
// (salt 16, record size 4, key id length 1, key id 65) shares them with the one record, whose
// GCM tag (16) and delimiter (1) leave the rest for the message.
const RECORD_SIZE = 4096;
const HEADER_SIZE = 16 + 4 + 1 + 65;
export const MAX_PUSH_PLAINTEXT = RECORD_SIZE - HEADER_SIZE - 17;

const utf8 = (s: string) => new TextEncoder().encode(s);

export function base64UrlToBytes(s: string): Uint8Array<ArrayBuffer> {
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
}

export function bytesToBase64Url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function concat(...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

async function hkdf(salt: Uint8Array<ArrayBuffer>, ikm: Uint8Array<ArrayBuffer>, info: Uint8Array, bytes: number) {
  const key = await crypto.subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt, info: info as Uint8Array<ArrayBuffer> },
    key,
    bytes * 8,
  );
  return new Uint8Array(bits);
}

/** RFC 8291 §3: one record, padded to the full size so the length tells an observer nothing. */
export async function encryptPushBody(target: PushTarget, plaintext: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  if (plaintext.length > MAX_PUSH_PLAINTEXT) {
    throw new Error(`push message is ${plaintext.length} bytes, at most ${MAX_PUSH_PLAINTEXT} fit`);
  }
  const clientPublic = base64UrlToBytes(target.keys.p256dh);
  const authSecret = base64UrlToBytes(target.keys.auth);
  if (clientPublic.length !== 65 || clientPublic[0] !== 4) throw new Error("p256dh is not an uncompressed P-256 key");
  if (authSecret.length !== 16) throw new Error("the auth secret is not 16 bytes");

  const clientKey = await crypto.subtle.importKey(
    "raw",
    clientPublic,
    { name: "ECDH", namedCurve: "P-256" },
    false,
    [],
  );
  const local = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
    "deriveBits",
  ])) as CryptoKeyPair;
  const localPublic = new Uint8Array((await crypto.subtle.exportKey("raw", local.publicKey)) as ArrayBuffer);
  const ecdh = new Uint8Array(
    await crypto.subtle.deriveBits({ name: "ECDH", public: clientKey }, local.privateKey, 256),
  );
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const ikm = await hkdf(authSecret, ecdh, concat(utf8("WebPush: info\0"), clientPublic, localPublic), 32);
  const cek = await hkdf(salt, ikm, utf8("Content-Encoding: aes128gcm\0"), 16);
  const nonce = await hkdf(salt, ikm, utf8("Content-Encoding: nonce\0"), 12);

  // The last (only) record ends with the delimiter 0x02; zeroes after it are padding.
  const padded = new Uint8Array(MAX_PUSH_PLAINTEXT + 1);
  padded.set(plaintext);
  padded[plaintext.length] = 2;
  const key = await crypto.subtle.importKey("raw", cek, "AES-GCM", false, ["encrypt"]);
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv: nonce }, key, padded));
  const header = new Uint8Array(HEADER_SIZE);
  header.set(salt);
  new DataView(header.buffer).setUint32(16, RECORD_SIZE);
  header[20] = localPublic.length;
  header.set(localPublic, 21);
  return concat(header, sealed);
}

/** RFC 8292 §2-3: an ES256 JWT for the push service's origin, valid 12 hours. */
export async function vapidAuthorization(endpoint: string, vapid: VapidKeys, now = Date.now()): Promise<string> {
  const point = base64UrlToBytes(vapid.publicKey);
  if (point.length !== 65 || point[0] !== 4) throw new Error("VAPID_PUBLIC_KEY is not an uncompressed P-256 key");
  const signingKey = await crypto.subtle.importKey(
    "jwk",
    {
      kty: "EC",
      crv: "P-256",
      x: bytesToBase64Url(point.slice(1, 33)),
      y: bytesToBase64Url(point.slice(33, 65)),
      d: vapid.privateKey,
    },
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["sign"],
  );
  const seconds = Math.floor(now / 1000);
  const part = (o: object) => bytesToBase64Url(utf8(JSON.stringify(o)));
  const claims = { aud: new URL(endpoint).origin, exp: seconds + 12 * 60 * 60, sub: vapid.subject };
  const unsigned = `${part({ typ: "JWT", alg: "ES256" })}.${part(claims)}`;
  // WebCrypto's ECDSA signature is already JWS's raw r||s form.
  const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, signingKey, utf8(unsigned));
  return `vapid t=${unsigned}.${bytesToBase64Url(new Uint8Array(signature))}, k=${vapid.publicKey}`;
}

/** The POST to a subscription's endpoint that delivers `data` (as JSON) to that browser. */
export async function webPushRequest(
  target: PushTarget,
  data: unknown,
  vapid: VapidKeys,
  options: PushOptions,
): Promise<RequestInit> {
  if (new URL(target.endpoint).protocol !== "https:") throw new Error("push endpoints are https (RFC 8030)");
  const body = await encryptPushBody(target, utf8(JSON.stringify(data)));
  return {
    method: "POST",
    headers: {
      authorization: await vapidAuthorization(target.endpoint, vapid),
      "content-encoding": "aes128gcm",
      "content-type": "application/octet-stream",
      ttl: String(options.ttl),
      ...(options.urgency ? { urgency: options.urgency } : {}),
    },
    body,
  };
}
