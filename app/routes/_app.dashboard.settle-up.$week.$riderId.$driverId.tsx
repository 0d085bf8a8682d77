import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { inputClass } from "~/components/forms";
import { buttonClass, cardClass, mutedTextClass, smallButtonClass, textLinkClass } from "~/components/styles";
import { UpiPay } from "~/components/upi-pay";
import { formatRupees } from "~/domain/money";
import { formatTime, formatWeekdayDate } from "~/domain/time";
import { handleSettleUpIntent } from "~/intents/settle-up.server";
import { getWeekStatement } from "~/models/settle-up.server";
import { requireUser } from "~/utils/auth.server";
import { NOT_FOUND, orRespond } from "~/utils/errors.server";
import { weekUpi } from "~/utils/settle-up.server";

export const meta: MetaFunction = () => [{ title: "Week statement | LoopRide" }];

const statementOf = (params: LoaderFunctionArgs["params"]) => ({
  week: params.week ?? "",
  riderId: params.riderId ?? "",
  driverId: params.driverId ?? "",
});

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const { week, riderId, driverId } = statementOf(params);
  const statement = await orRespond(getWeekStatement(context, user.id, week, riderId, driverId), NOT_FOUND.statement);
  return { statement, upi: weekUpi(statement) };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleSettleUpIntent(request, context, user.id, statementOf(params), await request.formData());
}

const STATUS: Record<string, string> = {
  pending: "Unpaid",
  requested: "Unpaid (requested)",
  paid: "Paid, awaiting confirmation",
  received: "Paid",
};

export default function WeekStatement() {
  const { statement: s, upi } = useLoaderData<typeof loader>();
  const rider = s.viewerIs === "rider";
  const other = (rider ? s.driver.name : s.rider.name) ?? "Unknown";
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <Link to="/dashboard/settle-up" className={textLinkClass}>
        Back to Settle-up
      </Link>
      <div>
        <h1 className="text-2xl font-bold">Week of {s.label}</h1>
        <p className={mutedTextClass}>
          {rider ? `Your rides with ${other} (driver)` : `${other}'s rides with you (rider)`}, Monday to Sunday, IST.
        </p>
      </div>
      <section className={cardClass} aria-labelledby="rides">
        <h2 id="rides" className="text-lg font-semibold">
          Rides
        </h2>
        {s.lines.length === 0 ? (
          <p className={mutedTextClass}>No completed rides this week.</p>
        ) : (
          <table className="mt-2 w-full text-left text-sm" data-testid="statement">
            <thead>
              <tr>
                <th scope="col">Ride</th>
                <th scope="col">Share</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {s.lines.map((l) => (
                <tr key={l.paymentId} data-testid="statement-line">
                  <td className="py-1">
                    <Link to={`/rides/${l.rideId}/completion`} className={textLinkClass}>
                      {`${formatWeekdayDate(l.date)}, ${formatTime(l.time)}`}
                    </Link>
                    <span className="block text-xs">{`${l.fromLocation} → ${l.toLocation}`}</span>
                  </td>
                  <td>{formatRupees(l.amountPaise)}</td>
                  <td data-testid="line-status">{STATUS[l.status] ?? l.status}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Week total</th>
                <td data-testid="week-total">{formatRupees(s.totalPaise)}</td>
                <td />
              </tr>
              <tr>
                <th scope="row">Unpaid</th>
                <td data-testid="week-unpaid">{formatRupees(s.unpaidPaise)}</td>
                <td />
              </tr>
            </tfoot>
          </table>
        )}
      </section>
      {rider && s.unpaidRides > 0 ? (
        <section className={`${cardClass} space-y-3`} aria-labelledby="pay">
          <h2 id="pay" className="text-lg font-semibold">
            Pay the week: {formatRupees(s.unpaidPaise)} for {s.unpaidRides} {s.unpaidRides === 1 ? "ride" : "rides"}
          </h2>
          {upi ? (
            <UpiPay upi={upi} amountPaise={s.unpaidPaise} />
          ) : (
            <p className={mutedTextClass}>Pay your driver by UPI or cash, then mark the week paid.</p>
          )}
          <Form method="post" className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="pay-week" />
            <input type="hidden" name="expectedPaise" value={s.unpaidPaise} />
            <input type="hidden" name="expectedRides" value={s.unpaidRides} />
            <div>
              <label htmlFor="week-method" className="block text-xs font-medium">
                Paid by
              </label>
              <select id="week-method" name="method" className={inputClass} defaultValue="upi">
                <option value="upi">UPI</option>
                <option value="cash">Cash</option>
              </select>
            </div>
            <button type="submit" className={buttonClass}>
              Mark the week paid
            </button>
          </Form>
        </section>
      ) : null}
      {s.settlements.length > 0 ? (
        <section className={`${cardClass} space-y-2`} aria-labelledby="payments">
          <h2 id="payments" className="text-lg font-semibold">
            Week payments
          </h2>
          <ul className="space-y-2">
            {s.settlements.map((p) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-2" data-testid="settlement">
                <span>
                  {`${formatRupees(p.amountPaise)} for ${p.rides} ${p.rides === 1 ? "ride" : "rides"} by ${
                    p.method === "upi" ? "UPI" : "cash"
                  }: ${p.status === "received" ? "received" : "awaiting the driver's confirmation"}`}
                </span>
                {!rider && p.status === "paid" ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="confirm-week" />
                    <input type="hidden" name="settlementId" value={p.id} />
                    <button type="submit" className={smallButtonClass}>
                      Received
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

export const ErrorBoundary = GeneralErrorBoundary;
