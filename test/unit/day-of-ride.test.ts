import { describe, expect, it } from "vitest";
import { contactDates, normaliseRegistration } from "~/domain/day-of-ride";
import { istToInstant } from "~/domain/time";

// Issue 37, item 5: the contact window's dates and the registration number's format.

describe("contactDates", () => {
  it("is today until 18:00 IST, then today and tomorrow", () => {
    expect(contactDates(istToInstant("2026-03-10", "17:59"))).toEqual(["2026-03-10"]);
    expect(contactDates(istToInstant("2026-03-10", "18:00"))).toEqual(["2026-03-10", "2026-03-11"]);
    expect(contactDates(istToInstant("2026-03-10", "00:00"))).toEqual(["2026-03-10"]);
    // Month and year ends roll over.
    expect(contactDates(istToInstant("2026-12-31", "21:30"))).toEqual(["2026-12-31", "2027-01-01"]);
  });
});

describe("normaliseRegistration", () => {
  it("accepts Indian plates however they are typed and writes them one way", () => {
    expect(normaliseRegistration("KA01AB1234")).toBe("KA 01 AB 1234");
    expect(normaliseRegistration("ka 01 ab 1234")).toBe("KA 01 AB 1234");
    expect(normaliseRegistration("KA-01-AB-1234")).toBe("KA 01 AB 1234");
    expect(normaliseRegistration("DL 3C AB 1234")).toBe("DL 3 CAB 1234");
    expect(normaliseRegistration("22 BH 1234 AA")).toBe("22 BH 1234 AA");
    expect(normaliseRegistration("22bh1234a")).toBe("22 BH 1234 A");
  });

  it("refuses what no plate carries", () => {
    for (const bad of ["", "HELLO", "KA01AB12345", "K01AB1234", "KA01ABCD1234", "22BH1234", "1234", "KA 01 AB 12#4"])
      expect(normaliseRegistration(bad), bad).toBeNull();
  });
});
