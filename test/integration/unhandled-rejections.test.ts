import { describe, expect, it } from "vitest";
import { stillUnhandled } from "../setup/unhandled-rejections";

// The harness's own rule (test/setup/unhandled-rejections.ts): a rejection handled a
// microtask later is not an error; one nobody handles is.
describe("unhandled rejections", () => {
  it("a rejection handled a microtask later is forgotten", async () => {
    const p = Promise.reject(new Error("adopted late"));
    await Promise.resolve();
    await p.catch(() => undefined);
    expect(await stillUnhandled()).toEqual([]);
  });

  it("a rejection nobody handles is kept until it is handled", async () => {
    const p = Promise.reject(new Error("nobody handles this"));
    const kept = await stillUnhandled();
    expect(kept.map((r) => (r as Error).message)).toContain("nobody handles this");
    // Handled now, so the harness forgets it and this test passes.
    await p.catch(() => undefined);
    expect(await stillUnhandled()).toEqual([]);
  });
});
