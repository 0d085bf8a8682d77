import { describe, expect, it } from "vitest";
import { formatRupees, parseRupeesToPaise } from "~/domain/money";
import {
  addDays,
  formatDate,
  formatTime,
  formatWeekdayDate,
  istDate,
  istToInstant,
  relativeDate,
  relativeTime,
} from "~/domain/time";

describe("Bengaluru time", () => {
  it("'today' at 23:30 UTC is already tomorrow in Bengaluru", () => {
    expect(istDate(Date.UTC(2026, 10, 22, 23, 30))).toBe("2026-11-23");
    expect(istDate(Date.UTC(2026, 10, 22, 18, 29))).toBe("2026-11-22");
    expect(istDate(Date.UTC(2026, 10, 22, 18, 30))).toBe("2026-11-23");
  });
  it("converts IST wall time to the right instant", () => {
    expect(new Date(istToInstant("2026-11-23", "08:30")).toISOString()).toBe("2026-11-23T03:00:00.000Z");
  });
  it("formats dates and times the way the spec shows them", () => {
    expect(formatDate("2025-01-05")).toBe("Jan 5, 2025");
    expect(formatTime("15:00")).toBe("3:00 PM");
    expect(formatTime("00:05")).toBe("12:05 AM");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
  });
  it("names the weekday of a ride's calendar date (the chat's 'About:' line)", () => {
    expect(formatWeekdayDate("2026-11-24")).toBe("Tue, Nov 24");
    expect(formatWeekdayDate("2027-01-03")).toBe("Sun, Jan 3");
  });
  it("relative times", () => {
    const now = Date.UTC(2026, 10, 22, 10, 0);
    expect(relativeTime(now - 30_000, now)).toBe("Just now");
    expect(relativeTime(now - 5 * 60_000, now)).toBe("5m ago");
    expect(relativeTime(now - 3 * 3600_000, now)).toBe("3h ago");
    expect(relativeTime(now - 3 * 86400_000, now)).toBe("Nov 19");
    expect(relativeDate("2026-11-22", now)).toBe("Today");
    expect(relativeDate("2026-11-21", now)).toBe("Yesterday");
    expect(relativeDate("2026-11-18", now)).toBe("4 days ago");
    expect(relativeDate("2026-11-01", now)).toBe("Nov 1, 2026");
  });
});

describe("rupees", () => {
  it("groups digits the Indian way", () => {
    expect(formatRupees(12345600)).toBe("₹1,23,456.00");
    expect(formatRupees(1234567890)).toBe("₹1,23,45,678.90");
    expect(formatRupees(99900)).toBe("₹999.00");
    expect(formatRupees(0)).toBe("₹0.00");
    expect(formatRupees(4900, { decimals: 0 })).toBe("₹49");
  });
  it("parses what people type", () => {
    expect(parseRupeesToPaise("250")).toBe(25000);
    expect(parseRupeesToPaise("1,250.5")).toBe(125050);
    expect(parseRupeesToPaise("-3")).toBeNull();
    expect(parseRupeesToPaise("abc")).toBeNull();
    expect(parseRupeesToPaise("1.234")).toBeNull();
  });
});
