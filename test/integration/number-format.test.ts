import { describe, expect, it } from "vitest";
import { formatWalk } from "~/domain/ride-match";

// ADR 0066: no number is formatted with `toLocaleString`, which builds an ICU formatter per
// call; Indian-grouped numbers come from app/domain/numbers.ts (no Intl at all, ADR 0061,
// whose own test, test/unit/numbers.test.ts, holds its text to what Intl gives).

const APP = import.meta.glob("../../app/**/*.{ts,tsx}", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

describe("Indian-grouped numbers (ADR 0066)", () => {
  it("a walk reads as toLocaleString('en-IN') wrote it", () => {
    expect(formatWalk(12.34)).toBe("12.3 km");
    expect(formatWalk(0.344)).toBe("340 m");
    expect(formatWalk(1234.5)).toBe("1,234.5 km");
    expect(formatWalk(123456.54)).toBe((123456.5).toLocaleString("en-IN") + " km");
  });

  it("no app code builds a number or date formatter per call", () => {
    // toLocale*String and Intl.*Format built inside a function are a new ICU formatter each
    // call: 0.3-0.5 ms apiece on workerd, per card on a list.
    const code = (source: string) => source.split("\n").filter((l) => !/^\s*(\/\/|\/?\*)/.test(l));
    const perCall = Object.entries(APP)
      .filter(([, source]) => code(source).some((l) => /\.toLocale(Date|Time)?String\(|^\s+.*new Intl\./.test(l)))
      .map(([path]) => path.replace(/^(\.\.\/)+/, ""));
    expect(perCall).toEqual([]);
  });
});
