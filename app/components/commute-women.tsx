import { Form } from "@remix-run/react";
import { cardClass, smallButtonClass } from "./styles";

/**
 * Issue 37, item 8: a commute's women-only rule or commute-wide comfort lock, explained (the
 * rule's effect only, never anyone's gender), and for its woman driver the lock itself.
 */
export function CommuteWomen({
  commute,
  here,
}: {
  commute: { womenOnly: boolean; womenLock: boolean; canLockToWomen: number; status: string };
  here: string;
}) {
  const note = commute.womenOnly
    ? "Women only: only women can book seats on this commute's days."
    : commute.womenLock
      ? "The open seats on every day of this commute are for women only; riders already booked keep their seats."
      : null;
  const canLock = Boolean(commute.canLockToWomen) && !note && commute.status === "active";
  if (!note && !canLock) return null;
  return (
    <section className={`${cardClass} space-y-2`} aria-label="Women's seats" data-testid="commute-women">
      {note ? <p className="font-medium">{note}</p> : null}
      {canLock ? (
        <Form method="post" className="space-y-2">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Keep the open seats on every day of this commute, and on the days added later, for women only. Riders
            already booked keep their seats; pending requests from others are declined.
          </p>
          <input type="hidden" name="intent" value="women-lock-all" />
          <input type="hidden" name="redirectTo" value={here} />
          <button type="submit" className={smallButtonClass}>
            Keep open seats for women on every day
          </button>
        </Form>
      ) : null}
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Gender is self-declared in Settings and never shown to anyone; only this rule reads it.
      </p>
    </section>
  );
}
