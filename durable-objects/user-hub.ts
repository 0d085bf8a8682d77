import type { HubEvent } from "./hub-events";
import { SocketHub } from "./socket-hub";

/** How many conversation rooms the hub remembers per session (most recent first). */
const ROOMS_PER_SESSION = 100;
const roomsKey = (sessionId: string) => `rooms:${sessionId}`;
type RoomsEntry = { rooms: string[]; expiresAt: number };

/**
 * One per user: badge counts and notification events for all of that user's tabs. It also
 * remembers which ConversationRooms each of the user's sessions opened a socket in, so a
 * sign-out closes that session's sockets in exactly those rooms (not in every conversation
 * the user has).
 */
export class UserHub extends SocketHub {
  async publish(event: HubEvent): Promise<number> {
    return this.send(event);
  }

  /** Called at every conversation socket upgrade, before the room accepts the socket. */
  async noteRoom(sessionId: string, conversationId: string, expiresAt: number): Promise<void> {
    const entry = (await this.ctx.storage.get<RoomsEntry>(roomsKey(sessionId))) ?? { rooms: [], expiresAt };
    const rooms = [conversationId, ...entry.rooms.filter((r) => r !== conversationId)].slice(0, ROOMS_PER_SESSION);
    await this.ctx.storage.put(roomsKey(sessionId), { rooms, expiresAt } satisfies RoomsEntry);
    // Lists of sessions that expired without a sign-out are dropped here, lazily.
    const now = Date.now();
    const entries = await this.ctx.storage.list<RoomsEntry>({ prefix: "rooms:", limit: 200 });
    const stale = [...entries]
      .filter(([, e]) => e.expiresAt <= now)
      .map(([k]) => k)
      .slice(0, 128);
    if (stale.length) await this.ctx.storage.delete(stale);
  }

  /**
   * Sign-out of one session: closes its sockets here and in every room it joined, and
   * forgets the rooms. Returns how many sockets were closed.
   */
  async endSession(sessionId: string): Promise<number> {
    const entry = await this.ctx.storage.get<RoomsEntry>(roomsKey(sessionId));
    const counts = await Promise.all([
      this.closeSession(sessionId),
      ...(entry?.rooms ?? []).map((room) =>
        this.env.CONVERSATION_ROOM.get(this.env.CONVERSATION_ROOM.idFromName(room)).closeSession(sessionId),
      ),
    ]);
    const closed = counts.reduce((a, b) => a + b, 0);
    await this.ctx.storage.delete(roomsKey(sessionId));
    return closed;
  }

  /** Every session of the user ended (e.g. a password reset): closes all their sockets. */
  async endAllSessions(userId: string): Promise<number> {
    const entries = await this.ctx.storage.list<RoomsEntry>({ prefix: "rooms:" });
    const rooms = new Set([...entries.values()].flatMap((e) => e.rooms));
    const counts = await Promise.all([
      this.closeUser(userId),
      ...[...rooms].map((room) =>
        this.env.CONVERSATION_ROOM.get(this.env.CONVERSATION_ROOM.idFromName(room)).closeUser(userId),
      ),
    ]);
    const closed = counts.reduce((a, b) => a + b, 0);
    const keys = [...entries.keys()];
    for (let i = 0; i < keys.length; i += 128) await this.ctx.storage.delete(keys.slice(i, i + 128));
    return closed;
  }
}
