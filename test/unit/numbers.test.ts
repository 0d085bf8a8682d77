import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatRupees } from "~/domain/money";
import { formatDecimal, groupIndian } from "~/domain/numbers";
import { formatWalk } from "~/domain/ride-match";

// ADR 0061, "No Intl at hydration": the browser's first Intl formatter loads ICU's locale data
// in the middle of hydration (18-80 ms of one task here, before Lighthouse's CPU slowdown), so
// what hydrates formats numbers with app/domain/numbers.ts. Its output must stay the one
// Intl gave (the server renders with the same helper, and the texts did not change).

const intl = (value: number, maximumFractionDigits: number) => value.toLocaleString("en-IN", { maximumFractionDigits });

describe("formatDecimal", () => {
  it("matches Intl's en-IN output on the edges: rounding, carries, grouping, signs", () => {
    const values = [
      0,
      -0,
      1,
      0.05,
      0.25,
      0.35,
      1.15,
      1.005,
      2.675,
      9.95,
      9.96,
      99.95,
      999.95,
      1234.5,
      12345.67,
      123456.78,
      1234567.891,
      12345678.9,
      1e21 - 1,
      4.35e-7,
      1e-7,
      -0.01,
      -0.05,
      -1234.56,
      3.5999999999999996,
      0.1 + 0.2,
      7.2,
      2.4 * 3,
      1.6 * 7,
    ];
    for (const digits of [0, 1, 2, 3])
      for (const v of values) expect(formatDecimal(v, digits), `${v} to ${digits}`).toBe(intl(v, digits));
    expect(formatDecimal(Number.NaN)).toBe(intl(Number.NaN, 3));
    expect(formatDecimal(Number.POSITIVE_INFINITY)).toBe(intl(Number.POSITIVE_INFINITY, 3));
    expect(formatDecimal(Number.NEGATIVE_INFINITY)).toBe(intl(Number.NEGATIVE_INFINITY, 3));
  });

  it("matches Intl's en-IN output on any number, to 0-3 decimals", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ min: -1e15, max: 1e15, noNaN: true }),
          fc.integer({ min: 0, max: 10_000_000 }).map((n) => n / 100),
          fc.integer({ min: 0, max: 500 }).map((n) => n * 1.2),
        ),
        fc.integer({ min: 0, max: 3 }),
        (v, digits) => formatDecimal(v, digits) === intl(v, digits),
      ),
      { numRuns: 2000 },
    );
  });

  it("groups digits the Indian way, as formatRupees does", () => {
    expect(groupIndian("1")).toBe("1");
    expect(groupIndian("1000")).toBe("1,000");
    expect(groupIndian("123456789")).toBe("12,34,56,789");
    expect(formatRupees(12345678900)).toBe("₹12,34,56,789.00");
  });

  it("keeps the texts of a walk", () => {
    expect(formatWalk(0.349)).toBe("350 m");
    expect(formatWalk(1.44)).toBe("1.4 km");
    expect(formatWalk(12.96)).toBe("13 km");
    expect(formatWalk(1234.5)).toBe("1,234.5 km");
  });
});

// The guard: none of the code that reaches the browser formats through Intl. Files named
// *.server.* and entry.server.tsx run only in the worker, where Intl is warm and costs the
// page nothing.
const BROWSER_CODE = import.meta.glob(["../../app/**/*.{ts,tsx}", "!../../app/**/*.server.{ts,tsx}"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** The source without its comments (they may name what the code must not call). */
const code = (src: string) => src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");

describe("code that hydrates", () => {
  it("never formats with Intl (toLocaleString and the like, Intl.*)", () => {
    const files = Object.keys(BROWSER_CODE).filter((f) => !f.endsWith("/entry.server.tsx"));
    expect(files.length).toBeGreaterThan(50);
    const offenders = files.filter((f) => /\.toLocale\w*String\(|\bIntl\./.test(code(BROWSER_CODE[f])));
    expect(offenders).toEqual([]);
  });
});
