import { addDays, istDate, istTime } from "./time";

// Issue 37: the day of a ride, in IST. From 18:00 the evening before until the ride's day ends
// the driver and the accepted riders may reach each other (maySeeContact).

/** The hour (IST) of the evening before a ride from which its people may call each other. */
export const CONTACT_FROM_EVENING = "18:00";

/** The IST dates whose rides are inside the contact window at `now`: today, and tomorrow after 18:00. */
export function contactDates(now: number): string[] {
  const today = istDate(now);
  return istTime(now) >= CONTACT_FROM_EVENING ? [today, addDays(today, 1)] : [today];
}

/**
 * An Indian registration number, normalised to upper case with single spaces ("KA 01 AB 1234",
 * BH series "22 BH 1234 AA"); null when it is not one. Spaces, dots and hyphens are ignored.
 */
export function normaliseRegistration(raw: string): string | null {
  const s = raw.toUpperCase().replace(/[\s.-]+/g, "");
  const bh = /^(\d{2})BH(\d{4})([A-Z]{1,2})$/.exec(s);
  if (bh) return `${bh[1]} BH ${bh[2]} ${bh[3]}`;
  // State code, district (1-2 digits), series (0-3 letters), number (1-4 digits).
  const std = /^([A-Z]{2})(\d{1,2})([A-Z]{0,3})(\d{1,4})$/.exec(s);
  if (!std) return null;
  return [std[1], std[2], std[3], std[4]].filter(Boolean).join(" ");
}
