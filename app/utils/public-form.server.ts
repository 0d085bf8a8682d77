import { data, type AppLoadContext } from "@remix-run/cloudflare";
import { HONEYPOT_FIELD } from "../components/honeypot";
import { hitRateLimit, identifierLimitKey } from "../models/rate-limits.server";
import { authRateLimit, requireSecret, type AppEnv } from "./env.server";

export function clientAddress(request: Request): string {
  return (
    request.headers.get("CF-Connecting-IP") ??
    request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim() ??
    "unknown"
  );
}

/**
 * A keyed hash of the client address (HMAC-SHA-256 under SESSION_SECRET, domain-separated),
 * kept with a new account so referrals between accounts made from one address can be
 * refused without storing the address itself.
 */
export async function signupAddressHash(request: Request, env: AppEnv): Promise<string | null> {
  if (clientAddress(request) === "unknown") return null;
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(requireSecret(env, "SESSION_SECRET")),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign(
    "HMAC",
    key,
    new TextEncoder().encode(`signup-address:${clientAddress(request)}`),
  );
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("");
}

export { authRateLimit } from "./env.server";

export const RATE_LIMIT_MESSAGE = "Too many attempts. Please wait a minute and try again.";

/**
 * Guards a public form: throws a 429 once the client address has used up its attempts
 * for this form in the current minute. Returns true when the honeypot was filled (the
 * caller then pretends success and stores nothing).
 */
export async function guardPublicForm(
  request: Request,
  context: Pick<AppLoadContext, "db" | "env">,
  formData: FormData,
  bucket: string,
): Promise<{ isBot: boolean }> {
  const key = await identifierLimitKey(context.env, bucket, clientAddress(request));
  const { allowed } = await hitRateLimit(context, key, authRateLimit(context.env));
  if (!allowed) throw data(RATE_LIMIT_MESSAGE, { status: 429 });
  const trap = formData.get(HONEYPOT_FIELD);
  return { isBot: typeof trap === "string" && trap.length > 0 };
}
