import { type AppLoadContext, createRequestHandler, type ServerBuild } from "@remix-run/cloudflare";
// @ts-ignore The peer's Remix build exists only once the bench has built it.
import * as build from "./build/server";
import { limitPage } from "./limit";

// The bench's peer worker (ADR 0060): "/" is the stock Remix page (the floor), "/limit" the
// same markup from template strings, "/healthz" a constant.
const handleRemix = createRequestHandler(build as unknown as ServerBuild);

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === "/limit") return limitPage(env.DB);
    if (pathname === "/healthz") return new Response("ok");
    return handleRemix(request, { env, ctx } as unknown as AppLoadContext);
  },
} satisfies ExportedHandler<{ DB: D1Database }>;
