import { newsletterSubscribers } from "../../db/schema";
import { type ModelCtx } from "./context.server";

/** Stores the address once; subscribing again is not an error. Returns whether it was new. */
export async function subscribeToNewsletter({ db }: ModelCtx, email: string, now = Date.now()) {
  const rows = await db
    .insert(newsletterSubscribers)
    .values({ email: email.trim().toLowerCase(), createdAt: now })
    .onConflictDoNothing()
    .returning({ email: newsletterSubscribers.email });
  return { created: rows.length > 0 };
}
