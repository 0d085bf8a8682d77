import { env } from "./env";
import { CHECKS, USER_TEXT_COLUMNS } from "./invariant-sql";

// Whole-database invariants that no sequence of requests may break, whatever the input
// (the checks themselves are in invariant-sql.ts). Used by the fuzzer after every action
// (and usable by any other test).

/**
 * A character no stored text should contain: C0 controls other than tab/newline/CR, and
 * unpaired surrogates. (U+FFFD is legitimate input: it is what a browser sends for a lone
 * surrogate in a form.)
 */
// eslint-disable-next-line no-control-regex
const BAD_CHAR =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Every violated invariant, each with (up to 3 of) the offending rows. Empty when the database is sound. */
export async function invariantViolations(): Promise<string[]> {
  const out: string[] = [];
  const results = await env.DB.batch(CHECKS.map((c) => env.DB.prepare(c.sql)));
  results.forEach((r, i) => {
    if (r.results.length > 0) out.push(`${CHECKS[i].name}: ${JSON.stringify(r.results.slice(0, 3))}`);
  });
  // User-written text: within the form's limit, trimmed, no control characters or broken surrogates.
  for (const { table, column, max, nullable, key } of USER_TEXT_COLUMNS) {
    const rows = await env.DB.prepare(`SELECT ${key} AS k, ${column} AS v FROM ${table}`).all<{
      k: string;
      v: string | null;
    }>();
    for (const { k, v } of rows.results) {
      const problem =
        v === null
          ? nullable
            ? null
            : "is NULL"
          : typeof v !== "string"
            ? `is a ${typeof v}`
            : v.length > max
              ? `is ${v.length} long (max ${max})`
              : v.trim() === ""
                ? "is blank"
                : BAD_CHAR.test(v)
                  ? `contains a control character or broken surrogate: ${JSON.stringify(v.slice(0, 80))}`
                  : null;
      if (problem) out.push(`${table}.${column} of ${k} ${problem}`);
    }
  }
  return out;
}
