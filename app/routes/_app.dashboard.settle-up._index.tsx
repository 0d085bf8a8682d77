import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { cardClass, mutedTextClass, textLinkClass } from "~/components/styles";
import { formatRupees } from "~/domain/money";
import { statementPath, weekLabel } from "~/domain/settle-up";
import { listSettleUpWeeks } from "~/models/settle-up.server";
import { requireUser } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Weekly settle-up | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  return { userId: user.id, weeks: await listSettleUpWeeks(context, user.id) };
}

const rides = (n: number) => `${n} ${n === 1 ? "ride" : "rides"}`;

export default function SettleUp() {
  const { userId, weeks } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Weekly settle-up</h1>
        <p className={mutedTextClass}>
          Rides with the same person in one week (Monday to Sunday) are settled with one payment.
        </p>
      </div>
      {weeks.length === 0 ? (
        <p className={cardClass} data-testid="settle-up-empty">
          Nothing to settle: every completed ride is paid.
        </p>
      ) : (
        <ul className="space-y-3" data-testid="settle-up-weeks">
          {weeks.map((w) => {
            const owe = w.riderId === userId;
            const other = (owe ? w.driverName : w.riderName) ?? "Unknown";
            return (
              <li key={`${w.weekStart}-${w.riderId}-${w.driverId}`} className={`${cardClass} space-y-1`}>
                <p className="font-semibold">{weekLabel(w.weekStart)}</p>
                <p>
                  {w.unpaidRides > 0
                    ? owe
                      ? `You owe ${other} ${formatRupees(w.unpaidPaise)} for ${rides(w.unpaidRides)}.`
                      : `${other} owes you ${formatRupees(w.unpaidPaise)} for ${rides(w.unpaidRides)}.`
                    : `Paid, waiting for ${owe ? `${other} to confirm` : "you to confirm"}.`}
                </p>
                <Link to={statementPath(w.weekStart, w.riderId, w.driverId)} className={textLinkClass}>
                  View statement<span className="sr-only">{` for ${weekLabel(w.weekStart)} with ${other}`}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
