import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import type { ReactElement } from "react";
import { renderToReadableStream, renderToString } from "react-dom/server";
import { NonceContext } from "./components/nonce";

// How long Remix's single fetch waits for deferred data before it aborts the encoding. LoopRide
// defers nothing (pages are rendered whole, below), yet each response keeps one such timer alive
// until it fires: at the default 4,950 ms the fuzzer's fast requests reached workerd's limit of
// 10,000 active timeouts ("QuotaExceededError"). One second is ample for data already read.
export const streamTimeout = 1000;

// Pages are whole documents, never streamed: they must be complete without JavaScript. So the
// page is rendered to a string once its data is read (ADR 0047): React's streaming render and
// its chunking cost 15-20 % of a page's CPU for the same bytes.
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const page = await renderWhole(request, remixContext, loadContext);
  let html: string | ReadableStream;
  if (page.suspended) {
    // Something read data only while rendering (an <Await> of a promise the loader returned):
    // the string render sent its fallback instead. The streaming render waits for it, so the
    // page stays right, at the old cost; the render test fails on such a page.
    console.error(`rendered by streaming: a read suspended the string render of ${new URL(request.url).pathname}`);
    // The string render's <RemixServer> holds the drained handoff stream's lock; the chunks
    // are all in the cache, so a new empty stream is never read.
    const again = { ...remixContext, serverHandoffStream: remixContext.serverHandoffStream && new ReadableStream() };
    const streamed = await renderStreamed(request, again, loadContext);
    if (streamed.failed) responseStatusCode = 500;
    html = streamed.body;
  } else {
    html = page.html;
  }
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(html, { headers: responseHeaders, status: responseStatusCode });
}

function document(request: Request, remixContext: EntryContext, loadContext: AppLoadContext): ReactElement {
  return (
    <NonceContext.Provider value={loadContext.nonce}>
      <RemixServer context={remixContext} url={request.url} nonce={loadContext.nonce} />
    </NonceContext.Provider>
  );
}

type Chunk = { done: boolean; value: string };
type CachedRead = Promise<void> & { result?: Chunk; error?: unknown };

/**
 * The page as one string. `suspended` says a Suspense boundary was left to its fallback.
 *
 * The loader data goes to the browser as a turbo-stream that Remix's <StreamTransfer> reads
 * chunk by chunk, suspending on each read. Read here first, into the cache it reads from
 * (`renderMeta.streamCache`, one decoder as it uses), nothing suspends and the markup is the
 * streaming render's, byte for byte (test/integration/render-to-string.test.ts).
 */
export async function renderWhole(
  request: Request,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<{ html: string; suspended: boolean }> {
  const stream = remixContext.serverHandoffStream;
  if (stream) {
    const cache: Record<number, CachedRead> = {};
    const reader = stream.getReader();
    const decoder = new TextDecoder();
    for (let i = 0; ; i++) {
      const settled: CachedRead = Promise.resolve();
      cache[i] = settled;
      try {
        const read = await reader.read();
        settled.result = { done: read.done, value: decoder.decode(read.value, { stream: true }) };
        if (read.done) break;
      } catch (error) {
        // As <StreamTransfer> keeps it: it throws the error where the chunk would go.
        settled.error = error;
        break;
      }
    }
    reader.releaseLock();
    remixContext.renderMeta = { ...remixContext.renderMeta, streamCache: cache };
  }
  const body = renderToString(document(request, remixContext, loadContext));
  // A boundary whose content did not finish is sent as "<!--$!-->" plus its fallback. Text
  // and attribute values are escaped, so the marker cannot come from the page's data.
  return { html: `<!DOCTYPE html>${body}`, suspended: body.includes("<!--$!-->") };
}

/** React's streaming render, whole before it is sent: the fallback of renderWhole. */
export async function renderStreamed(request: Request, remixContext: EntryContext, loadContext: AppLoadContext) {
  let failed = false;
  const body = await renderToReadableStream(document(request, remixContext, loadContext), {
    nonce: loadContext.nonce,
    signal: request.signal,
    onError(error: unknown) {
      if (!request.signal.aborted) console.error(error);
      failed = true;
    },
  });
  await body.allReady;
  return { body, failed };
}
