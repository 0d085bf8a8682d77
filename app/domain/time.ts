// Bengaluru runs on Asia/Kolkata (UTC+05:30, no daylight saving). The Worker runs in
// UTC, so "today", date filters and displayed times are all computed here.
export const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
export const TIME_ZONE = "Asia/Kolkata";

const pad = (n: number) => String(n).padStart(2, "0");

/** The IST calendar date (YYYY-MM-DD) of an instant. */
export function istDate(at: number | Date = Date.now()): string {
  const d = new Date((typeof at === "number" ? at : at.getTime()) + IST_OFFSET_MS);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** The IST wall-clock time (HH:MM) of an instant. */
export function istTime(at: number | Date = Date.now()): string {
  const d = new Date((typeof at === "number" ? at : at.getTime()) + IST_OFFSET_MS);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

/** The UTC instant (ms) of an IST date and time. */
export function istToInstant(date: string, time = "00:00"): number {
  const [y, m, d] = date.split("-").map(Number);
  const [hh, mm] = time.split(":").map(Number);
  return Date.UTC(y, m - 1, d, hh, mm) - IST_OFFSET_MS;
}

/** Adds whole days to an IST calendar date. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split("-").map(Number);
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
}

export function isValidDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const [y, m, d] = date.split("-").map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

export function isValidTime(time: string): boolean {
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(time);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** 'Jan 5, 2025' for a YYYY-MM-DD date. */
export function formatDate(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  return `${MONTHS[m - 1]} ${d}, ${y}`;
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** 'Tue, Nov 24' for a YYYY-MM-DD date (the calendar date itself, no time zone involved). */
export function formatWeekdayDate(date: string): string {
  const [y, m, d] = date.split("-").map(Number);
  return `${WEEKDAYS[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]}, ${MONTHS[m - 1]} ${d}`;
}

/** '3:00 PM' for HH:MM. */
export function formatTime(time: string): string {
  const [hh, mm] = time.split(":").map(Number);
  const h12 = hh % 12 === 0 ? 12 : hh % 12;
  return `${h12}:${pad(mm)} ${hh < 12 ? "AM" : "PM"}`;
}

/** 'Jan 5, 3:00 PM' in IST for an instant. */
export function formatDateTimeShort(at: number): string {
  const date = istDate(at);
  const [, m, d] = date.split("-").map(Number);
  return `${MONTHS[m - 1]} ${d}, ${formatTime(istTime(at))}`;
}

/** 'Jan 5' in IST for an instant. */
export function formatMonthDay(at: number): string {
  const [, m, d] = istDate(at).split("-").map(Number);
  return `${MONTHS[m - 1]} ${d}`;
}

/** Just now, Nm ago, Nh ago, otherwise month and day (IST). */
export function relativeTime(at: number, now = Date.now()): string {
  const diff = Math.max(0, now - at);
  const minutes = Math.floor(diff / 60000);
  if (minutes < 1) return "Just now";
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return formatMonthDay(at);
}

/** Today, Yesterday, 'N days ago' under 7 days, else 'Jan 5, 2025' (IST calendar days). */
export function relativeDate(date: string, now = Date.now()): string {
  const today = istDate(now);
  const days = Math.round((istToInstant(today) - istToInstant(date)) / 86400000);
  if (days === 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days > 1 && days < 7) return `${days} days ago`;
  return formatDate(date);
}
