import { avg, count, inArray } from "drizzle-orm";
import { rideRatings } from "../../db/schema";
import type { RatingSummary } from "../domain/rating";
import { type ModelCtx } from "./context.server";

/** Real average star rating per user (one indexed, grouped read); users without ratings are absent. */
export async function ratingSummaries({ db }: ModelCtx, userIds: string[]): Promise<Record<string, RatingSummary>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return {};
  const rows = await db
    .select({ userId: rideRatings.rateeId, average: avg(rideRatings.stars), n: count() })
    .from(rideRatings)
    .where(inArray(rideRatings.rateeId, ids))
    .groupBy(rideRatings.rateeId);
  return Object.fromEntries(
    rows.map((r) => [r.userId, { average: Math.round(Number(r.average) * 10) / 10, count: r.n }]),
  );
}
