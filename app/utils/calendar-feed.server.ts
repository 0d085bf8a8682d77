import type { AppEnv } from "./env.server";
import { appCookie } from "./cookies.server";

/**
 * The feed URL's token right after it was made: only its hash is stored, so the settings
 * page can show the URL only while this signed, HttpOnly, 10-minute cookie lasts.
 */
export function calendarFeedCookie(request: Request, env: AppEnv) {
  return appCookie<string>(request, env, { name: "lr_calfeed", maxAge: 600 });
}

export function calendarFeedUrl(origin: string, token: string): string {
  return `${origin}/calendar/${token}/rides.ics`;
}
