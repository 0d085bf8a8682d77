import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { conversations, messages, notifications, rideInquiries, rides, userProfiles, users } from "../../db/schema";
import { conversationIdFor } from "../domain/conversation";
import { newId } from "../domain/ids";
import { IST_OFFSET_MS } from "../domain/time";
import type { Db } from "./db.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { markConversationNotificationsRead, notificationInsert } from "./notifications.server";
import { accountLimitKey, rateLimitHitStatement, withinRateLimit } from "./rate-limits.server";
import { blockedEitherWay, sharesCommunityOrRide } from "./relations.server";
import { maySeeRide } from "./permissions.server";

import { MESSAGE_EMPTY, MESSAGE_MAX, MESSAGE_TOO_LONG, MESSAGES_PAGE } from "../schemas/messages";
import { cursorParam, type Cursor } from "../domain/cursor";
import { afterCursor } from "./keyset.server";
import { builtListOnce, type Preparable, type RowsOf, runReads, type Values } from "./statements.server";
import { audience, type AlsoReads, type ModelCtx } from "./context.server";
import { findConversationForMember } from "./conversations.server";

export { MESSAGE_EMPTY, MESSAGE_MAX, MESSAGE_TOO_LONG, MESSAGES_PAGE };
export const MESSAGE_REFUSED = "You can only message people who share a community or a ride with you.";
export const ACCOUNT_CLOSED =
  "This person has closed their LoopRide account, so messages can no longer be sent to them.";
export const INQUIRIES_OFF =
  "This driver does not take questions about rides from riders they share no community with. You can request a seat instead.";
export const RIDE_NOT_OPEN =
  "This ride is no longer open for booking, so its driver cannot be asked about it. Find another ride instead.";
/** First messages a day (IST) about rides to drivers the sender shares nothing else with. */
export const INQUIRIES_PER_DAY = 10;
export const INQUIRY_LIMIT_REACHED = `You can ask ${INQUIRIES_PER_DAY} new drivers about their rides a day. Try again tomorrow, or request a seat.`;
const PREVIEW = 120;
const DAY_MS = 86_400_000;

/** The ride a chat names: "About: Koramangala → MG Road, Tue, Nov 24, 8:30 AM". */
export type AboutRide = { id: string; fromLocation: string; toLocation: string; date: string; time: string };

/**
 * Whether `a` and `b` have an open ride inquiry (either one asked the other about a ride): the
 * ride is active and upcoming, and its driver still takes ride inquiries. Each EXISTS is one
 * lookup on ride_inquiries_pair_idx (the unary + keeps SQLite from walking rides_discover_idx,
 * every upcoming ride, instead).
 */
function openInquiryBetween(a: string, b: string, now: number) {
  const side = (rider: string, driver: string) => sql`EXISTS (
    SELECT 1 FROM ride_inquiries ri JOIN rides r ON r.id = ri.ride_id
    WHERE ri.rider_id = ${rider} AND ri.driver_id = ${driver} AND +r.status = 'active' AND +r.departs_at > ${now}
      AND COALESCE((SELECT s.ride_inquiries FROM user_settings s WHERE s.user_id = ri.driver_id), 1) = 1)`;
  return sql<number>`(${side(a, b)} OR ${side(b, a)})`;
}

/**
 * What the messaging rule looks at, as statements for one db.batch: the would-be partner (if
 * the user exists) with every relation between the two, and, when `rideId` is given, that ride
 * if `me` may see it and `other` drives it.
 */
function messagingFacts(db: Db, me: string, other: string, rideId: string | null, now: number) {
  const person = db
    .select({
      id: users.id,
      fullName: userProfiles.fullName,
      avatarUrl: userProfiles.avatarUrl,
      shared: sharesCommunityOrRide(me, other),
      openInquiry: openInquiryBetween(me, other, now),
      inquiriesOn: sql<number>`COALESCE((SELECT s.ride_inquiries FROM user_settings s WHERE s.user_id = ${other}), 1)`,
      // A blocked pair (either way) may not message at all: the sender sees the neutral refusal.
      blocked: blockedEitherWay(me, other),
      // A deleted account keeps its row (history stays valid) but can no longer be written to.
      closed: sql<number>`${users.deletedAt} IS NOT NULL`,
    })
    .from(users)
    .leftJoin(userProfiles, eq(userProfiles.userId, users.id))
    .where(eq(users.id, other));
  const ride = db
    .select({
      id: rides.id,
      fromLocation: rides.fromLocation,
      toLocation: rides.toLocation,
      date: rides.date,
      time: rides.time,
      status: rides.status,
      departsAt: rides.departsAt,
      seats: rides.seats,
      bookedSeats: rides.bookedSeats,
      asked: sql<number>`EXISTS (SELECT 1 FROM ride_inquiries ri WHERE ri.ride_id = ${rides.id} AND ri.rider_id = ${me})`,
    })
    .from(rides)
    // An unknown ride id matches nothing (no ride has the empty id).
    .where(and(eq(rides.id, rideId ?? ""), eq(rides.driverId, other), maySeeRide(me, { withRequests: true })))
    .limit(1);
  return [person, ride] as const;
}

type PersonFacts = Awaited<ReturnType<typeof messagingFacts>[0]>[number];
type RideFacts = Awaited<ReturnType<typeof messagingFacts>[1]>[number];

export type MessagingAccess =
  /** `about`: the ride the next message names (a ride asked about for the first time). */
  | { allowed: true; via: "relation" | "inquiry" | "new-inquiry"; about: AboutRide | null }
  /** `bookHref`: where to request a seat instead, when the ride takes requests. */
  | { allowed: false; reason: string; bookHref: string | null };

/**
 * THE messaging rule (every send and every composer goes through it): `me` may message `other`
 * when they share a community or a ride request, when they have an open ride inquiry (either
 * way), or to ask `other` about a ride of theirs `me` can see and book (active, upcoming, a seat
 * left) while `other` takes ride inquiries; never when either has blocked the other (issue 16),
 * nor to a deleted account (issue 34).
 */
function decideMessaging(me: string, person: PersonFacts, ride: RideFacts | undefined, now: number): MessagingAccess {
  const upcoming = Boolean(ride && ride.status === "active" && ride.departsAt > now);
  const bookable = Boolean(ride && upcoming && ride.bookedSeats < ride.seats);
  const about =
    ride && upcoming && !ride.asked
      ? { id: ride.id, fromLocation: ride.fromLocation, toLocation: ride.toLocation, date: ride.date, time: ride.time }
      : null;
  if (person.closed) return { allowed: false, reason: ACCOUNT_CLOSED, bookHref: null };
  if (person.id === me || person.blocked) return { allowed: false, reason: MESSAGE_REFUSED, bookHref: null };
  if (person.shared) return { allowed: true, via: "relation", about };
  if (person.openInquiry) return { allowed: true, via: "inquiry", about };
  if (!ride) return { allowed: false, reason: MESSAGE_REFUSED, bookHref: null };
  const bookHref = bookable ? `/rides/${ride.id}/book` : null;
  if (!bookable) return { allowed: false, reason: RIDE_NOT_OPEN, bookHref };
  if (!person.inquiriesOn) return { allowed: false, reason: INQUIRIES_OFF, bookHref };
  return { allowed: true, via: "new-inquiry", about };
}

/** Whether `me` may message `other` now (about `rideId`, when given). */
export async function canMessage(
  { db }: ModelCtx,
  me: string,
  other: string,
  rideId: string | null = null,
  now = Date.now(),
): Promise<boolean> {
  const [person, ride] = await db.batch(messagingFacts(db, me, other, rideId, now));
  return person[0] ? decideMessaging(me, person[0], ride[0], now).allowed : false;
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
  /** The ride this message first asked about (ride inquiries), if any. */
  about?: Omit<AboutRide, "id"> | null;
};

/** `rideId`: the ride the sender asks about (the ride page's or a Discover card's Contact). */
export type SendInput = { to: string; content: string; clientId?: string | null; rideId?: string | null };

/**
 * Sends a message from the acting user, in ONE db.batch: create the pair's conversation if
 * new, insert the message, update the conversation's last-message fields and write the
 * receiver's 'message' notification. A retried send with the same clientId is stored once
 * (unique (sender_id, client_id)): the later statements only apply when this attempt's
 * message row exists, and the already-stored message is returned with created = false.
 */
export async function sendMessage(ctx: ModelCtx, senderId: string, input: SendInput, now = Date.now()) {
  const { db } = ctx;
  const content = input.content.trim();
  if (content.length === 0) throw new ConflictError(MESSAGE_EMPTY, { field: "content" });
  if (content.length > MESSAGE_MAX) throw new ConflictError(MESSAGE_TOO_LONG, { field: "content" });
  if (input.to === senderId) throw new ForbiddenError(MESSAGE_REFUSED);
  const [person, ride, sender] = await db.batch([
    ...messagingFacts(db, senderId, input.to, input.rideId ?? null, now),
    db.select({ fullName: userProfiles.fullName }).from(userProfiles).where(eq(userProfiles.userId, senderId)),
  ]);
  if (!person[0]) throw new ForbiddenError(MESSAGE_REFUSED);
  const access = decideMessaging(senderId, person[0], ride[0], now);
  if (!access.allowed) throw new ForbiddenError(access.reason);

  const receiverId = input.to;
  const [userA, userB] = senderId < receiverId ? [senderId, receiverId] : [receiverId, senderId];
  const conversationId = conversationIdFor(userA, userB);
  const id = newId();
  const clientId = input.clientId || null;
  const preview = content.length > PREVIEW ? `${content.slice(0, PREVIEW - 1)}…` : content;
  const senderName = sender[0]?.fullName?.trim() || "Unknown User";
  const stored = sql`EXISTS (SELECT 1 FROM messages WHERE id = ${id})`;
  const about = access.about;
  const data = {
    conversation_id: conversationId,
    sender_id: senderId,
    message_id: id,
    ...(about ? { ride_id: about.id } : {}),
  };
  // A first message to a driver with no other relation is counted against the sender's daily
  // limit (the IST day: the fixed window shifted by the offset) in this same transaction, so
  // N concurrent ones let exactly the limit through and a refused one stores nothing. A retried
  // send that is already stored is not counted again.
  const inquiry = access.via === "new-inquiry";
  const limitKey = accountLimitKey("ride-inquiry", senderId);
  // The receiver is checked again in the write: an account deleted since the read gets nothing.
  const open = sql`NOT EXISTS (SELECT 1 FROM users WHERE id = ${receiverId} AND deleted_at IS NOT NULL)`;
  const gate = inquiry
    ? sql`${withinRateLimit(limitKey, INQUIRIES_PER_DAY, DAY_MS, now + IST_OFFSET_MS)} AND ${open}`
    : open;
  const alreadySent = clientId
    ? sql`EXISTS (SELECT 1 FROM messages WHERE sender_id = ${senderId} AND client_id = ${clientId})`
    : sql`0`;

  const [, , inserted, , , found] = await db.batch([
    // Counts nothing unless this is a first inquiry.
    rateLimitHitStatement(ctx, limitKey, DAY_MS, now + IST_OFFSET_MS, inquiry ? alreadySent : sql`1`),
    // Columns in table order (id, user_a, user_b, last_message_at, last_message_preview, last_sender_id, created_at).
    db
      .insert(conversations)
      .select(sql`SELECT ${conversationId}, ${userA}, ${userB}, NULL, NULL, NULL, ${now} WHERE ${gate}`)
      .onConflictDoNothing(),
    // Columns in table order (id, conversation_id, sender_id, receiver_id, content, client_id, created_at, read_at).
    db
      .insert(messages)
      .select(
        sql`SELECT ${id}, ${conversationId}, ${senderId}, ${receiverId}, ${content}, ${clientId}, ${now}, NULL WHERE ${gate}`,
      )
      .onConflictDoNothing()
      .returning({ id: messages.id }),
    db
      .update(conversations)
      .set({ lastMessageAt: now, lastMessagePreview: preview, lastSenderId: senderId })
      .where(and(eq(conversations.id, conversationId), stored)),
    notificationInsert(
      db,
      { userId: receiverId, type: "message", title: `New message from ${senderName}`, message: preview, data },
      now,
      sql`WHERE ${stored}`,
    ),
    db
      .select(messageColumns)
      .from(messages)
      .where(clientId ? and(eq(messages.senderId, senderId), eq(messages.clientId, clientId)) : eq(messages.id, id)),
    // The first message about a ride names it (one per rider and ride: a concurrent second is ignored).
    // Columns in table order (ride_id, rider_id, driver_id, conversation_id, message_id, created_at).
    ...(about
      ? [
          db
            .insert(rideInquiries)
            .select(
              sql`SELECT ${about.id}, ${senderId}, ${receiverId}, ${conversationId}, ${id}, ${now} WHERE ${stored}`,
            )
            .onConflictDoNothing(),
        ]
      : []),
  ]);
  if (!found[0]) {
    const receiver = await db.select({ deletedAt: users.deletedAt }).from(users).where(eq(users.id, receiverId)).get();
    if (receiver?.deletedAt != null) throw new ForbiddenError(ACCOUNT_CLOSED);
    if (inquiry) throw new ConflictError(INQUIRY_LIMIT_REACHED, { field: "content" });
  }
  const message = found[0] as ChatMessage | undefined;
  if (!message) throw new Error("sendMessage: the message was neither stored nor found");
  const created = inserted.length > 0;
  return { message, created, conversationId, receiverId, audience: created ? audience([receiverId]) : audience() };
}

/** Marks the acting user's incoming unread messages of a conversation read (and their message notifications). */
export async function markConversationRead({ db }: ModelCtx, userId: string, conversationId: string, now = Date.now()) {
  // Only the acting user's own incoming messages of their own conversation.
  if (!(await findConversationForMember({ db }, userId, conversationId)))
    throw new NotFoundError("Conversation not found");
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

/** The partner's id in a conversation id (both ids, ordered, joined); "" when `userId` is in neither place. */
function partnerIn(conversationId: string, userId: string) {
  if (conversationId.startsWith(userId)) return conversationId.slice(userId.length);
  if (conversationId.endsWith(userId)) return conversationId.slice(0, -userId.length);
  return "";
}

/** A chat page's other reads, made from the chat's values and their own (`values`). */
export type ChatPageReads = {
  key: string;
  values: Values;
  make: (values: Values & { userId: string }) => readonly Preparable[];
};

function chatQueries(
  db: Db,
  userId: string,
  conversationId: string,
  partner: string,
  before: Cursor | null,
  rideId: string,
  now: number,
) {
  const n = MESSAGES_PAGE;
  const partnerId = sql`CASE WHEN ${conversations.userA} = ${userId} THEN ${conversations.userB} ELSE ${conversations.userA} END`;
  return [
    db
      .select({
        id: conversations.id,
        partnerId: sql<string>`${partnerId}`,
        fullName: userProfiles.fullName,
        avatarUrl: userProfiles.avatarUrl,
      })
      .from(conversations)
      .leftJoin(userProfiles, eq(userProfiles.userId, partnerId))
      .where(
        and(eq(conversations.id, conversationId), or(eq(conversations.userA, userId), eq(conversations.userB, userId))),
      ),
    db
      .select({
        ...messageColumns,
        aboutFrom: rides.fromLocation,
        aboutTo: rides.toLocation,
        aboutDate: rides.date,
        aboutTime: rides.time,
      })
      .from(messages)
      .leftJoin(rideInquiries, eq(rideInquiries.messageId, messages.id))
      .leftJoin(rides, eq(rides.id, rideInquiries.rideId))
      .where(and(eq(messages.conversationId, conversationId), afterCursor(messages.createdAt, messages.id, before)))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(n + 1),
    // Only used when the conversation is the user's (then `partner` is its partner).
    ...messagingFacts(db, userId, partner, rideId, now),
  ] as const;
}

type ChatQueries = ReturnType<typeof chatQueries>;
type ChatRows = [RowsOf<ChatQueries[0]>, RowsOf<ChatQueries[1]>, RowsOf<ChatQueries[2]>, RowsOf<ChatQueries[3]>];

/**
 * One open chat for the acting user (one round trip): the conversation (only if the user is
 * a member, else NotFoundError), the partner's name and avatar, one page of `MESSAGES_PAGE`
 * messages oldest first (the newest ones, or with `before` those just older than that cursor;
 * index messages_conversation_idx) with the cursor of the next older page (null when none) and
 * the ride a message asked about, and whether the user may write now (`access`; `rideId`: the
 * ride a Contact button asks about).
 */
export async function getChat(
  { db }: ModelCtx,
  userId: string,
  conversationId: string,
  before: Cursor | null = null,
  rideId: string | null = null,
  now = Date.now(),
  also: ChatPageReads = { key: "none", values: {}, make: () => [] },
) {
  const n = MESSAGES_PAGE;
  // Built once per isolate (ADR 0069): every value the text binds is in `values`; the key names
  // what else shapes it (an older page's cursor, the page's other reads).
  const values = {
    ...also.values,
    userId,
    conversationId,
    // A value, not computed in the builder: for someone outside the chat it is "", like an
    // absent ride, and a shape learned then would keep "" as a constant partner for everyone.
    partnerId: partnerIn(conversationId, userId),
    rideId: rideId ?? "",
    now,
    beforeAt: before?.at ?? 0,
    beforeId: before?.id ?? "",
  };
  const reads = builtListOnce(db, `chat:${before ? "older" : "newest"}:${also.key}`, values, (v) => [
    ...chatQueries(
      db,
      v.userId,
      v.conversationId,
      v.partnerId,
      before && { at: v.beforeAt, id: v.beforeId },
      v.rideId,
      v.now,
    ),
    // The page's other reads (the conversation list), in the same round trip.
    ...also.make(v),
  ]);
  const results = await runReads(db, reads);
  const [conv, rows, person, ride] = results as unknown as ChatRows;
  const alsoRead = results.slice(4);
  const c = conv[0];
  if (!c) throw new NotFoundError("Conversation not found");
  const oldest = rows.length > n ? rows[n - 1] : null;
  const access: MessagingAccess =
    person[0] && c.partnerId === person[0].id
      ? decideMessaging(userId, person[0], ride[0], now)
      : { allowed: false, reason: MESSAGE_REFUSED, bookHref: null };
  return {
    conversationId: c.id,
    partner: { id: c.partnerId, fullName: c.fullName, avatarUrl: c.avatarUrl } satisfies Partner,
    messages: rows
      .slice(0, n)
      .reverse()
      .map(({ aboutFrom, aboutTo, aboutDate, aboutTime, ...m }) => ({
        ...m,
        about:
          aboutFrom && aboutTo && aboutDate && aboutTime
            ? { fromLocation: aboutFrom, toLocation: aboutTo, date: aboutDate, time: aboutTime }
            : null,
      })) as ChatMessage[],
    /** Where "Older messages" leads; null on the chat's first page. */
    olderCursor: oldest ? cursorParam(oldest.createdAt, oldest.id) : null,
    /** Whether this is an older page (not the newest messages, so live ones do not belong below). */
    isOlderPage: before !== null,
    access,
    also: alsoRead as unknown[],
  };
}

/**
 * Resolves `/dashboard/messages?to={userId}` (and `&ride={rideId}` from a ride's Contact): the
 * existing conversation with that user, or (when none exists yet) the partner and whether the
 * acting user may start one (the messaging rule's answer, with the ride it would name). The
 * page's other reads (`also`: the acting user's own lists) run in the same batch (ADR 0029).
 */
export async function findChatWith(
  { db }: ModelCtx,
  userId: string,
  otherId: string,
  rideId: string | null = null,
  now = Date.now(),
  also: AlsoReads = [],
) {
  if (otherId === userId) throw new NotFoundError("User not found");
  const conversationId = conversationIdFor(userId, otherId);
  const [person, ride, existing, ...alsoRead] = await db.batch([
    ...messagingFacts(db, userId, otherId, rideId, now),
    db.select({ id: conversations.id }).from(conversations).where(eq(conversations.id, conversationId)),
    ...also,
  ]);
  const partner = person[0];
  if (!partner) throw new NotFoundError("User not found");
  return {
    // A blocked pair's old chat is not reopened from a link: the pane shows the neutral refusal.
    conversationId: partner.blocked ? null : (existing[0]?.id ?? null),
    partner: { id: partner.id, fullName: partner.fullName, avatarUrl: partner.avatarUrl } satisfies Partner,
    access: decideMessaging(userId, partner, ride[0], now),
    also: alsoRead as unknown[],
  };
}
