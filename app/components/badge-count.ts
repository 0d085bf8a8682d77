// Badge counts are capped on the server (app/models/badges.server.ts, BADGE_CAP = 99).
export const badgeText = (n: number) => (n > 99 ? "99+" : String(n));
