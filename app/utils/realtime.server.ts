import { findConversationForMember } from "../models/conversations.server";
import { getSessionUser } from "../models/sessions.server";
import { readSessionId } from "./auth.server";
import type { Db } from "./db.server";

// WebSocket upgrades are routed here by server.ts before Remix runs. A socket reaches a
// Durable Object only after the session and the Origin have been checked.
export async function handleSocket(request: Request, env: Env, db: Db): Promise<Response> {
  const url = new URL(request.url);
  const origin = request.headers.get("Origin");
  if (origin !== null && origin !== url.origin) return new Response("Forbidden origin", { status: 403 });
  const sessionId = await readSessionId(request, env);
  const user = sessionId ? await getSessionUser({ db }, sessionId) : null;
  if (!user) return new Response("Sign in required", { status: 401 });

  const forward = (stub: DurableObjectStub) => {
    const headers = new Headers(request.headers);
    headers.set("X-LoopRide-User", user.id);
    return stub.fetch(new Request(request.url, { headers }));
  };

  if (url.pathname === "/ws/user") {
    return forward(env.USER_HUB.get(env.USER_HUB.idFromName(user.id)));
  }
  const match = /^\/ws\/conversation\/([a-z0-9]{1,64})$/.exec(url.pathname);
  if (match) {
    const conversation = await findConversationForMember({ db }, match[1], user.id);
    if (!conversation) return new Response("Not found", { status: 404 });
    return forward(env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(conversation.id)));
  }
  return new Response("Not found", { status: 404 });
}
