/** Response hardening applied by server.ts to every response it produces. */
export function applySecurityHeaders(response: Response, request: Request, nonce: string): Response {
  // Responses from fetch/upgrade may have immutable headers; copy when needed.
  if (response.status === 101 || response.webSocket) return response;
  const res = new Response(response.body, response);
  const h = res.headers;
  h.set("X-Content-Type-Options", "nosniff");
  // A page whose URL is a secret (a share-my-trip link) keeps its own no-referrer.
  if (h.get("Referrer-Policy") !== "no-referrer") h.set("Referrer-Policy", "strict-origin-when-cross-origin");
  h.set("X-Frame-Options", "DENY");
  if (new URL(request.url).protocol === "https:") {
    h.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains");
  }
  if (h.get("Content-Type")?.includes("text/html")) {
    // A route's own policy (the dev mailbox's sandbox) is kept, and this one is added as a
    // second policy: browsers enforce both, so a route can tighten the policy, never loosen it.
    h.append(
      "Content-Security-Policy",
      [
        "default-src 'self'",
        `script-src 'self' 'nonce-${nonce}'`,
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: https:",
        "connect-src 'self'",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self' https://accounts.google.com",
        "frame-ancestors 'none'",
      ].join("; "),
    );
  }
  return res;
}
