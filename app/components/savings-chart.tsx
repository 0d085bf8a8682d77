import { formatRupees } from "~/domain/money";
import { formatDecimal } from "~/domain/numbers";
import { formatMonthDay, istToInstant } from "~/domain/time";

export type WeekSavings = { weekOf: string; moneyPaise: number; co2Kg: number };

const W = 320;
const H = 120;
const PAD = 18;

function Bars({ values, color, label, id }: { values: number[]; color: string; label: string; id: string }) {
  const max = Math.max(...values, 1);
  const slot = (W - PAD) / values.length;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="h-32 w-full" role="img" aria-labelledby={`${id}-title`}>
      <title id={`${id}-title`}>{label}</title>
      <line x1={PAD / 2} x2={W} y1={H - PAD} y2={H - PAD} className="stroke-slate-400" strokeWidth="1" />
      {values.map((v, i) => {
        const h = ((H - PAD * 2) * v) / max;
        return (
          <rect
            key={i}
            x={PAD / 2 + i * slot + slot * 0.2}
            y={H - PAD - h}
            width={slot * 0.6}
            height={h}
            rx="2"
            className={color}
          />
        );
      })}
    </svg>
  );
}

/**
 * Money saved and CO2 avoided per week over the last 8 weeks: two small server-rendered
 * SVG bar charts with the same figures as a table (their text alternative).
 */
export function SavingsChart({ weeks }: { weeks: WeekSavings[] }) {
  const label = (w: WeekSavings) => `Week of ${formatMonthDay(istToInstant(w.weekOf, "12:00"))}`;
  const totalMoney = weeks.reduce((s, w) => s + w.moneyPaise, 0);
  const totalCo2 = weeks.reduce((s, w) => s + w.co2Kg, 0);
  return (
    <section aria-labelledby="savings-title" className="rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <h2 id="savings-title" className="text-lg font-semibold">
        Your savings
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Last 8 weeks: <span data-testid="savings-money">{formatRupees(totalMoney)}</span> saved and{" "}
        <span data-testid="savings-co2">{`${formatDecimal(totalCo2, 1)} kg`}</span> of CO2 avoided.
        {totalMoney === 0 && totalCo2 === 0 ? " Share a ride to start saving." : null}
      </p>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        <figure>
          <figcaption className="text-sm font-medium">Money saved per week</figcaption>
          <Bars
            id="chart-money"
            values={weeks.map((w) => w.moneyPaise)}
            color="fill-emerald-600"
            label="Money saved per week, last 8 weeks (figures in the table below)"
          />
        </figure>
        <figure>
          <figcaption className="text-sm font-medium">CO2 avoided per week</figcaption>
          <Bars
            id="chart-co2"
            values={weeks.map((w) => w.co2Kg)}
            color="fill-sky-600"
            label="CO2 avoided per week, last 8 weeks (figures in the table below)"
          />
        </figure>
      </div>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer font-medium text-emerald-800 dark:text-emerald-300">
          Show figures as a table
        </summary>
        <table className="mt-2 w-full text-left" data-testid="savings-table">
          <thead>
            <tr className="border-b border-slate-200 dark:border-slate-800">
              <th scope="col" className="py-1">
                Week
              </th>
              <th scope="col" className="py-1 text-right">
                Money saved
              </th>
              <th scope="col" className="py-1 text-right">
                CO2 avoided
              </th>
            </tr>
          </thead>
          <tbody>
            {weeks.map((w) => (
              <tr key={w.weekOf} className="border-b border-slate-100 dark:border-slate-900">
                <th scope="row" className="py-1 font-normal">
                  {label(w)}
                </th>
                <td className="py-1 text-right">{formatRupees(w.moneyPaise)}</td>
                <td className="py-1 text-right">{`${w.co2Kg} kg`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
