import { createCookieSessionStorage, type AppLoadContext, type SessionStorage } from "@remix-run/cloudflare";
import { Authenticator, AuthorizationError } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { GoogleStrategy } from "remix-auth-google";
import { findPasswordCredential, type GoogleIdentity, type PendingGoogleLink } from "../models/accounts.server";
import { CREDENTIALS_INVALID, parseIdentifier } from "../schemas/auth";
import { appCookie, remixCookie } from "./cookies.server";
import { requireSecret, type AppEnv } from "./env.server";
import { hashPassword, verifyPassword } from "./password.server";

export type AuthResult = { via: "password"; userId: string } | { via: "google"; identity: GoogleIdentity };

type Ctx = Pick<AppLoadContext, "db" | "env">;

export function googleConfigured(env: AppEnv): boolean {
  return Boolean(env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET);
}

// A hash of a random password, so a sign-in for an unknown account costs the same time.
let dummyHash: Promise<string> | null = null;

/**
 * remix-auth with two strategies. Its session storage here only carries the OAuth
 * state between the redirect to Google and the callback; the signed-in session itself
 * is a D1 row (auth.server.ts).
 */
export function getAuthenticator(request: Request, context: Ctx) {
  const base = createCookieSessionStorage({
    cookie: remixCookie(request, context.env, { name: "lr_oauth", maxAge: 600 }),
  });
  // As everywhere (cookies.server.ts): an unreadable lr_oauth cookie is no cookie, else
  // every Google sign-in would fail until it expired.
  const storage: SessionStorage = {
    ...base,
    getSession: (header, options) => base.getSession(header, options).catch(() => base.getSession(null, options)),
  };
  const authenticator = new Authenticator<AuthResult>(storage);
  const pepper = requireSecret(context.env, "PASSWORD_PEPPER");

  authenticator.use(
    new FormStrategy(async ({ form }) => {
      const identifier = parseIdentifier(String(form.get("identifier") ?? ""));
      const password = String(form.get("password") ?? "");
      const credential = identifier ? await findPasswordCredential(context, identifier) : null;
      if (!credential) {
        dummyHash ??= hashPassword(crypto.randomUUID(), pepper);
        await verifyPassword(password, await dummyHash, pepper);
        throw new AuthorizationError(CREDENTIALS_INVALID);
      }
      if (!(await verifyPassword(password, credential.hash, pepper))) throw new AuthorizationError(CREDENTIALS_INVALID);
      return { via: "password", userId: credential.userId };
    }),
    "form",
  );

  if (googleConfigured(context.env)) {
    authenticator.use(
      new GoogleStrategy(
        {
          clientID: context.env.GOOGLE_CLIENT_ID!,
          clientSecret: context.env.GOOGLE_CLIENT_SECRET!,
          callbackURL: new URL("/auth/callback", request.url).toString(),
          prompt: "select_account",
        },
        async ({ profile }) => ({
          via: "google",
          identity: {
            sub: profile.id ?? profile._json.sub,
            email: profile._json.email ?? null,
            emailVerified: profile._json.email_verified === true,
            name: profile._json.name ?? profile.displayName ?? null,
            picture: profile._json.picture ?? null,
          },
        }),
      ),
      "google",
    );
  }
  return { authenticator, clearOAuthCookie: async () => storage.destroySession(await storage.getSession()) };
}

export { AuthorizationError };

// Small cookies that survive the Google round trip: the referral code from /signup?ref=
// and the page to return to after sign-in.
// Unsigned: they only carry hints that are checked again when used.
export const referralCookie = (request: Request) =>
  appCookie<string>(request, null, { name: "lr_ref", maxAge: 30 * 24 * 3600, signed: false });
export const returnToCookie = (request: Request) =>
  appCookie<string>(request, null, { name: "lr_return", maxAge: 600, signed: false });

/**
 * A Google identity waiting to be linked (issue 19, finding 10): set by the callback when
 * an account with the same but unverified e-mail exists; a password sign-in within ten
 * minutes links it. Signed, so only our callback can have written it; the expiry is inside
 * the signed value too, as a cookie's Max-Age is only the browser's promise.
 */
export const GOOGLE_LINK_TTL_MS = 10 * 60_000;
export const googleLinkCookie = (request: Request, env: AppEnv) =>
  appCookie<PendingGoogleLink & { exp: number }>(request, env, {
    name: "lr_google_link",
    maxAge: GOOGLE_LINK_TTL_MS / 1000,
  });

export async function readPendingGoogleLink(
  request: Request,
  env: AppEnv,
  now = Date.now(),
): Promise<PendingGoogleLink | null> {
  const value = await googleLinkCookie(request, env).parse(request);
  if (
    !value ||
    typeof value !== "object" ||
    typeof value.sub !== "string" ||
    typeof value.email !== "string" ||
    typeof value.exp !== "number"
  )
    return null;
  return value.exp > now ? { sub: value.sub, email: value.email } : null;
}
