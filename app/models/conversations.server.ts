import { aliasedTable, and, desc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { communityMembers, conversations, messages, userProfiles } from "../../db/schema";
import type { Db } from "./db.server";
import { type AlsoReads, type ModelCtx } from "./context.server";
import { blockedEitherWay } from "./relations.server";
import { cursorParam, type Cursor } from "../domain/cursor";
import { afterCursor } from "./keyset.server";

/** The conversation, if the user is one of its two members; null otherwise. */
export async function findConversationForMember({ db }: ModelCtx, userId: string, conversationId: string) {
  return (
    (await db
      .select({ id: conversations.id, userA: conversations.userA, userB: conversations.userB })
      .from(conversations)
      .where(
        and(eq(conversations.id, conversationId), or(eq(conversations.userA, userId), eq(conversations.userB, userId))),
      )
      .get()) ?? null
  );
}

/** Conversations on one page of the list; "More conversations" shows the next this many (ADR 0025). */
export const CONVERSATIONS_SHOWN = 20;

/**
 * The statements listing the acting user's conversations (for a db.batch): one per side
 * of the ordered pair, each on its own index (conversations_a_idx / conversations_b_idx),
 * after `cursor` when given (most recent first, the id breaking ties), plus the unread counts
 * per conversation (messages_unread_idx). Combine with `mergeConversations`.
 */
export function conversationListQueries(
  db: Db,
  userId: string,
  cursor: Cursor | null = null,
  limit = CONVERSATIONS_SHOWN,
) {
  type Col = typeof conversations.userA | typeof conversations.userB;
  const side = (mine: Col, partner: Col) =>
    db
      .select({
        id: conversations.id,
        partnerId: sql<string>`${partner}`,
        partnerName: userProfiles.fullName,
        partnerAvatar: userProfiles.avatarUrl,
        lastMessageAt: conversations.lastMessageAt,
        lastMessagePreview: conversations.lastMessagePreview,
        lastSenderId: conversations.lastSenderId,
      })
      .from(conversations)
      .leftJoin(userProfiles, eq(userProfiles.userId, partner))
      // A blocked pair's chat leaves both lists (issue 16).
      .where(
        and(
          eq(mine, userId),
          afterCursor(conversations.lastMessageAt, conversations.id, cursor),
          sql`NOT ${blockedEitherWay(userId, sql`${partner}`)}`,
        ),
      )
      .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
      // One more than shown: whether a next page exists.
      .limit(limit + 1);
  return [
    side(conversations.userA, conversations.userB),
    side(conversations.userB, conversations.userA),
    db
      .select({ conversationId: messages.conversationId, n: sql<number>`count(*)` })
      .from(messages)
      .where(and(eq(messages.receiverId, userId), isNull(messages.readAt)))
      .groupBy(messages.conversationId),
  ] as const;
}

type Side = Awaited<ReturnType<typeof conversationListQueries>[0]>;
type Unread = Awaited<ReturnType<typeof conversationListQueries>[2]>;

/** One page of the two sides, in the list's order, and the cursor of the next page (null: none). */
export function mergeConversations(a: Side, b: Side, unread: Unread, limit = CONVERSATIONS_SHOWN) {
  const counts = new Map(unread.map((u) => [u.conversationId, Number(u.n)]));
  const all = [...a, ...b].sort(
    (x, y) => (y.lastMessageAt ?? 0) - (x.lastMessageAt ?? 0) || (x.id < y.id ? 1 : x.id > y.id ? -1 : 0),
  );
  const page = all.slice(0, limit).map((c) => ({ ...c, unread: counts.get(c.id) ?? 0 }));
  const last = page.at(-1);
  return {
    conversations: page,
    moreCursor: all.length > limit && last ? cursorParam(last.lastMessageAt ?? 0, last.id) : null,
  };
}

export type ConversationSummary = ReturnType<typeof mergeConversations>["conversations"][number];

/**
 * One page of the acting user's conversations, most recent first, with partner and unread
 * count (one round trip, with the page's other reads, `also`).
 */
export async function listConversations(
  { db }: ModelCtx,
  userId: string,
  cursor: Cursor | null = null,
  also: AlsoReads = [],
) {
  const [a, b, unread, ...alsoRead] = await db.batch([...conversationListQueries(db, userId, cursor), ...also]);
  return { ...mergeConversations(a, b, unread), also: alsoRead as unknown[] };
}

/** The results of conversationListQueries, read in another model's batch, as the list. */
export function conversationsFrom(results: readonly unknown[]) {
  const [a, b, unread] = results as [Side, Side, Unread];
  return mergeConversations(a, b, unread);
}

export type CommunityContact = { id: string; fullName: string | null };

/**
 * People the acting user may start a chat with through a shared community (approved on
 * both sides), by name. Ride partners are reached from ride cards (`?to={userId}`).
 * Bounded for members of many large communities: members of up to 10 of my communities,
 * at most 3 × limit candidates, and only those rows are joined to profiles. A read for the
 * messages page's batch (AlsoReads).
 */
export function communityContactsQuery(db: Db, userId: string, limit = 50) {
  const mine = aliasedTable(communityMembers, "mine");
  const myCommunities = db
    .select({ id: mine.communityId })
    .from(mine)
    .where(and(eq(mine.userId, userId), eq(mine.status, "approved")))
    .limit(10);
  const candidates = db
    .select({ userId: sql<string>`${communityMembers.userId}`.as("candidate_id") })
    .from(communityMembers)
    .where(
      and(
        inArray(communityMembers.communityId, myCommunities),
        eq(communityMembers.status, "approved"),
        ne(communityMembers.userId, userId),
      ),
    )
    .limit(limit * 3)
    .as("candidates");
  return db
    .selectDistinct({ id: candidates.userId, fullName: userProfiles.fullName })
    .from(candidates)
    .leftJoin(userProfiles, eq(userProfiles.userId, candidates.userId))
    .where(sql`NOT ${blockedEitherWay(userId, sql`${candidates.userId}`)}`)
    .orderBy(userProfiles.fullName)
    .limit(limit);
}
