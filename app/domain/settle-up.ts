// Weekly settle-up (issue 35): a rider's rides with one driver, grouped by IST week. A week
// runs Monday to Sunday of the rides' IST dates (rides.date is already the IST calendar
// date), so a ride at 23:59 on Sunday belongs to that week and one at 00:00 on Monday to
// the next.

import { addDays, formatWeekdayDate, isValidDate } from "./time";

/** The Monday (IST date) of the week an IST date falls in. */
export function weekStartOf(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay(); // 0 = Sunday
  return addDays(date, -((weekday + 6) % 7));
}

/** Whether a URL's week is a real Monday (anything else is not a week's statement). */
export const isWeekStart = (date: string) => isValidDate(date) && weekStartOf(date) === date;

/** The week's Sunday. */
export const weekEndOf = (weekStart: string) => addDays(weekStart, 6);

/** 'Mon, Nov 23 – Sun, Nov 29'. */
export const weekLabel = (weekStart: string) =>
  `${formatWeekdayDate(weekStart)} – ${formatWeekdayDate(weekEndOf(weekStart))}`;

/** A statement's address. */
export const statementPath = (week: string, riderId: string, driverId: string) =>
  `/dashboard/settle-up/${week}/${encodeURIComponent(riderId)}/${encodeURIComponent(driverId)}`;
