import { DurableObject } from "cloudflare:workers";

// Shared WebSocket plumbing for both Durable Objects, on the Hibernation API: sockets are
// accepted with ctx.acceptWebSocket so an idle object can be evicted without dropping
// them. D1 is the system of record; these objects only fan out what was committed.
const PING = JSON.stringify({ type: "ping" });
const PONG = JSON.stringify({ type: "pong" });

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
    if (!userId) return new Response("Unauthenticated", { status: 401 });
    const { 0: client, 1: server } = new WebSocketPair();
    this.ctx.acceptWebSocket(server, [userId]);
    server.serializeAttachment({ userId });
    return new Response(null, { status: 101, webSocket: client });
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
