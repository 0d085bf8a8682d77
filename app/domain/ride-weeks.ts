// My Rides by week (issue 35): upcoming rides in IST weeks, Monday to Sunday, labelled
// "This week", "Next week" or "Week of Mon 14 Dec"; the rides that have left after them.
import { dayOfWeek } from "./commutes";
import { addDays } from "./time";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** "Wed" for a YYYY-MM-DD date. */
export const weekdayName = (date: string) => DAYS[dayOfWeek(date)];

/** The Monday of the week of a YYYY-MM-DD date (the calendar date: IST is the caller's). */
export function weekMonday(date: string): string {
  return addDays(date, -((dayOfWeek(date) + 6) % 7));
}

/** "This week", "Next week" or "Week of Mon 14 Dec", for the week of `date` seen on `today`. */
export function weekLabel(date: string, today: string): string {
  const monday = weekMonday(date);
  const thisMonday = weekMonday(today);
  if (monday === thisMonday) return "This week";
  if (monday === addDays(thisMonday, 7)) return "Next week";
  const [, m, d] = monday.split("-").map(Number);
  return `Week of ${DAYS[1]} ${d} ${MONTHS[m - 1]}`;
}

export const PAST_LABEL = "Earlier rides";

export type WeekGroup<T> = { label: string; items: T[] };

/**
 * Splits a page of rides, upcoming ones in date order and then those that have left (as My
 * Rides reads them), into one group per week and one of the past rides. Inside a group the
 * days of one commute stay together, where its first day falls: a commuter's week reads as
 * one block instead of five cards spread among the one-off rides.
 */
export function groupByWeek<T extends { date: string; past: boolean; commuteId: string | null }>(
  items: T[],
  today: string,
): WeekGroup<T>[] {
  const groups: { label: string; runs: Map<string, T[]> }[] = [];
  items.forEach((item, i) => {
    const label = item.past ? PAST_LABEL : weekLabel(item.date, today);
    let group = groups.at(-1);
    if (!group || group.label !== label) {
      group = { label, runs: new Map() };
      groups.push(group);
    }
    const key = item.commuteId ? `c:${item.commuteId}` : `r:${i}`;
    const run = group.runs.get(key);
    if (run) run.push(item);
    else group.runs.set(key, [item]);
  });
  return groups.map((g) => ({ label: g.label, items: [...g.runs.values()].flat() }));
}
