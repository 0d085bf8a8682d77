import type { ReliabilityRecord as ReliabilityRecordData } from "~/models/reliability.server";
import { panelClass } from "./styles";

// Issue 16, item 5: the reliability record (facts, not stars alone) and the no-show
// controls of a completed ride. Plain forms: they work without JavaScript.

/** The record as the model reads it (app/models/reliability.server.ts). */
export type ReliabilityView = ReliabilityRecordData;

export function formatResponseTime(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 6) / 10;
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} days`;
}

export function ReliabilityRecord({
  record,
  title = "Reliability record",
}: {
  record: ReliabilityView;
  title?: string;
}) {
  const facts: [string, string][] = [
    ["Rides completed as driver", String(record.completedAsDriver)],
    ["Rides completed as rider", String(record.completedAsRider)],
    ["Driver cancellations within 2 hours of departure", String(record.lateCancellations)],
    [
      "No-shows as a rider",
      record.disputedNoShows ? `${record.noShows} (${record.disputedNoShows} disputed)` : String(record.noShows),
    ],
    [
      "Median response to ride requests",
      record.medianResponseMs === null
        ? "No requests answered yet"
        : `${formatResponseTime(record.medianResponseMs)} (last ${record.decisions})`,
    ],
  ];
  return (
    <section aria-labelledby="reliability" className={panelClass} data-testid="reliability-record">
      <h2 id="reliability" className="text-lg font-semibold">
        {title}
      </h2>
      <dl className="mt-3 grid gap-3 sm:grid-cols-2">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm text-slate-700 dark:text-slate-300">{label}</dt>
            <dd className="font-semibold">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
