import { describe, expect, it } from "vitest";
import { BASE } from "../support/worker";
import { debugFetch } from "../support/worker-fetch";

describe("/healthz (the benchmark's constant floor)", () => {
  it("answers a constant text/plain ok without a session and without touching D1", async () => {
    const res = await debugFetch(`${BASE}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe("ok");
    // With D1 accounting on, the floor must report zero D1 round trips.
    expect(res.headers.get("Server-Timing")).toMatch(/queries=0 /);
  });
});
