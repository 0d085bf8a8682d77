export type RatingSummary = { average: number; count: number };

/** '4.5 ★ (12)' or 'New' when nobody has rated the person yet. */
export function formatRating(summary: RatingSummary | undefined | null): string {
  return summary && summary.count > 0 ? `${summary.average.toFixed(1)} ★ (${summary.count})` : "New";
}

/** A rating summary from a profile's totals (user_profiles.rating_count and rating_stars). */
export function ratingFromTotals(count: number | null | undefined, stars: number | null | undefined): RatingSummary {
  const n = count ?? 0;
  return { average: n > 0 ? Math.round(((stars ?? 0) / n) * 10) / 10 : 0, count: n };
}
