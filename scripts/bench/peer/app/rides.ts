// The peer's one page (ADR 0060): the next rides, read in one D1 query and shown as cards of
// the size of LoopRide's. The Remix route (routes/_index.tsx) and the template-string render
// (limit.ts) share the query and the text, so they differ only in how the markup is made.

export type Ride = {
  id: string;
  driver: string;
  from_place: string;
  to_place: string;
  departs_at: number;
  seats_left: number;
  seat_rupees: number;
};

/** Enough cards for a page of 45-59 KB, the size of LoopRide's signed-in pages. */
export const RIDES_PER_PAGE = 64;
/** The seed's first departure; a fixed instant, so the page is the same on every request. */
export const FIRST_DEPARTURE = Date.UTC(2026, 10, 30, 2, 0);

export async function nextRides(db: D1Database): Promise<Ride[]> {
  const { results } = await db
    .prepare(
      "SELECT id, driver, from_place, to_place, departs_at, seats_left, seat_rupees FROM rides " +
        "WHERE departs_at >= ? ORDER BY departs_at LIMIT ?",
    )
    .bind(FIRST_DEPARTURE, RIDES_PER_PAGE)
    .all<Ride>();
  return results;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const IST_MS = 5.5 * 3_600_000;

/**
 * A card's texts. Each element gets one string: React separates adjacent text children with
 * comments, which the template would then have to copy.
 */
export function card(ride: Ride) {
  const ist = new Date(ride.departs_at + IST_MS);
  const [h, m] = [ist.getUTCHours(), ist.getUTCMinutes()];
  const clock = `${h % 12 || 12}:${String(m).padStart(2, "0")} ${h < 12 ? "am" : "pm"}`;
  return {
    href: `/rides/${ride.id}`,
    route: `${ride.from_place} → ${ride.to_place}`,
    when: `${DAYS[ist.getUTCDay()]} ${ist.getUTCDate()} ${MONTHS[ist.getUTCMonth()]}, ${clock}`,
    seats: `${ride.seats_left} ${ride.seats_left === 1 ? "seat" : "seats"} left · ₹${ride.seat_rupees} a seat`,
    driver: `Driver: ${ride.driver}`,
  };
}

export const CLASSES = {
  list: "mx-auto grid max-w-3xl gap-3 p-4 sm:grid-cols-2",
  item: "rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900",
  link: "block rounded focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600",
  route: "text-base font-semibold text-slate-900 dark:text-slate-100",
  when: "mt-1 text-sm text-slate-600 dark:text-slate-300",
  seats: "mt-1 text-sm font-medium text-emerald-700 dark:text-emerald-400",
  driver: "mt-2 text-sm text-slate-500 dark:text-slate-400",
};
