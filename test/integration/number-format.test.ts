import { describe, expect, it } from "vitest";
import { formatIndianNumber, formatIndianNumber1 } from "~/domain/number-format";
import { formatWalk } from "~/domain/ride-match";

// ADR 0066: Indian-grouped numbers come from formatters made once per isolate, not from
// `toLocaleString`, which builds one per call. The text must be what toLocaleString gives.

const APP = import.meta.glob("../../app/**/*.{ts,tsx}", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

const VALUES = [0, 0.05, 1, 1.4, 9.95, 12.345, 999, 1000, 12_345.678, 1_23_456.5, 12_34_56_789, -3.25, 2 / 3];

describe("Indian-grouped numbers (ADR 0066)", () => {
  it("read as toLocaleString('en-IN') reads them", () => {
    for (const x of VALUES) {
      expect(formatIndianNumber(x)).toBe(x.toLocaleString("en-IN"));
      expect(formatIndianNumber1(x)).toBe(x.toLocaleString("en-IN", { maximumFractionDigits: 1 }));
    }
    expect(formatIndianNumber(123456.5)).toBe("1,23,456.5");
    expect(formatWalk(12.34)).toBe("12.3 km");
    expect(formatWalk(0.344)).toBe("340 m");
    expect(formatWalk(1234.5)).toBe("1,234.5 km");
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
