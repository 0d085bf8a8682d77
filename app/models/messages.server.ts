import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { conversations, messages, notifications, userProfiles, users } from "../../db/schema";
import { conversationIdFor } from "../domain/conversation";
import { newId } from "../domain/ids";
import type { Db } from "./db.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { markConversationNotificationsRead, notificationInsert } from "./notifications.server";
import { blockedEitherWay, sharesCommunityOrRide } from "./relations.server";

import { MESSAGE_EMPTY, MESSAGE_MAX, MESSAGE_TOO_LONG, MESSAGES_MAX_PAGE, MESSAGES_PAGE } from "../schemas/messages";
import { audience, type ModelCtx } from "./context.server";

export { MESSAGE_EMPTY, MESSAGE_MAX, MESSAGE_TOO_LONG, MESSAGES_MAX_PAGE, MESSAGES_PAGE };
export const MESSAGE_REFUSED = "You can only message people who share a community or a ride with you.";
const PREVIEW = 120;

/**
 * The would-be partner (if the user exists) and whether the two may message each other:
 * both approved members of one community, or driver and a pending/accepted rider of one
 * ride (either direction). Every EXISTS runs on an index (community_members_user_idx +
 * community_members_unique; ride_requests_rider_idx + rides primary key).
 */
function contactQuery(db: Db, me: string, other: string) {
  return db
    .select({
      id: users.id,
      fullName: userProfiles.fullName,
      avatarUrl: userProfiles.avatarUrl,
      // A blocked pair (either way) may not: the sender sees the same neutral refusal.
      shared: sql<number>`(${sharesCommunityOrRide(me, other)} AND NOT ${blockedEitherWay(me, other)})`,
      blocked: blockedEitherWay(me, other),
    })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.id, other));
}

/** Whether `me` may message `other` (see contactQuery). */
export async function canMessage({ db }: ModelCtx, me: string, other: string): Promise<boolean> {
  if (me === other) return false;
  const row = await contactQuery(db, me, other).get();
  return Boolean(row?.shared);
}

const messageColumns = {
  id: messages.id,
  clientId: messages.clientId,
  conversationId: messages.conversationId,
  senderId: messages.senderId,
  receiverId: messages.receiverId,
  content: messages.content,
  createdAt: messages.createdAt,
  readAt: messages.readAt,
};

export type ChatMessage = {
  id: string;
  clientId: string | null;
  conversationId: string;
  senderId: string;
  receiverId: string;
  content: string;
  createdAt: number;
  readAt: number | null;
};

export type SendInput = { to: string; content: string; clientId?: string | null };

/**
 * Sends a message from the acting user, in ONE db.batch: create the pair's conversation if
 * new, insert the message, update the conversation's last-message fields and write the
 * receiver's 'message' notification. A retried send with the same clientId is stored once
 * (unique (sender_id, client_id)): the later statements only apply when this attempt's
 * message row exists, and the already-stored message is returned with created = false.
 */
export async function sendMessage({ db }: ModelCtx, senderId: string, input: SendInput, now = Date.now()) {
  const content = input.content.trim();
  if (content.length === 0) throw new ConflictError(MESSAGE_EMPTY);
  if (content.length > MESSAGE_MAX) throw new ConflictError(MESSAGE_TOO_LONG);
  if (input.to === senderId) throw new ForbiddenError(MESSAGE_REFUSED);
  const [contact, sender] = await db.batch([
    contactQuery(db, senderId, input.to),
    db.select({ fullName: userProfiles.fullName }).from(userProfiles).where(eq(userProfiles.userId, senderId)),
  ]);
  if (!contact[0]?.shared) throw new ForbiddenError(MESSAGE_REFUSED);

  const receiverId = input.to;
  const [userA, userB] = senderId < receiverId ? [senderId, receiverId] : [receiverId, senderId];
  const conversationId = conversationIdFor(userA, userB);
  const id = newId();
  const clientId = input.clientId || null;
  const preview = content.length > PREVIEW ? `${content.slice(0, PREVIEW - 1)}…` : content;
  const senderName = sender[0]?.fullName?.trim() || "Unknown User";
  const stored = sql`EXISTS (SELECT 1 FROM messages WHERE id = ${id})`;
  const data = { conversation_id: conversationId, sender_id: senderId, message_id: id };

  const [, inserted, , , found] = await db.batch([
    db.insert(conversations).values({ id: conversationId, userA, userB, createdAt: now }).onConflictDoNothing(),
    db
      .insert(messages)
      .values({ id, conversationId, senderId, receiverId, content, clientId, createdAt: now, readAt: null })
      .onConflictDoNothing()
      .returning({ id: messages.id }),
    db
      .update(conversations)
      .set({ lastMessageAt: now, lastMessagePreview: preview, lastSenderId: senderId })
      .where(and(eq(conversations.id, conversationId), stored)),
    notificationInsert(db, { userId: receiverId, type: "message", title: `New message from ${senderName}`, message: preview, data }, now, sql`WHERE ${stored}`),
    db
      .select(messageColumns)
      .from(messages)
      .where(clientId ? and(eq(messages.senderId, senderId), eq(messages.clientId, clientId)) : eq(messages.id, id)),
  ]);
  const message = found[0] as ChatMessage | undefined;
  if (!message) throw new Error("sendMessage: the message was neither stored nor found");
  const created = inserted.length > 0;
  return { message, created, conversationId, receiverId, audience: created ? audience([receiverId]) : audience() };
}

/** Marks the acting user's incoming unread messages of a conversation read (and their message notifications). */
export async function markConversationRead({ db }: ModelCtx, userId: string, conversationId: string, now = Date.now()) {
  const [read, notes] = await db.batch([
    db
      .update(messages)
      .set({ readAt: now })
      .where(and(eq(messages.receiverId, userId), eq(messages.conversationId, conversationId), isNull(messages.readAt)))
      .returning({ id: messages.id }),
    markConversationNotificationsRead(db, userId, conversationId).returning({ id: notifications.id }),
  ]);
  return { messages: read.length, notifications: notes.length };
}

export type Partner = { id: string; fullName: string | null; avatarUrl: string | null };

/**
 * One open chat for the acting user (one round trip): the conversation (only if the user is
 * a member, else NotFoundError), the partner's name and avatar, and the last `limit`
 * messages oldest first (index messages_conversation_idx) with whether earlier ones exist.
 */
export async function getChat({ db }: ModelCtx, userId: string, conversationId: string, limit = MESSAGES_PAGE) {
  const n = Math.min(Math.max(limit, 1), MESSAGES_MAX_PAGE);
  const partnerId = sql`CASE WHEN ${conversations.userA} = ${userId} THEN ${conversations.userB} ELSE ${conversations.userA} END`;
  const [conv, rows] = await db.batch([
    db
      .select({ id: conversations.id, partnerId: sql<string>`${partnerId}`, fullName: userProfiles.fullName, avatarUrl: userProfiles.avatarUrl })
      .from(conversations)
      .leftJoin(userProfiles, eq(userProfiles.userId, partnerId))
      .where(and(eq(conversations.id, conversationId), or(eq(conversations.userA, userId), eq(conversations.userB, userId)))),
    db
      .select(messageColumns)
      .from(messages)
      .where(eq(messages.conversationId, conversationId))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(n + 1),
  ]);
  const c = conv[0];
  if (!c) throw new NotFoundError("Conversation not found");
  return {
    conversationId: c.id,
    partner: { id: c.partnerId, fullName: c.fullName, avatarUrl: c.avatarUrl } satisfies Partner,
    messages: rows.slice(0, n).reverse() as ChatMessage[],
    hasEarlier: rows.length > n,
    limit: n,
  };
}

/**
 * Resolves `/dashboard/messages?to={userId}`: the existing conversation with that user, or
 * (when none exists yet) the partner and whether the acting user may start one.
 */
export async function findChatWith({ db }: ModelCtx, userId: string, otherId: string) {
  if (otherId === userId) throw new NotFoundError("User not found");
  const conversationId = conversationIdFor(userId, otherId);
  const [contact, existing] = await db.batch([
    contactQuery(db, userId, otherId),
    db.select({ id: conversations.id }).from(conversations).where(eq(conversations.id, conversationId)),
  ]);
  const partner = contact[0];
  if (!partner) throw new NotFoundError("User not found");
  return {
    // A blocked pair's old chat is not reopened from a link: the pane shows the neutral refusal.
    conversationId: partner.blocked ? null : existing[0]?.id ?? null,
    partner: { id: partner.id, fullName: partner.fullName, avatarUrl: partner.avatarUrl } satisfies Partner,
    allowed: Boolean(partner.shared),
  };
}
