import { drizzle } from "drizzle-orm/d1";
import * as schema from "../../db/schema";

// A request's client talks to a Sessions API session (read replicas, ADR 0026); cron and
// Durable Objects use the binding itself (always the primary). drizzle's d1 driver only
// calls prepare() and batch(), which both have. No `{ schema }`: nothing uses the relational
// query API, and drizzle rebuilt its relational config from the schema on every request
// (~0.2 ms of CPU even on /healthz, issue 17).
export function createDb(d1: D1Database | D1DatabaseSession) {
  return drizzle(d1 as D1Database);
}

export type Db = ReturnType<typeof createDb>;
export { schema };
