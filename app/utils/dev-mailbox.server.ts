import type { AppEnv } from "./env.server";
/** The development mailbox exists only with DEV_MAILBOX=1 (npm start, browser journeys): a 404 otherwise. */
export function requireDevMailbox(env: AppEnv): void {
  if (env.DEV_MAILBOX !== "1")
    throw new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain" } });
}
