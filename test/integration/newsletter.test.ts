import { env } from "../support/env";
import { describe, expect, it } from "vitest";
import { awayFromMinuteBoundary, postForm } from "../support/worker";

const subscribers = async () =>
  (
    await env.DB.prepare("SELECT email FROM newsletter_subscribers ORDER BY email").all<{ email: string }>()
  ).results.map((r) => r.email);

describe("newsletter sign-up on the landing page", () => {
  it("stores an address once, however often it is submitted", async () => {
    const first = await postForm("/?index", { email: "Commuter@Example.com" });
    expect(first.status).toBe(302);
    expect(first.headers.get("Location")).toBe("/#newsletter");
    expect(first.headers.get("Set-Cookie")).toContain("lr_toast=");
    await postForm("/?index", { email: "commuter@example.com " });
    expect(await subscribers()).toEqual(["commuter@example.com"]);
  });

  it("answers an invalid address with a message and stores nothing", async () => {
    const res = await postForm("/?index", { email: "not-an-email" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Please enter a valid e-mail address");
    expect(await subscribers()).toEqual([]);
  });

  it("quietly drops a submission that filled the honeypot", async () => {
    const res = await postForm("/?index", { email: "bot@example.com", website: "http://spam.example" });
    expect(res.status).toBe(302);
    expect(await subscribers()).toEqual([]);
  });

  it("rate limits a client address after 10 attempts a minute", async () => {
    awayFromMinuteBoundary();
    const headers = { "CF-Connecting-IP": "203.0.113.9" };
    for (let i = 0; i < 10; i++) {
      expect((await postForm("/?index", { email: `a${i}@example.com` }, { headers })).status).toBe(302);
    }
    const res = await postForm("/?index", { email: "late@example.com" }, { headers });
    expect(res.status).toBe(429);
    expect(await res.text()).toContain("Too many attempts");
    expect(await subscribers()).not.toContain("late@example.com");
    // Another address is not affected.
    expect(
      (await postForm("/?index", { email: "other@example.com" }, { headers: { "CF-Connecting-IP": "203.0.113.10" } }))
        .status,
    ).toBe(302);
  });
});
