import { useSyncExternalStore } from "react";

export type Badges = { pendingRequests: number; unreadNotifications: number; unreadMessages: number };

// A badge frame carries the counts the fan-out just read from D1 (issue 39): the badges take
// them in place instead of re-reading them. Only a change of unread notifications still
// re-reads the page (the notifications panel is loader data a frame cannot rebuild). A new
// loader answer is a fresh read of D1, so it wins over an older frame. Kept small: this is in
// every signed-in page's initial JavaScript (130 KB budget).
let shown: { over: Badges; badges: Badges } | undefined;
const listeners = new Set<() => void>();

/** The badges shown for the loader's `over`: the last frame's while `over` is current. */
export const shownFor = (over: Badges): Badges => (shown?.over === over ? shown.badges : over);

/** Shows the frame's counts over `over` (the loader's); true when the page must still re-read. */
export function applyBadgeFrame(over: Badges, frame: Badges): boolean {
  const { pendingRequests, unreadNotifications, unreadMessages } = frame;
  const was = shownFor(over);
  shown = { over, badges: { pendingRequests, unreadNotifications, unreadMessages } };
  for (const l of listeners) l();
  return unreadNotifications !== was.unreadNotifications;
}

/** The badges to show (a hook: re-renders when a frame arrives). */
export function useLiveBadges(loaderBadges: Badges): Badges {
  useSyncExternalStore(
    (l) => (listeners.add(l), () => void listeners.delete(l)),
    () => shown,
    () => undefined,
  );
  return shownFor(loaderBadges);
}
