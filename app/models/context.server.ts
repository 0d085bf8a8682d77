import type { BatchItem } from "drizzle-orm/batch";
import type { Db } from "./db.server";

/** What every model function takes first: the request's database handle. */
export type ModelCtx = { db: Db };

/**
 * Whom a committed write concerns: `notified` got a new notification (a live toast may be
 * pushed), `others` only see changed counts. Every write model that concerns someone other
 * than the acting user returns one of these as `audience`; routes pass it to `publishChange`.
 * The acting user is left out: their own redirect already shows the change.
 */
export type Audience = { notified: string[]; others: string[] };

export const audience = (notified: string[] = [], others: string[] = []): Audience => ({ notified, others });

/**
 * A read that changes only the acting user's own counts (marking notifications or a chat
 * read): their OTHER open tabs hear of it. The exception to leaving the actor out.
 */
export const ownTabs = (userId: string): Audience => audience([], [userId]);

/**
 * A page's other reads, handed to the model function that reads the page's main data so they
 * run in its db.batch: one D1 round trip after the session's (issue 17). The function returns
 * their results, in order, as `also`; the caller maps them with the reads' own mapper.
 */
export type AlsoReads = readonly BatchItem<"sqlite">[];
