// Issue 17's "rows read exactly flat": which statements of a page read more rows on the large
// dataset than on the small one. The server logs each request's statements with their rows
// when DEBUG_TIMING=statements (app/utils/d1-stats.server.ts, logStatementRows).

/** The prefix of that log line; the same constant as STATEMENT_ROWS_LOG in d1-stats.server.ts. */
export const STATEMENT_ROWS_LOG = "d1-statement-rows";

/**
 * The statements that read more rows on the large dataset, most grown first. Statements are
 * paired by SQL text and occurrence (a page that runs the same SQL twice pairs first with
 * first); a statement only one side ran counts as 0 rows on the other.
 */
export function rowsGrowthByStatement(small, large) {
  const keyed = (list) => {
    const seen = new Map();
    return new Map(
      (list ?? []).map((s) => {
        const n = (seen.get(s.sql) ?? 0) + 1;
        seen.set(s.sql, n);
        return [`${n}:${s.sql}`, s];
      }),
    );
  };
  const [a, b] = [keyed(small), keyed(large)];
  const grown = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    const [s, l] = [a.get(key), b.get(key)];
    const smallRows = s?.rowsRead ?? 0;
    const largeRows = l?.rowsRead ?? 0;
    if (largeRows > smallRows)
      grown.push({
        sql: (l ?? s).sql,
        smallRows,
        largeRows,
        smallReturned: s?.returned ?? 0,
        largeReturned: l?.returned ?? 0,
      });
  }
  return grown.sort((x, y) => y.largeRows - y.smallRows - (x.largeRows - x.smallRows));
}

/** A statement by the tables it reads, in order of first mention ("rides, user_profiles, …"). */
export function statementLabel(sql) {
  const tables = [];
  for (const m of sql.matchAll(/\b(?:from|join)\s+"?([a-z_]+)"?/gi)) if (!tables.includes(m[1])) tables.push(m[1]);
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? "?";
  return `${verb} ${tables.join(", ")}`;
}

/** Markdown: per page whose rows grew, its top `top` statements (rows and rows returned, small → large). */
export function rowsGrowthTable(pages, top = 3) {
  const lines = [
    "| Page | statement (tables it reads) | rows read small → large | rows returned small → large |",
    "|---|---|---|---|",
  ];
  for (const p of pages) {
    for (const g of (p.rowsGrowthBy ?? []).slice(0, top)) {
      lines.push(
        `| ${p.name} | ${statementLabel(g.sql)} | ${g.smallRows} → ${g.largeRows} | ${g.smallReturned} → ${g.largeReturned} |`,
      );
    }
  }
  return lines.length > 2 ? lines.join("\n") : "No statement read more rows on the large dataset.";
}
