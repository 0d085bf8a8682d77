import { Form } from "@remix-run/react";
import { panelClass, smallButtonClass } from "./styles";

// Issue 16, item 5: the reliability record (facts, not stars alone) and the no-show
// controls of a completed ride. Plain forms: they work without JavaScript.

export type ReliabilityView = {
  completedAsDriver: number;
  completedAsRider: number;
  lateCancellations: number;
  noShows: number;
  disputedNoShows: number;
  medianResponseMs: number | null;
  decisions: number;
};

export function formatResponseTime(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return "under a minute";
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 6) / 10;
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} days`;
}

export function ReliabilityRecord({ record, title = "Reliability record" }: { record: ReliabilityView; title?: string }) {
  const facts: [string, string][] = [
    ["Rides completed as driver", String(record.completedAsDriver)],
    ["Rides completed as rider", String(record.completedAsRider)],
    ["Driver cancellations within 2 hours of departure", String(record.lateCancellations)],
    ["No-shows as a rider", record.disputedNoShows ? `${record.noShows} (${record.disputedNoShows} disputed)` : String(record.noShows)],
    [
      "Median response to ride requests",
      record.medianResponseMs === null ? "No requests answered yet" : `${formatResponseTime(record.medianResponseMs)} (last ${record.decisions})`,
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

export type NoShowMark = { userId: string; markedAt: number | null; disputedAt: number | null };

/** On a completed ride: the driver marks a rider as a no-show; a marked rider disputes it once. */
export function NoShowPanel({
  isDriver,
  viewerId,
  marks,
  names,
}: {
  isDriver: boolean;
  viewerId: string;
  marks: NoShowMark[];
  names: Record<string, string | null>;
}) {
  const mine = marks.find((m) => m.userId === viewerId);
  if (!isDriver && !mine?.markedAt) return null;
  return (
    <section aria-labelledby="no-shows" className={panelClass} data-testid="no-shows">
      <h2 id="no-shows" className="text-lg font-semibold">
        No-shows
      </h2>
      {isDriver ? (
        <>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Mark a rider who did not turn up (within 7 days of the ride). It goes on their reliability record; they are told and can dispute it once.
          </p>
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
            {marks.map((m) => {
              const name = names[m.userId] ?? "Rider";
              return (
                <li key={m.userId} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="no-show-rider">
                  <span>{name}</span>
                  {m.markedAt ? (
                    <span className="text-sm font-medium">{m.disputedAt ? "No-show (disputed by the rider)" : "Marked as a no-show"}</span>
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="riderId" value={m.userId} />
                      <button type="submit" name="intent" value="no-show" className={smallButtonClass} aria-label={`Mark ${name} as a no-show`}>
                        Mark no-show
                      </button>
                    </Form>
                  )}
                </li>
              );
            })}
          </ul>
        </>
      ) : mine?.disputedAt ? (
        <p>Your driver marked you as a no-show on this ride. You disputed it.</p>
      ) : (
        <div className="space-y-2">
          <p>Your driver marked you as a no-show on this ride. If you were there, you can dispute it once.</p>
          <Form method="post">
            <button type="submit" name="intent" value="dispute-no-show" className={smallButtonClass}>
              Dispute no-show
            </button>
          </Form>
        </div>
      )}
    </section>
  );
}
