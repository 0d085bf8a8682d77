export type RatingSummary = { average: number; count: number };

/** '4.5 ★ (12)' or 'New' when nobody has rated the person yet. */
export function formatRating(summary: RatingSummary | undefined | null): string {
  return summary && summary.count > 0 ? `${summary.average.toFixed(1)} ★ (${summary.count})` : "New";
}
