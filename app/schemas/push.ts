import { z } from "zod";

/** Bytes of a base64url (or base64) string, or null when it is not one. */
export function base64UrlBytes(value: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(value) && !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return null;
  try {
    const b64 = value.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "");
    const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

const INVALID = "This browser's push subscription is not valid. Please try again.";

/**
 * A browser's PushSubscription as the settings page posts it (RFC 8030 / 8291): an https
 * endpoint, the P-256 public key as an uncompressed point (65 bytes, 0x04 first) and the
 * 16-byte auth secret. Which push services are accepted is checked in the model.
 */
export const pushSubscriptionFields = {
  endpoint: z
    .string({ required_error: INVALID })
    .trim()
    .max(1024, INVALID)
    .refine((v) => {
      try {
        const u = new URL(v);
        return u.protocol === "https:" && !u.username && !u.password;
      } catch {
        return false;
      }
    }, INVALID),
  p256dh: z
    .string({ required_error: INVALID })
    .trim()
    .max(200, INVALID)
    .refine((v) => {
      const b = base64UrlBytes(v);
      return b !== null && b.length === 65 && b[0] === 0x04;
    }, INVALID),
  auth: z
    .string({ required_error: INVALID })
    .trim()
    .max(64, INVALID)
    .refine((v) => base64UrlBytes(v)?.length === 16, INVALID),
};

export const pushActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("subscribe"), ...pushSubscriptionFields }),
  z.object({ intent: z.literal("unsubscribe"), endpoint: pushSubscriptionFields.endpoint }),
]);

export const calendarFeedActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create-feed") }),
  z.object({ intent: z.literal("revoke-feed") }),
]);
