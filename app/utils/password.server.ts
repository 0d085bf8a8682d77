// PBKDF2-SHA256 through WebCrypto. Deployed Workers refuse more than 100,000 iterations
// (local workerd does not), so the count is pinned here and by a test. The parameters
// travel inside the stored string so the count can change without a migration. A
// server-side pepper (HMAC key) means a stolen database alone is not enough to guess.
export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const KEY_BITS = 256;

const enc = new TextEncoder();
const toB64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromB64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

async function pepperedKeyMaterial(password: string, pepper: string) {
  const hmacKey = await crypto.subtle.importKey("raw", enc.encode(pepper), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const peppered = await crypto.subtle.sign("HMAC", hmacKey, enc.encode(password));
  return crypto.subtle.importKey("raw", peppered, "PBKDF2", false, ["deriveBits"]);
}

async function derive(password: string, pepper: string, salt: Uint8Array, iterations: number) {
  const key = await pepperedKeyMaterial(password, pepper);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
    key,
    KEY_BITS,
  );
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, pepper: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, pepper, salt, PBKDF2_ITERATIONS);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${toB64(salt)}$${toB64(hash)}`;
}

export function iterationsOf(stored: string): number {
  return Number(stored.split("$")[1]);
}

export async function verifyPassword(password: string, stored: string, pepper: string): Promise<boolean> {
  const [scheme, iter, saltB64, hashB64] = stored.split("$");
  const iterations = Number(iter);
  if (scheme !== "pbkdf2-sha256" || !Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS)
    return false;
  const expected = fromB64(hashB64);
  const actual = await derive(password, pepper, fromB64(saltB64), iterations);
  if (actual.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < actual.length; i++) diff |= actual[i] ^ expected[i];
  return diff === 0;
}
