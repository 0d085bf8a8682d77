// Pure rules of recurring commutes (issue 14): weekdays as a bit set and the days a
// pattern runs on. The bit of a day is SQLite's strftime('%w') (0 Sunday … 6 Saturday), so
// the database and this file agree on which dates a pattern covers.
import { addDays } from "./time";

/** Occurrences exist this many days ahead (today included); the daily Cron tops them up. */
export const COMMUTE_HORIZON_DAYS = 14;

export const WEEKDAYS = [
  { bit: 1, key: "mon", label: "Mon", name: "Monday" },
  { bit: 2, key: "tue", label: "Tue", name: "Tuesday" },
  { bit: 3, key: "wed", label: "Wed", name: "Wednesday" },
  { bit: 4, key: "thu", label: "Thu", name: "Thursday" },
  { bit: 5, key: "fri", label: "Fri", name: "Friday" },
  { bit: 6, key: "sat", label: "Sat", name: "Saturday" },
  { bit: 0, key: "sun", label: "Sun", name: "Sunday" },
] as const;

export type WeekdayKey = (typeof WEEKDAYS)[number]["key"];
export const WEEKDAY_KEYS = WEEKDAYS.map((d) => d.key) as [WeekdayKey, ...WeekdayKey[]];

/** The bit set of some weekdays. */
export function weekdayMask(days: readonly WeekdayKey[]): number {
  return WEEKDAYS.filter((d) => days.includes(d.key)).reduce((m, d) => m | (1 << d.bit), 0);
}

/** The weekdays of a bit set, Monday first. */
export function weekdaysOf(mask: number): WeekdayKey[] {
  return WEEKDAYS.filter((d) => mask & (1 << d.bit)).map((d) => d.key);
}

/** "Mon–Fri", "Mon, Wed, Fri", "Every day". */
export function weekdaysLabel(mask: number): string {
  const days = WEEKDAYS.filter((d) => mask & (1 << d.bit));
  if (days.length === 7) return "Every day";
  if (mask === 0b0111110) return "Mon–Fri";
  return days.map((d) => d.label).join(", ");
}

/** Day of the week of a YYYY-MM-DD date, as strftime('%w'): 0 Sunday … 6 Saturday. */
export function dayOfWeek(date: string): number {
  const [y, m, d] = date.split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

/** The horizon's dates, from `today` on. */
export function horizonDates(today: string, days = COMMUTE_HORIZON_DAYS): string[] {
  return Array.from({ length: days }, (_, i) => addDays(today, i));
}

/** The dates of the horizon a pattern runs on (before any departure-time check). */
export function patternDates(
  p: { weekdays: number; startDate: string; endDate: string | null },
  today: string,
): string[] {
  return horizonDates(today).filter(
    (d) => d >= p.startDate && (p.endDate === null || d <= p.endDate) && (p.weekdays & (1 << dayOfWeek(d))) !== 0,
  );
}

/**
 * Which legs of a commute with a return a rider books (ADR 0048): the outward one
 * ("morning"), the return, or both. The labels are the booking form's.
 */
export const COMMUTE_LEGS = ["morning", "return", "both"] as const;
export type CommuteLegs = (typeof COMMUTE_LEGS)[number];
export const LEG_LABELS: Record<CommuteLegs, string> = {
  morning: "Morning only",
  return: "Return only",
  both: "Both",
};
