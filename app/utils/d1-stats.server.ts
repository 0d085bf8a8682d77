// Per-request D1 accounting for the benchmark and the budget tests: how many round
// trips a request makes and how many rows D1 reports reading. `first()` and `raw()`
// (drizzle uses raw() for every non-batched select) do not return D1's meta, so with
// instrumentation on they run the statement a second time through `all()` only to read
// its meta (counted as one query). That doubles the work of those reads: measure
// latency with DEBUG_TIMING off and counts with it on.
export type D1Stats = {
  queries: number;
  statements: number;
  rowsRead: number;
  rowsWritten: number;
  rowsReturned: number;
  waitMs: number;
  /** Per statement, only when asked for (DEBUG_TIMING=statements): which statement read the rows. */
  perStatement?: StatementRows[];
};
export type StatementRows = { sql: string; rowsRead: number; returned: number };

/** The last statements run with instrumentation on (SQL and bound values), newest last:
 * the EXPLAIN QUERY PLAN test replays what real pages ran. Bounded, debug-only. */
export type QueryRecord = { sql: string; params: unknown[] };
export const recordedQueries: QueryRecord[] = [];
function record(sql: string, params: unknown[]) {
  recordedQueries.push({ sql, params });
  if (recordedQueries.length > 2000) recordedQueries.splice(0, recordedQueries.length - 2000);
}

export function newD1Stats({ perStatement = false } = {}): D1Stats {
  return {
    queries: 0,
    statements: 0,
    rowsRead: 0,
    rowsWritten: 0,
    rowsReturned: 0,
    waitMs: 0,
    ...(perStatement ? { perStatement: [] } : {}),
  };
}

type Meta = { rows_read?: number; rows_written?: number } | undefined;

function addMeta(stats: D1Stats, meta: Meta, returned: number, sql: string) {
  stats.perStatement?.push({ sql, rowsRead: meta?.rows_read ?? 0, returned });
  stats.rowsRead += meta?.rows_read ?? 0;
  stats.rowsWritten += meta?.rows_written ?? 0;
  stats.rowsReturned += returned;
}

const ORIGINAL = Symbol("original statement");
const RECORD = Symbol("statement record");

// Only pure reads may be run twice; a write's rows-read stays unmeasured.
const isPureRead = (query: string) =>
  /^\s*(select|with)\b/i.test(query) && !/\b(insert|update|delete|replace)\b/i.test(query);

function wrapStatement(
  stmt: D1PreparedStatement,
  stats: D1Stats,
  query: string,
  params: unknown[] = [],
): D1PreparedStatement {
  const measure = async (returned: number) =>
    addMeta(stats, isPureRead(query) ? ((await stmt.all()).meta as Meta) : undefined, returned, query);
  const wrapped = {
    [ORIGINAL]: stmt,
    [RECORD]: { sql: query, params },
    bind: (...values: unknown[]) => wrapStatement(stmt.bind(...values), stats, query, values),
    async first(column?: string) {
      stats.queries++;
      stats.statements++;
      record(query, params);
      const t0 = performance.now();
      const row = await (column === undefined ? stmt.first() : stmt.first(column));
      stats.waitMs += performance.now() - t0;
      await measure(row === null ? 0 : 1);
      return row;
    },
    async all() {
      stats.queries++;
      stats.statements++;
      record(query, params);
      const t0 = performance.now();
      const result = await stmt.all();
      stats.waitMs += performance.now() - t0;
      addMeta(stats, result.meta as Meta, result.results.length, query);
      return result;
    },
    async run() {
      stats.queries++;
      stats.statements++;
      record(query, params);
      const t0 = performance.now();
      const result = await stmt.run();
      stats.waitMs += performance.now() - t0;
      addMeta(stats, result.meta as Meta, result.results?.length ?? 0, query);
      return result;
    },
    async raw(options?: { columnNames?: boolean }) {
      stats.queries++;
      stats.statements++;
      record(query, params);
      const t0 = performance.now();
      const rows = (await stmt.raw(options as { columnNames: true })) as unknown[];
      stats.waitMs += performance.now() - t0;
      await measure(rows.length - (options?.columnNames ? 1 : 0));
      return rows;
    },
  };
  return wrapped as unknown as D1PreparedStatement;
}

/** A D1Database that records into `stats`; everything else passes through. */
export function instrumentD1<T extends D1Database | D1DatabaseSession>(d1: T, stats: D1Stats): T {
  return new Proxy(d1, {
    get(target, prop, receiver) {
      if (prop === "prepare") return (query: string) => wrapStatement(target.prepare(query), stats, query);
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          type Wrapped = { [ORIGINAL]?: D1PreparedStatement; [RECORD]?: QueryRecord };
          const originals = statements.map((s) => (s as unknown as Wrapped)[ORIGINAL] ?? s);
          for (const s of statements) {
            const r = (s as unknown as Wrapped)[RECORD];
            if (r) record(r.sql, r.params);
          }
          stats.queries++;
          stats.statements += originals.length;
          const t0 = performance.now();
          const results = await target.batch(originals);
          stats.waitMs += performance.now() - t0;
          results.forEach((r, i) =>
            addMeta(
              stats,
              r.meta as Meta,
              r.results?.length ?? 0,
              (statements[i] as unknown as Wrapped)[RECORD]?.sql ?? "",
            ),
          );
          return results;
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** `d1` (round trips, rows; dur = time spent waiting on D1) and `total` (the whole request). */
export function serverTimingValue(stats: D1Stats, totalMs?: number): string {
  const d1 = `d1;dur=${stats.waitMs.toFixed(1)};desc="queries=${stats.queries} statements=${stats.statements} rows_read=${stats.rowsRead} rows_written=${stats.rowsWritten} rows_returned=${stats.rowsReturned}"`;
  return totalMs === undefined ? d1 : `${d1}, total;dur=${totalMs.toFixed(1)}`;
}

/** The prefix of the line `logStatementRows` writes, which the bench reads from the server's output. */
export const STATEMENT_ROWS_LOG = "d1-statement-rows";

/**
 * The log line: the request's path and each statement's SQL (no bound values: session ids are
 * bound) with its rows. Link tokens in the query string (a password reset's, an unsubscribe's)
 * are blanked, so a debug log never holds a working link.
 */
export function statementRowsLine(request: Request, rows: StatementRows[]): string {
  const url = new URL(request.url);
  const secret = [...url.searchParams.keys()].filter((k) => /token|code|secret|key/i.test(k));
  for (const k of secret) url.searchParams.set(k, "redacted");
  const statements = rows.map((r) => ({ ...r, sql: r.sql.replace(/\s+/g, " ").trim() }));
  return `${STATEMENT_ROWS_LOG} ${JSON.stringify({ path: url.pathname + url.search, statements })}`;
}

export function logStatementRows(request: Request, rows: StatementRows[]) {
  console.log(statementRowsLine(request, rows));
}
