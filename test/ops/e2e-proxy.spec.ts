// The browser journeys' proxy in front of `wrangler dev` (scripts/lib/retry-proxy.mjs), against
// a stand-in upstream that answers the way wrangler 4.72 does. CI once failed on a sign-up POST
// that met wrangler's "Your worker restarted mid-request" and was not sent again: wrangler had
// gzipped that answer, as it does for any client that accepts gzip, and the proxy read the
// compressed bytes. Node-side, no browser.
import { expect, test } from "@playwright/test";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { freePort } from "../../scripts/lib/server.mjs";
import { startRetryProxy } from "../../scripts/lib/retry-proxy.mjs";

const RESTARTED = "Your worker restarted mid-request. Please try sending the request again. Only GET or HEAD requests are retried automatically.";

type Answer = { status: number; headers: Record<string, string>; body: string | Buffer };

/** An upstream that answers each request with the next scripted answer and records what it got. */
async function upstream(answers: Answer[]) {
  const seen: Array<{ method: string; url: string; body: string }> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, body });
      const a = answers[Math.min(seen.length - 1, answers.length - 1)];
      res.writeHead(a.status, a.headers);
      res.end(a.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, seen, port: (server.address() as AddressInfo).port };
}

async function through(answers: Answer[]) {
  const up = await upstream(answers);
  const port = await freePort();
  const logged: string[] = [];
  const proxy = startRetryProxy(port, up.port, (m) => logged.push(m));
  await new Promise((r) => proxy.once("listening", r));
  // Node's fetch sends Accept-Encoding: gzip, deflate, as Chromium sends gzip and more.
  const res = await fetch(`http://127.0.0.1:${port}/signup`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "fullName=Asha",
  });
  const text = await res.text();
  proxy.close();
  up.server.close();
  return { res, text, seen: up.seen, logged };
}

const restart = (encoded: boolean): Answer =>
  encoded
    ? { status: 503, headers: { "content-type": "text/plain;charset=UTF-8", "content-encoding": "gzip", "retry-after": "0" }, body: gzipSync(RESTARTED) }
    : { status: 503, headers: { "content-type": "text/plain;charset=UTF-8", "retry-after": "0" }, body: RESTARTED };
const redirect: Answer = { status: 302, headers: { location: "/onboarding" }, body: "" };

for (const encoded of [true, false]) {
  test(`a POST that meets wrangler's restart answer (${encoded ? "gzipped" : "plain"}) is sent once more, with its body, and said so`, async () => {
    const { res, seen, logged } = await through([restart(encoded), redirect]);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/onboarding");
    expect(seen).toEqual([
      { method: "POST", url: "/signup", body: "fullName=Asha" },
      { method: "POST", url: "/signup", body: "fullName=Asha" },
    ]);
    expect(logged.join("\n")).toContain("POST /signup met a worker restart; sent once more");
  });
}

test("a POST is sent once more at most: a second restart answer reaches the client", async () => {
  const { res, text, seen } = await through([restart(true), restart(true), redirect]);
  expect(res.status).toBe(503);
  expect(text).toBe(RESTARTED);
  expect(seen).toHaveLength(2);
});

test("the app's own 503, gzipped, passes through untouched and is not sent again", async () => {
  const body = "Service temporarily unavailable: try again in a minute.";
  const { res, text, seen, logged } = await through([
    { status: 503, headers: { "content-type": "text/plain", "content-encoding": "gzip" }, body: gzipSync(body) },
    redirect,
  ]);
  expect(res.status).toBe(503);
  expect(text).toBe(body);
  expect(seen).toHaveLength(1);
  expect(logged).toEqual([]);
});
