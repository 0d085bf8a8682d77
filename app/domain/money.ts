import { groupIndian } from "./numbers";

// Money is integer paise everywhere; rupees only at the edges (forms and display).

/** ₹1,23,456.00: Indian digit grouping (lakh, crore), always two decimals. */
export function formatRupees(paise: number, { decimals = 2 }: { decimals?: 0 | 2 } = {}): string {
  const negative = paise < 0;
  const abs = Math.abs(Math.round(paise));
  const rupees = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, "0");
  return `${negative ? "-" : ""}₹${groupIndian(String(rupees))}${decimals === 2 ? `.${fraction}` : ""}`;
}

/** Parses a rupee amount typed by a person ("250", "250.5", "1,250.00") into paise. */
export function parseRupeesToPaise(input: string): number | null {
  const cleaned = input.replace(/[₹,\s]/g, "");
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole, frac = ""] = cleaned.split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}

// The one rounding rule for what a rider is charged (ADR 0010): the cost of a seat is the
// trip cost divided by the seats offered, rounded DOWN to the paisa, and a rider's amount
// is their seats times that figure. The same numbers are shown before booking (ride card,
// ride page, booking page, confirmation) and owed after completion, so a rider never pays
// a paisa more than they were shown; the driver absorbs the paise left over.

/** The cost of one seat in paise: trip cost / seats offered, rounded down to the paisa. */
export function seatPricePaise(tripCostPaise: number, seatsOffered: number): number {
  return seatsOffered > 0 ? Math.floor(Math.max(0, Math.round(tripCostPaise)) / seatsOffered) : 0;
}

/** What `seats` seats cost a rider in paise: seats × the seat price (never more than their exact part). */
export function seatsCostPaise(tripCostPaise: number, seatsOffered: number, seats: number): number {
  return seats * seatPricePaise(tripCostPaise, seatsOffered);
}
