import { Form } from "@remix-run/react";
import { panelClass, smallButtonClass } from "./styles";

// The completion page's no-show controls (issue 16), apart from the record shown on profiles
// and ride pages (reliability.tsx), so those pages do not carry them.

export type NoShowMark = {
  userId: string;
  markedAt: number | null;
  disputedAt: number | null;
  pickedUpAt: number | null;
};

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
            Mark a rider who did not turn up (within 7 days of the ride). It goes on their reliability record; they are
            told and can dispute it once.
          </p>
          <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
            {marks.map((m) => {
              const name = names[m.userId] ?? "Rider";
              return (
                <li
                  key={m.userId}
                  className="flex flex-wrap items-center justify-between gap-2 py-2"
                  data-testid="no-show-rider"
                >
                  <span>{name}</span>
                  {m.pickedUpAt !== null && !m.markedAt ? (
                    <span className="text-sm font-medium">Boarded (pickup code entered)</span>
                  ) : m.markedAt ? (
                    <span className="text-sm font-medium">
                      {m.disputedAt ? "No-show (disputed by the rider)" : "Marked as a no-show"}
                    </span>
                  ) : (
                    <Form method="post">
                      <input type="hidden" name="riderId" value={m.userId} />
                      {/* The accessible name starts with the visible text (WCAG 2.5.3, Label in Name). */}
                      <button
                        type="submit"
                        name="intent"
                        value="no-show"
                        className={smallButtonClass}
                        aria-label={`Mark no-show: ${name}`}
                      >
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
