import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { postForm, signedInUser } from "../support/worker";

// Response hardening (issue 9, item 4): every HTML response has a CSP whose script nonce
// is new on every request and is the one the page's scripts carry; nosniff, a referrer
// policy and frame-ancestors 'none' everywhere; HSTS only when served over https.

const nonceOf = (csp: string | null) => /script-src 'self' 'nonce-([0-9a-f]{16,})'/.exec(csp ?? "")?.[1];

describe("security headers", () => {
  it("every HTML page has a CSP with a fresh per-request nonce that its scripts carry", async () => {
    const user = await signedInUser();
    const seen = new Set<string>();
    for (const path of [
      "/",
      "/login",
      "/pricing",
      "/rides",
      "/communities",
      "/dashboard",
      "/dashboard/profile",
      "/no-such-page",
    ]) {
      for (let i = 0; i < 2; i++) {
        const res = await SELF.fetch(`http://localhost${path}`, { headers: { Cookie: user.cookie } });
        expect(res.headers.get("Content-Type"), path).toContain("text/html");
        const csp = res.headers.get("Content-Security-Policy");
        const nonce = nonceOf(csp);
        expect(nonce, `${path}: ${csp}`).toBeTruthy();
        expect(seen.has(nonce!), `nonce reused on ${path}`).toBe(false);
        seen.add(nonce!);
        expect(csp).toContain("frame-ancestors 'none'");
        expect(csp).toContain("object-src 'none'");
        expect(csp).toContain("base-uri 'self'");
        expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
        const html = await res.text();
        const scripts = html.match(/<script\b[^>]*>/g) ?? [];
        expect(scripts.length, path).toBeGreaterThan(0);
        for (const tag of scripts) expect(tag, path).toContain(`nonce="${nonce}"`);
        expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
        expect(res.headers.get("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
        expect(res.headers.get("X-Frame-Options")).toBe("DENY");
        expect(res.headers.get("Strict-Transport-Security"), "no HSTS over plain http").toBeNull();
      }
    }
  });

  it("sends HSTS when served over https", async () => {
    const res = await SELF.fetch("https://localhost/pricing");
    expect(res.status).toBe(200);
    expect(res.headers.get("Strict-Transport-Security")).toMatch(/max-age=\d{8,}; includeSubDomains/);
    expect(nonceOf(res.headers.get("Content-Security-Policy"))).toBeTruthy();
  });

  it("non-HTML answers (data requests, refusals) are nosniff too", async () => {
    const data = await SELF.fetch("http://localhost/pricing.data");
    expect(data.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const refused = await SELF.fetch("http://localhost/?index", {
      method: "POST",
      body: JSON.stringify({ email: "a@b.in" }),
      headers: { "Content-Type": "application/json", Origin: "http://localhost", Host: "localhost" },
    });
    expect(refused.status).toBe(415);
    expect(await refused.text()).toMatch(/x-www-form-urlencoded/);
    expect(refused.headers.get("X-Content-Type-Options")).toBe("nosniff");
    // A form the server cannot read (boundary mismatch) is a 400 with a message, not a 500.
    const broken = await SELF.fetch("http://localhost/?index", {
      method: "POST",
      body: '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\nhalf',
      headers: { "Content-Type": "multipart/form-data; boundary=y", Origin: "http://localhost", Host: "localhost" },
    });
    expect(broken.status).toBe(400);
    expect(await broken.text()).toMatch(/could not be read/);
    // The same form as a real form still works.
    expect((await postForm("/?index", { email: "reader@example.in" })).status).toBe(302);
  });
});
