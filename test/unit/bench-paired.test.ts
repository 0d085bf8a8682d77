import { describe, expect, it } from "vitest";
import { pairedRatio } from "../../scripts/bench/paired.mjs";

// The toolchains' comparison calls "new" slower only when the 95 % interval of its same-round
// ratios lies wholly above 1 (docs/PERFORMANCE.md, "Old and new toolchain, same run").

describe("pairedRatio", () => {
  it("takes the interval from the order statistics n/2 ± 0.98·√n", () => {
    // 100 ratios 0.51 ... 1.50: k = floor(50 - 9.8) = 40, so the 41st and the 60th.
    const pairs = Array.from({ length: 100 }, (_, i) => 0.5 + (i + 1) / 100).reverse();
    const r = pairedRatio(pairs);
    expect(r.n).toBe(100);
    expect(r.median).toBeCloseTo(1.01);
    expect(r.low).toBeCloseTo(0.91);
    expect(r.high).toBeCloseTo(1.1);
    expect(r.worse).toBe(false);
  });

  it("calls it worse when most pairs are above 1, not when a few slow outliers are", () => {
    const slower = Array.from({ length: 60 }, (_, i) => 1.05 + (i % 10) / 100);
    expect(pairedRatio(slower).worse).toBe(true);
    const noisy: number[] = Array.from({ length: 60 }, (_, i) => (i % 2 ? 0.97 : 1.02));
    noisy.push(5, 6, 7);
    expect(pairedRatio(noisy).worse).toBe(false);
  });

  it("drops ratios that are not numbers (a 0 ms old sample) and answers null for none", () => {
    expect(pairedRatio([Number.POSITIVE_INFINITY, Number.NaN, 1.2, 1.2, 1.2]).n).toBe(3);
    expect(pairedRatio([]).worse).toBeNull();
  });
});
