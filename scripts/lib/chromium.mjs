// The Chromium builds the browser tests launch, and the flags they share.
import { existsSync } from "node:fs";

const ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The full browser (Debian's `chromium`), for what only it has, such as notification permissions. */
export const FULL_CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * Chromium's headless shell (Debian's `chromium-headless-shell`): the same Blink, V8 and network
 * stack without the full browser around them. The journeys spend most of their CPU in the
 * browser, and on 2 cores the shell cut the Playwright stage from 12.2 to 7.7 minutes (ADR 0032).
 * Without it installed, the full browser runs everything.
 */
export const HEADLESS_SHELL = process.env.CHROMIUM_HEADLESS_SHELL_PATH ?? "/usr/lib/chromium/chromium-headless-shell";

export function launchOptions({ full = false } = {}) {
  const executablePath = !full && existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_CHROMIUM;
  return { executablePath, args: ARGS };
}
