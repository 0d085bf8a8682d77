import { describe, expect, it } from "vitest";
import { get } from "../helpers";

describe("/healthz (the benchmark's constant floor)", () => {
  it("answers a constant text/plain ok without a session and without touching D1", async () => {
    const res = await get("/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/plain/);
    expect(await res.text()).toBe("ok");
    // DEBUG_TIMING is on in the tests: the floor must make zero D1 round trips.
    expect(res.headers.get("Server-Timing")).toMatch(/queries=0 /);
  });
});
