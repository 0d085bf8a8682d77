import { SELF } from "cloudflare:test";
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { BASE, tableCounts } from "../support/worker";

function post(headers: Record<string, string>) {
  return SELF.fetch(`${BASE}/?index`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Host: "localhost", ...headers },
    body: new URLSearchParams({ email: "victim@example.com" }),
  });
}

describe("cross-site writes are refused before Remix runs", () => {
  it("refuses a POST with a foreign Origin and stores nothing", async () => {
    const before = await tableCounts();
    const res = await post({ Origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(await tableCounts()).toEqual(before);
    const row = await env.DB.prepare("SELECT count(*) AS n FROM newsletter_subscribers").first<{ n: number }>();
    expect(row?.n).toBe(0);
  });

  it("refuses a POST marked Sec-Fetch-Site: cross-site", async () => {
    const res = await post({ "Sec-Fetch-Site": "cross-site" });
    expect(res.status).toBe(403);
    const row = await env.DB.prepare("SELECT count(*) AS n FROM newsletter_subscribers").first<{ n: number }>();
    expect(row?.n).toBe(0);
  });

  it("refuses Origin: null (sandboxed or opaque origins)", async () => {
    expect((await post({ Origin: "null" })).status).toBe(403);
  });

  it("accepts the same request from the same origin", async () => {
    const res = await post({ Origin: BASE, "Sec-Fetch-Site": "same-origin" });
    expect(res.status).toBe(302);
    const row = await env.DB.prepare("SELECT count(*) AS n FROM newsletter_subscribers").first<{ n: number }>();
    expect(row?.n).toBe(1);
  });

  it("lets a cross-site GET through (GET never changes data)", async () => {
    const res = await SELF.fetch(`${BASE}/pricing`, { headers: { "Sec-Fetch-Site": "cross-site" } });
    expect(res.status).toBe(200);
  });
});
