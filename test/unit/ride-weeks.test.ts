import { describe, expect, it } from "vitest";
import { groupByWeek, weekLabel, weekMonday } from "~/domain/ride-weeks";

describe("My Rides' IST weeks", () => {
  it("weeks run Monday to Sunday; labels This week, Next week, Week of Mon 14 Dec", () => {
    // Thursday 10 Dec 2026.
    const today = "2026-12-10";
    expect(weekMonday("2026-12-13")).toBe("2026-12-07"); // Sunday belongs to the week before
    expect(weekMonday("2026-12-14")).toBe("2026-12-14");
    expect(weekLabel("2026-12-10", today)).toBe("This week");
    expect(weekLabel("2026-12-13", today)).toBe("This week");
    expect(weekLabel("2026-12-14", today)).toBe("Next week");
    expect(weekLabel("2026-12-20", today)).toBe("Next week");
    expect(weekLabel("2026-12-24", today)).toBe("Week of Mon 21 Dec");
    expect(weekLabel("2027-01-01", today)).toBe("Week of Mon 28 Dec");
  });

  it("keeps a commute's days together inside a week, where its first day falls, and past rides apart", () => {
    const r = (id: string, date: string, commuteId: string | null = null, past = false) => ({
      id,
      date,
      commuteId,
      past,
    });
    const groups = groupByWeek(
      [
        r("c-fri", "2026-12-11", "c"),
        r("one-sat", "2026-12-12"),
        r("c-mon", "2026-12-14", "c"),
        r("one-mon", "2026-12-14"),
        r("c-tue", "2026-12-15", "c"),
        r("k-tue", "2026-12-15", "k"),
        r("c-wed", "2026-12-16", "c"),
        r("k-wed", "2026-12-16", "k"),
        r("old", "2026-12-01", "c", true),
      ],
      "2026-12-10",
    );
    expect(groups.map((g) => [g.label, g.items.map((i) => i.id)])).toEqual([
      ["This week", ["c-fri", "one-sat"]],
      ["Next week", ["c-mon", "c-tue", "c-wed", "one-mon", "k-tue", "k-wed"]],
      ["Earlier rides", ["old"]],
    ]);
  });
});
