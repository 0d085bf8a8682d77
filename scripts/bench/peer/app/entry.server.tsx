import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { renderToReadableStream } from "react-dom/server";

// The Remix template's Cloudflare entry: React's streaming render. Only its `isbot` check is left
// out (not a dependency here): the bench is no bot, so the template streams to it as here.
export const streamTimeout = 5_000;

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  _loadContext: AppLoadContext,
) {
  const controller = new AbortController();
  const timeoutId = setTimeout(() => controller.abort(), streamTimeout + 1000);
  const body = await renderToReadableStream(<RemixServer context={remixContext} url={request.url} />, {
    signal: controller.signal,
    onError(error: unknown) {
      if (!controller.signal.aborted) console.error(error);
      responseStatusCode = 500;
    },
  });
  body.allReady.then(() => clearTimeout(timeoutId));
  responseHeaders.set("Content-Type", "text/html");
  return new Response(body, { headers: responseHeaders, status: responseStatusCode });
}
