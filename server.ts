import { createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// @ts-ignore The Remix server build exists only after `npm run build`.
import * as build from "./build/server";
import { randomToken } from "./app/domain/ids";
import { createDb } from "./app/utils/db.server";
import { isCrossSiteWrite } from "./app/utils/origin.server";
import { handleSocket } from "./app/utils/realtime.server";
import { applySecurityHeaders } from "./app/utils/security-headers.server";

export { ConversationRoom } from "./durable-objects/conversation-room";
export { UserHub } from "./durable-objects/user-hub";

const handleRemix = createRequestHandler(build as unknown as ServerBuild);

export default {
  async fetch(request, env, ctx) {
    // CSRF: refuse cross-site writes before any app code runs.
    if (isCrossSiteWrite(request)) {
      return new Response("Cross-site request refused", { status: 403, headers: { "Content-Type": "text/plain" } });
    }
    const db = createDb(env.DB);
    if (request.headers.get("Upgrade")?.toLowerCase() === "websocket") {
      return handleSocket(request, env, db);
    }
    const nonce = randomToken(128);
    const response = await handleRemix(request, { env, ctx, db, nonce });
    return applySecurityHeaders(response, request, nonce);
  },
} satisfies ExportedHandler<Env>;
