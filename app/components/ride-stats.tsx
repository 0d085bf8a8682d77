import { formatDecimal } from "~/domain/numbers";
import { CO2_KG_PER_SEAT } from "~/domain/rides";

export type RideStatsData = { rides: number; seatsOpen: number; bookedSeats: number };

/** Discover's banner: what the public rides offer and what shared seats saved. */
export function RideStats({ stats }: { stats: RideStatsData }) {
  return (
    <section aria-label="Ride stats" className="grid gap-3 rounded-xl bg-emerald-800 p-5 text-white sm:grid-cols-3">
      <div>
        <p className="text-3xl font-bold" data-testid="stat-rides">
          {stats.rides}
        </p>
        <p className="text-sm text-emerald-50">public rides available</p>
      </div>
      <div>
        <p className="text-3xl font-bold" data-testid="stat-seats">
          {stats.seatsOpen}
        </p>
        <p className="text-sm text-emerald-50">seats open on public rides</p>
      </div>
      <div>
        <p
          className="text-3xl font-bold"
          data-testid="stat-co2"
        >{`${formatDecimal(stats.bookedSeats * CO2_KG_PER_SEAT)} kg`}</p>
        <p className="text-sm text-emerald-50">CO2 saved by shared seats on public rides</p>
      </div>
    </section>
  );
}
