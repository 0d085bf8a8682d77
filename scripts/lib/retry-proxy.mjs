// The browser journeys reach `wrangler dev` through this small proxy. wrangler answers a
// request with a 503 "Your worker restarted mid-request" when its own proxy cannot reach the
// worker: after a reload, and (wrangler 4.72 compares a request's full URL with the worker's
// origin, so for any path but "/") after any connection failure between its two workerd
// processes. It retries GET and HEAD itself, never a POST. That is the dev server, not the
// app, so this proxy sends such a request once more, and says so on stderr. Every other
// answer, a 5xx from the app included, passes through untouched. WebSocket upgrades are
// piped both ways.
import http from "node:http";
import net from "node:net";
import zlib from "node:zlib";

const RESTARTED = "Your worker restarted mid-request";

/**
 * Whether wrangler answered "Your worker restarted mid-request". wrangler compresses that
 * answer when the client accepts it (browsers and Node's fetch do), so the body is decoded
 * before it is read; what the client receives is the answer as it came.
 */
export function isRestartAnswer({ status, headers, body }) {
  if (status !== 503) return false;
  let text = body;
  try {
    const encoding = String(headers["content-encoding"] ?? "").trim().toLowerCase();
    if (encoding === "gzip" || encoding === "x-gzip") text = zlib.gunzipSync(body);
    else if (encoding === "br") text = zlib.brotliDecompressSync(body);
    else if (encoding === "deflate") text = zlib.inflateSync(body);
  } catch {
    return false;
  }
  return text.includes(RESTARTED);
}

function forward(target, req, body) {
  return new Promise((resolve, reject) => {
    // A fresh connection per request (agent: false): a kept-alive one that wrangler closes just as
    // it is reused would fail the request with ECONNRESET.
    const upstream = http.request({ host: "127.0.0.1", port: target, method: req.method, path: req.url, headers: req.headers, agent: false }, (res) => {
      const parts = [];
      res.on("data", (c) => parts.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(parts) }));
      res.on("error", reject);
    });
    upstream.on("error", reject);
    upstream.end(body);
  });
}

/** Listens on `port` and forwards to wrangler on `target` (both on 127.0.0.1). */
export function startRetryProxy(port, target, log = (m) => console.error(m)) {
  const server = http.createServer(async (req, res) => {
    try {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const body = Buffer.concat(chunks);
      let answer = await forward(target, req, body);
      if (isRestartAnswer(answer)) {
        log(`[${new Date().toISOString()}] e2e proxy: ${req.method} ${req.url} met a worker restart; sent once more`);
        await new Promise((r) => setTimeout(r, 500));
        answer = await forward(target, req, body);
      }
      const headers = { ...answer.headers };
      delete headers["transfer-encoding"];
      headers["content-length"] = String(answer.body.length);
      res.writeHead(answer.status, headers);
      res.end(answer.body);
    } catch {
      // wrangler not listening yet (start-up) or gone: the readiness check polls again.
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end("e2e proxy: wrangler dev is not answering");
    }
  });
  server.on("upgrade", (req, socket, head) => {
    const upstream = net.connect(target, "127.0.0.1", () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      upstream.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head?.length) upstream.write(head);
      socket.pipe(upstream).pipe(socket);
    });
    const close = () => {
      socket.destroy();
      upstream.destroy();
    };
    upstream.on("error", close);
    socket.on("error", close);
    upstream.on("close", close);
    socket.on("close", close);
  });
  // Node closes a kept-alive client connection after 5 s idle; a test's API client that reused
  // one at that moment got "socket hang up (ECONNRESET)". Idle connections stay open instead.
  server.keepAliveTimeout = 15 * 60_000;
  server.headersTimeout = 15 * 60_000 + 1_000;
  server.listen(port, "127.0.0.1");
  return server;
}
