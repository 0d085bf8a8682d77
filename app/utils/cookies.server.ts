import { createCookie } from "@remix-run/cloudflare";
import { isSecureRequest, requireSecret, type AppEnv } from "./env.server";

/**
 * The one cookie factory: every cookie LoopRide sets is HttpOnly, SameSite=Lax, path "/",
 * Secure over https, and (unless it only carries a hint such as a referral code) signed
 * with SESSION_SECRET.
 *
 * `parse` never throws. A browser, proxy or attacker can send any bytes as a cookie value:
 * Remix's signed-cookie parser throws on a value that is not base64 (`lr_session=%`,
 * `a%zz`), which used to be a 500 on every page. An unreadable cookie is no cookie.
 * `present` says whether the request carried the cookie at all, so a caller that sends a
 * response can clear one it could not read (`clear`).
 */
export type AppCookie<T> = {
  name: string;
  parse(request: Request): Promise<T | null>;
  present(request: Request): boolean;
  serialize(value: T): Promise<string>;
  clear(): Promise<string>;
};

type CookieSpec = { name: string; maxAge: number; signed?: boolean };

/** The Remix cookie itself, for APIs that want one (remix-auth's session storage). */
export function remixCookie(request: Request, env: AppEnv | null, { name, maxAge, signed = true }: CookieSpec) {
  return createCookie(name, {
    httpOnly: true,
    sameSite: "lax",
    secure: isSecureRequest(request),
    path: "/",
    maxAge,
    ...(signed ? { secrets: [requireSecret(env ?? {}, "SESSION_SECRET")] } : {}),
  });
}

export function appCookie<T>(request: Request, env: AppEnv | null, spec: CookieSpec): AppCookie<T> {
  const { name } = spec;
  const cookie = remixCookie(request, env, spec);
  return {
    name,
    async parse(req) {
      try {
        return ((await cookie.parse(req.headers.get("Cookie"))) ?? null) as T | null;
      } catch {
        return null;
      }
    },
    present(req) {
      const header = req.headers.get("Cookie");
      if (!header) return false;
      return header.split(";").some((part) => part.trim().startsWith(`${name}=`));
    },
    serialize: (value) => cookie.serialize(value),
    clear: () => cookie.serialize("", { maxAge: 0 }),
  };
}
