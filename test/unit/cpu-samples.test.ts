import { describe, expect, it } from "vitest";
import {
  cpuOfProfile,
  moduleOf,
  splitProfile,
  summarize,
  type CallFrame,
  type Profile,
} from "../../scripts/bench/cpu-samples.mjs";

// The bench's CPU arithmetic (issue 17, ADR 0027) on made-up profiles: what counts as CPU,
// which sample a gap belongs to, the cap on one sample, percentiles and the package summary.

const frame = (functionName: string, url = "", lineNumber = -1): CallFrame => ({
  functionName,
  url,
  lineNumber,
  columnNumber: 0,
});
const NODES = [
  { id: 1, callFrame: frame("(root)") },
  { id: 2, callFrame: frame("(idle)") },
  { id: 3, callFrame: frame("render", "server.js", 10) },
  { id: 4, callFrame: frame("(garbage collector)") },
  { id: 5, callFrame: frame("(program)") },
];

/** A profile from [node id, ms until the next sample] pairs. */
function profile(steps: [number, number][]): Profile {
  const samples = steps.map(([id]) => id);
  // timeDeltas[i] is the time from sample i-1 to sample i (the first from the start).
  const timeDeltas = [0, ...steps.slice(0, -1).map(([, ms]) => ms * 1000)];
  const span = steps.reduce((a, [, ms]) => a + ms, 0) * 1000;
  return { nodes: NODES, startTime: 0, endTime: span, samples, timeDeltas };
}

describe("CPU of one profiled request", () => {
  it("counts JavaScript, GC and native samples, not idle time, and gives a gap to the sample before it", () => {
    const p = profile([
      [2, 50], // waiting on D1: idle
      [3, 0.1],
      [3, 0.1],
      [4, 0.25],
      [5, 0.2],
      [2, 30], // waiting again
      [3, 0.1],
    ]);
    const { cpuMs, functions } = cpuOfProfile(p);
    // 0.1 + 0.1 + 0.25 + 0.2 + the last sample's one interval (0.1).
    expect(cpuMs).toBeCloseTo(0.75, 5);
    expect(functions.get("render (server.js:11)")).toBeCloseTo(0.3, 5);
    expect(functions.has("(idle)")).toBe(false);
    expect(functions.get("(garbage collector)")).toBeCloseTo(0.25, 5);
  });

  it("a long gap after a JavaScript sample counts at most 0.25 ms (the thread was not running the isolate)", () => {
    const { cpuMs } = cpuOfProfile(
      profile([
        [3, 40],
        [2, 10],
        [3, 0.1],
      ]),
    );
    expect(cpuMs).toBeCloseTo(0.35, 5);
    // A sampler a little late (0.2 ms) still counts in full.
    expect(
      cpuOfProfile(
        profile([
          [3, 0.2],
          [3, 0.1],
        ]),
      ).cpuMs,
    ).toBeCloseTo(0.3, 5);
  });

  it("a request that only waits costs no CPU however long it waits", () => {
    expect(
      cpuOfProfile(
        profile([
          [2, 100],
          [2, 250],
        ]),
      ).cpuMs,
    ).toBe(0);
  });
});

describe("one profile split per request (issue 40)", () => {
  // Three requests sent at 0, 10 and 30 ms of the profile's clock (startTime 0, µs marks).
  const marks = [0, 10_000, 30_000];
  const p = profile([
    [3, 0.1],
    [3, 0.2],
    [4, 9.7], // the first request's last sample: the isolate then waited until 10 ms
    [2, 0.5], // the second request starts with the isolate idle
    [3, 0.1],
    [5, 19.4], // its last sample before the third request
    [3, 0.1],
    [3, 0.1],
  ]);

  it("gives each sample to the last request sent at or before it, counting a request's last sample one interval", () => {
    const parts = splitProfile(p, marks);
    expect(parts.map((x) => x.cpuMs)).toEqual([
      expect.closeTo(0.1 + 0.2 + 0.1, 5),
      expect.closeTo(0.1 + 0.1, 5),
      expect.closeTo(0.1 + 0.1, 5),
    ]);
    expect(parts[0].functions.get("(garbage collector)")).toBeCloseTo(0.1, 5);
    expect(parts[1].functions.get("render (server.js:11)")).toBeCloseTo(0.1, 5);
  });

  it("answers as one profile per request would (the CPU pass's method before)", () => {
    const alone = [
      profile([
        [3, 0.1],
        [3, 0.2],
        [4, 0.1],
      ]),
      profile([
        [2, 0.5],
        [3, 0.1],
        [5, 0.1],
      ]),
      profile([
        [3, 0.1],
        [3, 0.1],
      ]),
    ].map((one) => cpuOfProfile(one));
    const split = splitProfile(p, marks);
    for (const [i, one] of alone.entries()) {
      expect(split[i].cpuMs).toBeCloseTo(one.cpuMs, 5);
      expect([...split[i].functions.keys()].sort()).toEqual([...one.functions.keys()].sort());
    }
  });

  it("samples before the first request belong to none", () => {
    const parts = splitProfile(
      profile([
        [3, 5],
        [3, 0.1],
      ]),
      [5_000],
    );
    expect(parts).toHaveLength(1);
    expect(parts[0].cpuMs).toBeCloseTo(0.1, 5);
  });
});

describe("per page summary", () => {
  it("p50/p99 over the requests, top functions by self time per request, packages", () => {
    const cpu = Array.from({ length: 30 }, (_, i) => i + 1); // 1..30 ms
    const functions = new Map([
      ["u (react-dom/cjs/react-dom-server.browser.production.min.js:11)", 150],
      ["is (drizzle-orm/src/entity.ts:12)", 90],
      ["p (react-dom/cjs/react-dom-server.browser.production.min.js:11)", 60],
      ["loader (app/routes/_app.rides._index.tsx:20)", 30],
      ["(garbage collector)", 15],
      ["encode", 6],
    ]);
    const s = summarize({ cpu, wall: cpu.map((x) => x * 3), functions });
    expect(s.cpuP50).toBe(15);
    expect(s.cpuP99).toBe(30);
    expect(s.cpuMean).toBe(15.5);
    expect(s.wallP50).toBe(45);
    expect(s.top.map((t) => t.fn)).toEqual([
      "u (react-dom/cjs/react-dom-server.browser.production.min.js:11)",
      "is (drizzle-orm/src/entity.ts:12)",
      "p (react-dom/cjs/react-dom-server.browser.production.min.js:11)",
      "loader (app/routes/_app.rides._index.tsx:20)",
      "(garbage collector)",
    ]);
    expect(s.top[0].msPerRequest).toBe(5);
    expect(s.byModule[0]).toEqual({ module: "react-dom", msPerRequest: 7, share: 45 });
    expect(s.byModule.map((m) => m.module)).toEqual([
      "react-dom",
      "drizzle-orm",
      "app/routes",
      "(garbage collector)",
      "runtime (native)",
    ]);
  });

  it("names packages, app folders and runtime frames", () => {
    expect(moduleOf("x (@remix-run/router/dist/router.js:817)")).toBe("@remix-run/router");
    expect(moduleOf("f (app/models/rides.server.ts:40)")).toBe("app/models");
    expect(moduleOf("g (cloudflare-internal:d1-api:5)")).toBe("cloudflare-internal:d1-api");
    expect(moduleOf("fetch")).toBe("runtime (native)");
    expect(moduleOf("(program)")).toBe("(program)");
  });
});
