import { Column, getTableName, is, SQL, Subquery } from "drizzle-orm";
import type { Db } from "./db.server";

// Why (issue 40, ADR 0063): drizzle builds a statement's SQL from its query tree on every
// call, about 1.2-1.5 ms of a page's CPU. The hottest pages' statements are built once per
// isolate and shape instead; each request binds its own values to the same text, on its own
// D1 client (D1 objects cannot cross requests, ADR 0047), and drizzle's own mapper reads the
// rows, so results are what the query builder gives.

type Prepared = {
  getQuery(): { sql: string; params: unknown[] };
  mapResult(response: unknown, isFromBatch?: boolean): unknown;
};

type Decoder = { mapFromDriverValue(value: unknown): unknown };
// What drizzle's D1 prepared query keeps of a select (internal fields, read, never changed).
type PreparedSelect = {
  executeMethod?: string;
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: unknown;
  joinsNotNullableMap?: Record<string, boolean>;
};

// Why (issue 40, ADR 0066): drizzle's mapResultRow asks `is()` of every field of every row,
// walks each field's path with an iterator and folds the row with `reduce`: 3.5-5 ms of a page
// mapping a 200-row candidate list or Manage Bookings. This is the same mapping (same keys in
// the same order, same decoders, the same nulling of a left join's absent table) with each
// field's decoder and path resolved once per statement instead of once per row and column.
/** A mapper of raw rows (value arrays, in the select's order) for `prepared`, or null if not a plain select. */
export function rawRowsMapper(prepared: unknown): ((rows: unknown[][]) => unknown[]) | null {
  const p = prepared as PreparedSelect;
  if (p.executeMethod !== "all" || p.customResultMapper || !p.fields) return null;
  const cols = p.fields.map(({ path, field }) => {
    // As mapResultRow picks it: a column decodes itself, SQL (plain, aliased, a subquery's) by its decoder.
    const decoder: Decoder = is(field, Column)
      ? field
      : decoderOf(
          is(field, SQL)
            ? field
            : is(field, Subquery)
              ? (field as unknown as { _: { sql: SQL } })._.sql
              : (field as { sql: SQL }).sql,
        );
    // A table's column of a join: its table is the row's null when every such column is.
    const table = p.joinsNotNullableMap && is(field, Column) && path.length === 2 ? getTableName(field.table) : null;
    return { key: path[path.length - 1], parents: path.slice(0, -1), decoder, table };
  });
  const flat = cols.every((c) => c.parents.length === 0);
  const joins = p.joinsNotNullableMap;
  const one = (row: unknown[]) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < cols.length; i++) {
      const raw = row[i];
      out[cols[i].key] = raw === null ? null : cols[i].decoder.mapFromDriverValue(raw);
    }
    return out;
  };
  if (flat) return (rows) => rows.map(one);
  return (rows) => rows.map((row) => nestedRow(cols, row, joins));
}

// `decoder` is internal to drizzle's types (set by `mapWith`).
const decoderOf = (sql: SQL) => (sql as unknown as { decoder: Decoder }).decoder;

type Col = { key: string; parents: string[]; decoder: Decoder; table: string | null };
// drizzle's mapResultRow for selections with nested objects (`{ ride: rides, driver: {...} }`).
function nestedRow(cols: Col[], row: unknown[], joins: Record<string, boolean> | undefined) {
  const out: Record<string, unknown> = {};
  const nullify: Record<string, string | false> = {};
  let anyNullify = false;
  for (let i = 0; i < cols.length; i++) {
    const { key, parents, decoder, table } = cols[i];
    let node = out;
    for (const parent of parents) {
      if (!(parent in node)) node[parent] = {};
      node = node[parent] as Record<string, unknown>;
    }
    const raw = row[i];
    const value = (node[key] = raw === null ? null : decoder.mapFromDriverValue(raw));
    if (table !== null) {
      const object = parents[0];
      anyNullify = true;
      if (!(object in nullify)) nullify[object] = value === null ? table : false;
      else if (typeof nullify[object] === "string" && nullify[object] !== table) nullify[object] = false;
    }
  }
  if (joins && anyNullify)
    for (const [object, table] of Object.entries(nullify))
      if (typeof table === "string" && !joins[table]) out[object] = null;
  return out;
}

/** How a batch's result maps: drizzle's own mapper, or the same mapping resolved once. */
function batchMapper(prepared: Prepared): (r: D1Result) => unknown {
  const fast = rawRowsMapper(prepared);
  if (!fast) return (r) => prepared.mapResult(r, true);
  // drizzle reads a batch's row objects by their keys' order (d1ToRawMapping): so does this.
  return (r) => fast((r.results as Record<string, unknown>[]).map((row) => Object.values(row)));
}
/** A drizzle query that can be prepared: a select, with or without joins. */
export type Preparable = { prepare(): Prepared; all(): Promise<unknown> };
/** What a query's rows map to. */
export type RowsOf<Q extends Preparable> = Awaited<ReturnType<Q["all"]>>;
/** What each query of a list's rows map to. */
export type RowsOfAll<T extends readonly Preparable[]> = {
  [K in keyof T]: T[K] extends Preparable ? RowsOf<T[K]> : T[K];
};

/** One statement of a D1 batch (its text and values too) and how to read its result. */
export type Read<T = unknown> = {
  statement: D1PreparedStatement;
  sql: string;
  params: unknown[];
  map: (result: D1Result) => T;
};

/** A query built now, for a batch of reads. */
export function readOf<Q extends Preparable>(db: Db, query: Q): Read<RowsOf<Q>> {
  const prepared = query.prepare();
  const { sql, params } = prepared.getQuery();
  return {
    statement: db.$client.prepare(sql).bind(...params),
    sql,
    params,
    map: batchMapper(prepared) as (r: D1Result) => RowsOf<Q>,
  };
}

/**
 * `await query`, one round trip as before, with the rows read as arrays (as drizzle reads them)
 * and mapped by `rawRowsMapper`: for a hot read returning hundreds of rows (Manage Bookings).
 */
export async function rowsOf<Q extends Preparable>(db: Db, query: Q): Promise<RowsOf<Q>> {
  const prepared = query.prepare();
  const fast = rawRowsMapper(prepared);
  if (!fast) return (await query.all()) as RowsOf<Q>;
  const { sql, params } = prepared.getQuery();
  return fast(
    await db.$client
      .prepare(sql)
      .bind(...params)
      .raw(),
  ) as RowsOf<Q>;
}

/** The values a built statement binds per request: ids, texts and instants. */
export type Values = Record<string, string | number>;

/** A shape's SQL, its parameters (constants, or the value each slot takes) and its mapper. */
type Shape = { sql: string; params: unknown[]; slots: (string | undefined)[]; map: (r: D1Result) => unknown };

const shapes = new Map<string, Shape | null>();

/**
 * The statement `make(values)` builds, built once per isolate for `key`: later calls bind
 * `values` to the same text without building it. `key` must name everything that changes the
 * text besides `values` (filters, optional parts). A shape that computes a parameter from a
 * value (a date from an instant) is found on its first build and is built per call instead.
 */
export function builtOnce<V extends Values, Q extends Preparable>(
  db: Db,
  key: string,
  values: V,
  make: (values: V) => Q,
): Read<RowsOf<Q>> {
  let shape = shapes.get(key);
  if (shape === undefined) {
    shape = learn(values, make);
    shapes.set(key, shape);
  }
  if (shape === null) return readOf(db, make(values));
  return bound(db, shape, values) as Read<RowsOf<Q>>;
}

/** A kept shape's statement with `values` bound in its slots, on this request's client. */
function bound(db: Db, { sql, params, slots, map }: Shape, values: Values): Read {
  const bind = params.map((p, i) => {
    const slot = slots[i];
    return slot === undefined ? p : values[slot];
  });
  return { statement: db.$client.prepare(sql).bind(...bind), sql, params: bind, map };
}

// How many statements each list of builtListOnce has (its shapes are kept as `key#index`).
const lists = new Map<string, number>();

/**
 * builtOnce for a page's whole list of reads (ADR 0069): each statement `make(values)` lists is
 * learned on the first call and kept as `key#index`; later calls bind `values` to the kept
 * texts. A statement whose shape cannot be kept (a computed parameter) is built per call.
 * Compute values before the call and pass them in `values`: a parameter computed inside `make`
 * that comes out the same for the learning request and the markers (the chat's partner, ""
 * for an outsider and for the markers alike) would be kept as a constant for every request.
 */
export function builtListOnce<V extends Values>(
  db: Db,
  key: string,
  values: V,
  make: (values: V) => readonly Preparable[],
): Read[] {
  let length = lists.get(key);
  if (length === undefined) {
    const moved = movedOf(values);
    const [a, b] = [make(values), make(moved)];
    a.forEach((q, i) => {
      shapes.set(`${key}#${i}`, a.length === b.length ? learnPair(values, moved, q.prepare(), b[i].prepare()) : null);
    });
    length = a.length;
    lists.set(key, length);
  }
  let fresh: readonly Preparable[] | undefined;
  return Array.from({ length: length }, (_, i) => {
    const shape = shapes.get(`${key}#${i}`);
    if (shape) return bound(db, shape, values);
    fresh ??= make(values);
    return readOf(db, fresh[i]);
  });
}

/** Whether `key`'s statement is kept built (tests: the hot pages' shapes must be). */
export const isBuiltOnce = (key: string) => Boolean(shapes.get(key));

/** The keys of the shapes kept built. */
export const builtKeys = () => [...shapes.entries()].filter(([, s]) => s).map(([k]) => k);

/** Forgets one shape: a caller whose keys are many (a search's) keeps only its latest few. */
export function forgetBuiltStatement(key: string) {
  shapes.delete(key);
}

/** Tests: forget every shape, so the next call learns its statement from its own values. */
export function forgetBuiltStatements() {
  shapes.clear();
  lists.clear();
}

// Builds the statement twice, with the request's values and with every value moved (texts to
// markers, instants by ~11.6 days and a few ms, so no date, weekday or hour stays the same):
// a parameter that follows a value is that value's slot; one that stays is a constant; one
// that moves otherwise is computed from a value, and the shape is not kept.
function learn<V extends Values>(values: V, make: (values: V) => Preparable): Shape | null {
  const moved = movedOf(values);
  return learnPair(values, moved, make(values).prepare(), make(moved).prepare());
}

function movedOf<V extends Values>(values: V): V {
  const keys = Object.keys(values);
  return Object.fromEntries(
    keys.map((k, i) => {
      const v = values[k];
      return [k, typeof v === "number" ? v + 1_000_003_001 + 7 * i : `\u0000moved:${k}`];
    }),
  ) as V;
}

/** The shape of `prepared` (built from `values`), told apart from `other` (built from `moved`). */
function learnPair<V extends Values>(values: V, moved: V, prepared: Prepared, other: Prepared): Shape | null {
  const keys = Object.keys(values);
  const a = prepared.getQuery();
  const b = other.getQuery();
  if (a.sql !== b.sql || a.params.length !== b.params.length) return null;
  const slots: (string | undefined)[] = [];
  for (let i = 0; i < a.params.length; i++) {
    if (a.params[i] === b.params[i]) {
      slots.push(undefined);
      continue;
    }
    const slot = keys.find((k) => values[k] === a.params[i] && moved[k] === b.params[i]);
    if (slot === undefined) return null;
    slots.push(slot);
  }
  // The mapper reads only the selected fields: the D1 statement it was prepared with (this
  // request's) is not kept.
  Reflect.set(prepared, "stmt", undefined);
  return { sql: a.sql, params: a.params, slots, map: batchMapper(prepared) };
}

/** What each of a list of reads maps to. */
export type ReadResults<R extends readonly Read[]> = { [K in keyof R]: R[K] extends Read<infer T> ? T : never };

/** Maps a batch's results, each with its read's mapper. */
export const mapReads = <R extends readonly Read[]>(reads: R, results: readonly D1Result[]) =>
  reads.map((r, i) => r.map(results[i])) as ReadResults<R>;

/** Runs reads as one D1 batch (one round trip) and maps each result. */
export async function runReads<R extends readonly Read[]>(db: Db, reads: R): Promise<ReadResults<R>> {
  return mapReads(reads, await db.$client.batch(reads.map((r) => r.statement)));
}
