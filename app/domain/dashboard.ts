// Pure rules of the dashboard overview (no I/O): the Bengaluru-time windows and the
// figures computed from a user's rides.
import { seatsCostPaise } from "./money";
import { addDays, istDate, istToInstant } from "./time";

export const DASHBOARD_WINDOW_DAYS = 30;
export const TRAFFIC_HOURS_PER_RIDE = 0.5;
export const CO2_KG_PER_SEAT = 2.5;
export const SAVINGS_WEEKS = 8;
export const RECENT_RIDES = 4;
/** Upcoming rides the dashboard opens with ("the next ride or two"). */
export const NEXT_RIDES = 2;

/** [start, end) instants of the last 30 IST calendar days including today. */
export function dashboardWindow(now = Date.now()) {
  const today = istDate(now);
  return { start: istToInstant(addDays(today, -DASHBOARD_WINDOW_DAYS)), end: istToInstant(addDays(today, 1)) };
}

/** The 8 seven-day weeks ending today (IST), oldest first: [start, end) instants and a label date. */
export function savingsWeeks(now = Date.now()) {
  const today = istDate(now);
  return Array.from({ length: SAVINGS_WEEKS }, (_, i) => {
    const first = addDays(today, -7 * (SAVINGS_WEEKS - i) + 1);
    return { first, start: istToInstant(first), end: istToInstant(addDays(first, 7)) };
  });
}

export function trafficHoursSaved(rides: number): number {
  return Math.round(rides * TRAFFIC_HOURS_PER_RIDE);
}

/** What a rider's seats are worth: seats × the seat price, the same rule as the fare (money.ts). */
export function seatValuePaise(tripCostPaise: number, rideSeats: number, seats: number): number {
  return seatsCostPaise(tripCostPaise, Math.max(rideSeats, 1), seats);
}

export type SeatEvent = { departsAt: number; tripCostPaise: number; rideSeats: number; seats: number };

/** Money saved (paise) and CO2 avoided (kg) per week, from the seats shared on past rides. */
export function weeklySavings(events: SeatEvent[], now = Date.now()) {
  const weeks = savingsWeeks(now).map((w) => ({ ...w, moneyPaise: 0, co2Kg: 0 }));
  for (const e of events) {
    if (e.departsAt > now) continue;
    const w = weeks.find((x) => e.departsAt >= x.start && e.departsAt < x.end);
    if (!w) continue;
    w.moneyPaise += seatValuePaise(e.tripCostPaise, e.rideSeats, e.seats);
    w.co2Kg += CO2_KG_PER_SEAT * e.seats;
  }
  return weeks.map(({ first, moneyPaise, co2Kg }) => ({ weekOf: first, moneyPaise, co2Kg }));
}

export function capitalise(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
