/**
 * The badge's words from the badge column (`workplaceBadge` in app/models/work-email.server.ts):
 * the domain verified in the ride's community, "" when verified in another community (its domain
 * is not shown outside it), null for none. Kept here, not in app/domain/work-email.ts, so ride
 * pages do not ship the free-mail list.
 */
export function verifiedBadgeText(badge: string | null | undefined): string | null {
  if (badge === null || badge === undefined) return null;
  return badge ? `Verified ${badge}` : "Verified workplace";
}

/**
 * Issue 16: a member who proved a work e-mail address carries this badge ("Verified infosys.com"
 * in the community where they verified it, "Verified workplace" elsewhere). Never their address.
 */
export function VerifiedBadge({ badge }: { badge: string | null | undefined }) {
  const text = verifiedBadgeText(badge);
  if (!text) return null;
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100"
      data-testid="verified-badge"
    >
      <span aria-hidden="true">✓</span>
      {text}
    </span>
  );
}
