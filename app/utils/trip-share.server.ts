import { appCookie } from "./cookies.server";
import type { AppEnv } from "./env.server";

/**
 * A share link's token right after it was made: only its hash is stored, so the ride page
 * can show the link only while this signed, HttpOnly, 30-minute cookie lasts.
 */
export function tripShareCookie(request: Request, env: AppEnv) {
  return appCookie<{ shareId: string; token: string }>(request, env, { name: "lr_tripshare", maxAge: 1800 });
}

/** The site's address as links in messages use it (APP_ORIGIN when set, like the root's). */
export const siteOrigin = (request: Request, env: AppEnv) =>
  (env.APP_ORIGIN || new URL(request.url).origin).replace(/\/+$/, "");

export const tripShareUrl = (origin: string, token: string) => `${origin}/trip/${token}`;
