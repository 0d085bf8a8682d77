import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Cursor } from "../domain/cursor";

/**
 * Rows after `cursor` in the order (at DESC, id DESC) ("older"), or (at ASC, id ASC) ("newer");
 * no condition without a cursor. The plain `at <=` / `at >=` bound is what lets SQLite
 * range-seek the (…, at) index; the OR only settles the ties inside it (ADR 0025).
 */
export function afterCursor(
  at: SQLWrapper,
  id: SQLWrapper,
  cursor: Cursor | null,
  direction: "older" | "newer" = "older",
): SQL | undefined {
  if (!cursor) return undefined;
  return direction === "older"
    ? sql`(${at} <= ${cursor.at} AND (${at} < ${cursor.at} OR ${id} < ${cursor.id}))`
    : sql`(${at} >= ${cursor.at} AND (${at} > ${cursor.at} OR ${id} > ${cursor.id}))`;
}
