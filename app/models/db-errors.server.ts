/**
 * Whether a D1/drizzle error (or any error in its cause chain) is a UNIQUE constraint
 * failure: the database telling us a guarded row already exists.
 */
export function isUniqueViolation(e: unknown): boolean {
  for (let cur: unknown = e, i = 0; cur && i < 5; cur = (cur as { cause?: unknown }).cause, i++) {
    if (cur instanceof Error && /UNIQUE constraint failed/i.test(cur.message)) return true;
  }
  return false;
}
