const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** A random, URL-safe id (16 characters, about 82 bits). */
export function newId(length = 16): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const b of bytes) out += ALPHABET[b % ALPHABET.length];
  return out;
}

/** A random token with at least `bits` of entropy, hex encoded (session ids). */
export function randomToken(bits = 256): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil(bits / 8)));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 hex of a token: what D1 keeps instead of a reset token or a calendar feed token. */
export async function sha256Hex(value: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value)));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}
