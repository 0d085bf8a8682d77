import type { AppEnv } from "./env.server";
import type { AppLoadContext } from "@remix-run/cloudflare";
import { findConversationForMember } from "../models/conversations.server";
import { getSocketSession } from "../models/sessions.server";
import { readSessionId } from "./auth.server";
import type { Db } from "../models/db.server";

// WebSocket upgrades are routed here by server.ts before Remix runs. A socket reaches a
// Durable Object only after the session and the Origin have been checked. Each socket is
// tagged with its session id and carries the session's expiry: sign-out closes that
// session's sockets (closeSessionSockets) and the objects re-check sessions against D1
// periodically (durable-objects/socket-hub.ts), so no socket outlives its session.
export async function handleSocket(request: Request, env: AppEnv, db: Db): Promise<Response> {
  const url = new URL(request.url);
  const origin = request.headers.get("Origin");
  if (origin !== null && origin !== url.origin) return new Response("Forbidden origin", { status: 403 });
  const sessionId = await readSessionId(request, env);
  const session = sessionId ? await getSocketSession({ db }, sessionId) : null;
  if (!sessionId || !session) return new Response("Sign in required", { status: 401 });
  const userId = session.userId;

  const forward = (stub: DurableObjectStub) => {
    const headers = new Headers(request.headers);
    headers.set("X-LoopRide-User", userId);
    headers.set("X-LoopRide-Session", sessionId);
    headers.set("X-LoopRide-Session-Expires", String(session.expiresAt));
    return stub.fetch(new Request(request.url, { headers }));
  };

  if (url.pathname === "/ws/user") {
    return forward(env.USER_HUB.get(env.USER_HUB.idFromName(userId)));
  }
  const match = /^\/ws\/conversation\/([a-z0-9]{1,64})$/.exec(url.pathname);
  if (match) {
    const conversation = await findConversationForMember({ db }, userId, match[1]);
    if (!conversation) return new Response("Not found", { status: 404 });
    // The user's hub remembers the room first, so a sign-out racing this upgrade still finds it.
    await env.USER_HUB.get(env.USER_HUB.idFromName(userId)).noteRoom(sessionId, conversation.id, session.expiresAt);
    return forward(env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conversation.id)));
  }
  return new Response("Not found", { status: 404 });
}

type Ctx = Pick<AppLoadContext, "env">;

/**
 * Sign-out of one session: closes its sockets in the user's UserHub and in every
 * ConversationRoom it joined (the hub remembers which). Call it after the session row is
 * deleted, so a reconnect is refused. A Durable Object failure is logged, not thrown: the
 * objects' periodic session re-check closes the sockets later.
 */
export async function closeSessionSockets({ env }: Ctx, userId: string, sessionId: string): Promise<number> {
  try {
    return await env.USER_HUB.get(env.USER_HUB.idFromName(userId)).endSession(sessionId);
  } catch (e) {
    console.error("closing the session's sockets failed (the re-check will close them)", e);
    return 0;
  }
}
