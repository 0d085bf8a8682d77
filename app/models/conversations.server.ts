import { and, eq, or } from "drizzle-orm";
import { conversations } from "../../db/schema";
import type { Db } from "../utils/db.server";

/** The conversation, if the user is one of its two members; null otherwise. */
export async function findConversationForMember({ db }: { db: Db }, conversationId: string, userId: string) {
  return (
    (await db
      .select({ id: conversations.id, userA: conversations.userA, userB: conversations.userB })
      .from(conversations)
      .where(and(eq(conversations.id, conversationId), or(eq(conversations.userA, userId), eq(conversations.userB, userId))))
      .get()) ?? null
  );
}
