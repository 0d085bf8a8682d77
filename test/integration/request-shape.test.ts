// Issue 34, finding 10: requests whose shape Remix cannot handle are refused with a 4xx
// before Remix runs, never a 500: a GET or HEAD with a body (no browser sends one), and a
// write whose X-Forwarded-Host (which Remix compares with Origin) names another host.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import worker from "../../server";
import { BASE, postForm, signedInUser } from "../support/worker";
import { workerFetch } from "../support/worker-fetch";

/**
 * A GET or HEAD as the network delivers it with a body. workerd's Request constructor
 * refuses to make one, but an incoming request has one (wrangler dev, the edge); the worker
 * and Remix read it as `request.body`, which is what is set here. Sent straight to the
 * worker's fetch handler: workerFetch would copy the request and lose the body.
 */
async function withBody(method: string, path: string): Promise<Response> {
  const request = new Request(`${BASE}${path}`, {
    method,
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
  });
  Object.defineProperty(request, "body", { value: new Response("x=1").body });
  const ctx = createExecutionContext();
  const res = await worker.fetch(
    request as Parameters<typeof worker.fetch>[0],
    env as Parameters<typeof worker.fetch>[1],
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

describe("a GET or HEAD with a body", () => {
  for (const method of ["GET", "HEAD"]) {
    for (const path of ["/healthz", "/", "/pricing", "/rides"]) {
      it(`${method} ${path} with a body is a 400, not a 500`, async () => {
        const res = await withBody(method, path);
        expect(res.status).toBe(400);
        if (method === "GET") expect(await res.text()).toMatch(/body/);
        expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
      });
    }
  }

  it("the same requests without a body still answer", async () => {
    expect((await workerFetch(new Request(`${BASE}/healthz`))).status).toBe(200);
    expect((await workerFetch(new Request(`${BASE}/healthz`, { method: "HEAD" }))).status).toBe(200);
  });
});

describe("X-Forwarded-Host on a write", () => {
  const count = async () =>
    (await env.DB.prepare("SELECT count(*) AS n FROM newsletter_subscribers").first<{ n: number }>())!.n;

  it("a POST whose X-Forwarded-Host differs from its Origin is refused with 403 and changes nothing", async () => {
    const res = await postForm(
      "/?index",
      { email: "victim@example.com" },
      { headers: { "X-Forwarded-Host": "evil.example" } },
    );
    expect(res.status).toBe(403);
    expect(await res.text()).toBe("Cross-site request refused");
    expect(await count()).toBe(0);
  });

  it("so is a Host header that differs from the Origin, and a signed-in action", async () => {
    expect(
      (await postForm("/?index", { email: "victim@example.com" }, { headers: { Host: "evil.example" } })).status,
    ).toBe(403);
    const user = await signedInUser();
    const res = await postForm(
      "/dashboard/profile",
      { intent: "referral-code" },
      { cookie: user.cookie, headers: { "X-Forwarded-Host": "evil.example, localhost" } },
    );
    expect(res.status).toBe(403);
    expect(await count()).toBe(0);
  });

  it("a matching X-Forwarded-Host (a proxy that keeps the host) is accepted", async () => {
    const res = await postForm(
      "/?index",
      { email: "reader@example.com" },
      { headers: { "X-Forwarded-Host": new URL(BASE).host } },
    );
    expect(res.status).toBe(302);
    expect(await count()).toBe(1);
  });
});
