// Per-request D1 accounting for the benchmark and the budget tests: how many round
// trips a request makes and how many rows D1 reports reading. `first()` and `raw()` do
// not return D1's meta, so their rows cannot be measured; they are counted as
// `unmeasured` (rows returned are added to `rowsReturned` as a lower bound).
export type D1Stats = { queries: number; statements: number; rowsRead: number; rowsWritten: number; rowsReturned: number; unmeasured: number };

export function newD1Stats(): D1Stats {
  return { queries: 0, statements: 0, rowsRead: 0, rowsWritten: 0, rowsReturned: 0, unmeasured: 0 };
}

type Meta = { rows_read?: number; rows_written?: number } | undefined;

function addMeta(stats: D1Stats, meta: Meta, returned: number) {
  stats.rowsRead += meta?.rows_read ?? 0;
  stats.rowsWritten += meta?.rows_written ?? 0;
  stats.rowsReturned += returned;
}

const ORIGINAL = Symbol("original statement");

function wrapStatement(stmt: D1PreparedStatement, stats: D1Stats): D1PreparedStatement {
  const wrapped = {
    [ORIGINAL]: stmt,
    bind: (...values: unknown[]) => wrapStatement(stmt.bind(...values), stats),
    async first(column?: string) {
      stats.queries++;
      stats.statements++;
      stats.unmeasured++;
      const row = await (column === undefined ? stmt.first() : stmt.first(column));
      stats.rowsReturned += row === null ? 0 : 1;
      return row;
    },
    async all() {
      stats.queries++;
      stats.statements++;
      const result = await stmt.all();
      addMeta(stats, result.meta as Meta, result.results.length);
      return result;
    },
    async run() {
      stats.queries++;
      stats.statements++;
      const result = await stmt.run();
      addMeta(stats, result.meta as Meta, result.results?.length ?? 0);
      return result;
    },
    async raw(options?: { columnNames?: boolean }) {
      stats.queries++;
      stats.statements++;
      stats.unmeasured++;
      const rows = (await stmt.raw(options as { columnNames: true })) as unknown[];
      stats.rowsReturned += rows.length;
      return rows;
    },
  };
  return wrapped as unknown as D1PreparedStatement;
}

/** A D1Database that records into `stats`; everything else passes through. */
export function instrumentD1(d1: D1Database, stats: D1Stats): D1Database {
  return new Proxy(d1, {
    get(target, prop, receiver) {
      if (prop === "prepare") return (query: string) => wrapStatement(target.prepare(query), stats);
      if (prop === "batch") {
        return async (statements: D1PreparedStatement[]) => {
          const originals = statements.map((s) => (s as unknown as { [ORIGINAL]?: D1PreparedStatement })[ORIGINAL] ?? s);
          stats.queries++;
          stats.statements += originals.length;
          const results = await target.batch(originals);
          for (const r of results) addMeta(stats, r.meta as Meta, r.results?.length ?? 0);
          return results;
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export function serverTimingValue(stats: D1Stats): string {
  return `d1;desc="queries=${stats.queries} statements=${stats.statements} rows_read=${stats.rowsRead} rows_written=${stats.rowsWritten} rows_returned=${stats.rowsReturned} unmeasured=${stats.unmeasured}"`;
}
