import { requireSecret, type AppEnv } from "../../utils/env.server";

// Signed, self-contained tokens for links in e-mails that need no database row: the
// unsubscribe link (no expiry: an old e-mail's link must keep working) and the e-mail
// verification link (7 days, bound to the address it was sent to, so a link sent before an
// address change verifies nothing). HMAC-SHA-256 under SESSION_SECRET, domain-separated.
// Password reset links are NOT these: they are single use, so they live hashed in D1.

export type MailTokenPurpose = "unsubscribe" | "verify-email";
type Claims = { p: MailTokenPurpose; u: string; e?: string; x?: number };

const enc = new TextEncoder();

function b64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromB64url(s: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return null;
  try {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

async function key(env: AppEnv) {
  return crypto.subtle.importKey(
    "raw",
    enc.encode(`mail-token:${requireSecret(env, "SESSION_SECRET")}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
}

export async function signMailToken(env: AppEnv, claims: Claims): Promise<string> {
  const body = b64url(enc.encode(JSON.stringify(claims)));
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await key(env), enc.encode(body)));
  return `${body}.${b64url(mac)}`;
}

/** The claims of a genuine, unexpired token for `purpose`; null for anything else. */
export async function readMailToken(
  env: AppEnv,
  token: string | null | undefined,
  purpose: MailTokenPurpose,
  now = Date.now(),
): Promise<Claims | null> {
  if (typeof token !== "string" || token.length > 1000) return null;
  const [body, mac, extra] = token.split(".");
  if (!body || !mac || extra !== undefined) return null;
  const macBytes = fromB64url(mac);
  const bodyBytes = fromB64url(body);
  if (!macBytes || !bodyBytes) return null;
  if (!(await crypto.subtle.verify("HMAC", await key(env), macBytes, enc.encode(body)))) return null;
  let claims: Claims;
  try {
    claims = JSON.parse(new TextDecoder().decode(bodyBytes));
  } catch {
    return null;
  }
  if (claims?.p !== purpose || typeof claims.u !== "string") return null;
  if (claims.x !== undefined && !(typeof claims.x === "number" && claims.x > now)) return null;
  return claims;
}

export const VERIFY_EMAIL_TTL_MS = 7 * 24 * 60 * 60 * 1000;
