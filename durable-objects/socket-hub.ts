import { DurableObject } from "cloudflare:workers";
import { liveSessions } from "../app/models/sessions.server";
import { createDb } from "../app/models/db.server";

// Shared WebSocket plumbing for both Durable Objects, on the Hibernation API: sockets are
// accepted with ctx.acceptWebSocket so an idle object can be evicted without dropping
// them. D1 is the system of record; these objects only fan out what was committed.
const PING = JSON.stringify({ type: "ping" });
const PONG = JSON.stringify({ type: "pong" });

/** Close code for "your session ended" (sign-out, expiry): the browser stops reconnecting. */
export const SESSION_ENDED = 4001;
/** How often a hub with open sockets re-validates their sessions against D1. */
export const SESSION_RECHECK_MS = 5 * 60_000;

/** Each socket is tagged with its user id and its session's tag, and carries this attachment. */
export type SocketAttachment = { userId: string; sessionId: string; expiresAt: number };
export const sessionTag = (sessionId: string) => `s:${sessionId}`;

export abstract class SocketHub extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Keep-alive pings are answered by the runtime without waking a hibernating object.
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair(PING, PONG));
  }

  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const userId = request.headers.get("X-LoopRide-User");
    const sessionId = request.headers.get("X-LoopRide-Session");
    const expiresAt = Number(request.headers.get("X-LoopRide-Session-Expires"));
    if (!userId || !sessionId || !Number.isFinite(expiresAt)) return new Response("Unauthenticated", { status: 401 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [userId, sessionTag(sessionId)]);
    server.serializeAttachment({ userId, sessionId, expiresAt } satisfies SocketAttachment);
    await this.scheduleRecheck(Math.min(expiresAt, Date.now() + SESSION_RECHECK_MS));
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Closes every socket of one session (sign-out). Returns how many were open. */
  async closeSession(sessionId: string): Promise<number> {
    return closeAll(this.ctx.getWebSockets(sessionTag(sessionId)));
  }

  /** Closes every socket of one user (every session of theirs ended). */
  async closeUser(userId: string): Promise<number> {
    return closeAll(this.ctx.getWebSockets(userId));
  }

  private async scheduleRecheck(at: number) {
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(at);
  }

  /**
   * The periodic re-check: every open socket's session must still exist in D1 and be
   * unexpired, otherwise the socket is closed. Runs at the earliest expiry of an open socket
   * and at least every SESSION_RECHECK_MS while sockets are open (so a session ended by a
   * path that did not close its sockets is caught too); with no sockets it stops.
   */
  async alarm() {
    const sockets = this.ctx.getWebSockets();
    if (sockets.length === 0) return;
    const now = Date.now();
    const attached = sockets.map((ws) => ({ ws, a: ws.deserializeAttachment() as SocketAttachment | null }));
    const ids = [...new Set(attached.flatMap(({ a }) => (a?.sessionId ? [a.sessionId] : [])))];
    let live: Map<string, number>;
    try {
      live = await liveSessions({ db: createDb(this.env.DB) }, ids, now);
    } catch (e) {
      // D1 unavailable: try again soon rather than closing everyone or no one forever.
      console.error("session re-check failed", e);
      await this.ctx.storage.setAlarm(now + 30_000);
      return;
    }
    let next = now + SESSION_RECHECK_MS;
    for (const { ws, a } of attached) {
      const expiresAt = a ? live.get(a.sessionId) : undefined;
      if (expiresAt === undefined || expiresAt <= now) closeAll([ws]);
      else next = Math.min(next, expiresAt);
    }
    if (this.ctx.getWebSockets().length > 0) await this.ctx.storage.setAlarm(next);
  }

  /** Sends a frame to every open socket (optionally only those of one user). Returns how many. */
  protected send(frame: unknown, onlyUserId?: string): number {
    const text = JSON.stringify(frame);
    const sockets = onlyUserId ? this.ctx.getWebSockets(onlyUserId) : this.ctx.getWebSockets();
    let sent = 0;
    for (const ws of sockets) {
      try {
        ws.send(text);
        sent++;
      } catch {
        // A socket closing under us is not an error for the sender.
      }
    }
    return sent;
  }

  connectionCount(): number {
    return this.ctx.getWebSockets().length;
  }

  async webSocketMessage(ws: WebSocket, message: string | ArrayBuffer) {
    // The only frame a browser may send is a small JSON ping; anything else is refused.
    if (typeof message !== "string" || message.length > 256) {
      ws.close(1003, "Unsupported frame");
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(message);
    } catch {
      ws.close(1003, "Malformed frame");
      return;
    }
    if (parsed && typeof parsed === "object" && (parsed as { type?: unknown }).type === "ping") {
      ws.send(JSON.stringify({ type: "pong" }));
      return;
    }
    ws.close(1003, "Unknown frame");
  }

  async webSocketClose(ws: WebSocket, code: number, reason: string) {
    // 1005/1006 are reserved and must not be echoed back.
    try {
      ws.close(code === 1005 || code === 1006 ? 1000 : code, reason);
    } catch {
      // Already closed.
    }
  }

  async webSocketError(ws: WebSocket) {
    try {
      ws.close(1011, "Socket error");
    } catch {
      // Already closed.
    }
  }
}

function closeAll(sockets: WebSocket[]): number {
  for (const ws of sockets) {
    try {
      ws.close(SESSION_ENDED, "Session ended");
    } catch {
      // Already closed.
    }
  }
  return sockets.length;
}
