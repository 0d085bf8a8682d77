import { useSyncExternalStore } from "react";

export type Badges = { pendingRequests: number; unreadNotifications: number; unreadMessages: number };

/**
 * What a tab does with a badge frame (issue 39): the frame carries the counts the fan-out
 * just read from D1, so the badges take them in place instead of re-reading them through a
 * revalidation. Only a change of unread notifications still revalidates: the notifications
 * panel and the header count are loader data that the frame cannot rebuild.
 */
export function applyBadgeFrame(shown: Badges, frame: Badges): { badges: Badges; revalidate: boolean } {
  const badges = {
    pendingRequests: frame.pendingRequests,
    unreadNotifications: frame.unreadNotifications,
    unreadMessages: frame.unreadMessages,
  };
  return { badges, revalidate: frame.unreadNotifications !== shown.unreadNotifications };
}

// The newest frame's counts and the loader badges they replaced. A new loader answer (a
// navigation or revalidation) is a fresh read of D1, so it wins over an older frame.
type Override = { over: Badges; badges: Badges };
let override: Override | null = null;
const listeners = new Set<() => void>();

export function setLiveBadges(over: Badges, badges: Badges): void {
  override = { over, badges };
  for (const l of listeners) l();
}

/** The badges to show: the last frame's counts while the loader data they replaced is current. */
export function useLiveBadges(loaderBadges: Badges): Badges {
  const current = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => override,
    () => null,
  );
  return current && current.over === loaderBadges ? current.badges : loaderBadges;
}
