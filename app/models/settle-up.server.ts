import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { payments, rides, settlements, userProfiles } from "../../db/schema";
import { newId } from "../domain/ids";
import { formatRupees } from "../domain/money";
import { isWeekStart, weekEndOf, weekLabel } from "../domain/settle-up";
import { audience, type ModelCtx } from "./context.server";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { notificationInsert } from "./notifications.server";
import { maySeePayment } from "./permissions.server";

// Weekly settle-up (issue 35, item 6): a rider's completed rides with one driver in one IST
// week (Monday to Sunday of the rides' dates) make one statement; the rider pays its unpaid
// total once and every ride in it is settled in one guarded batch. Per-ride payment stays
// (the completion page): a ride paid on its own is simply paid in the statement.

export const STATEMENT_NOT_FOUND = "Statement not found";
export const WEEK_ALREADY_SETTLED = "Nothing is left to pay for this week: it is already settled.";
export const STATEMENT_CHANGED =
  "This week's statement changed while you were paying (a ride was completed or paid). Please check it and pay again.";

/** The IST week's Monday of a ride's IST date, in SQL (strftime('%w'): 0 = Sunday). */
const weekOfRide = sql<string>`date(${rides.date}, '-' || ((CAST(strftime('%w', ${rides.date}) AS INTEGER) + 6) % 7) || ' days')`;

const OPEN = ["pending", "requested"] as const;

export type SettleUpWeek = {
  weekStart: string;
  riderId: string;
  riderName: string | null;
  driverId: string;
  driverName: string | null;
  rides: number;
  unpaidPaise: number;
  unpaidRides: number;
  /** Rides marked paid that the driver has not confirmed yet. */
  awaiting: number;
};

/** The weeks, with either party, in which the viewer still owes, is owed or awaits a confirmation. */
export async function listSettleUpWeeks({ db }: ModelCtx, viewerId: string, limit = 52): Promise<SettleUpWeek[]> {
  const rows = await db
    .select({
      weekStart: weekOfRide.as("week_start"),
      riderId: payments.payerId,
      driverId: payments.payeeId,
      rides: sql<number>`count(*)`,
      unpaidPaise: sql<number>`sum(CASE WHEN ${payments.status} IN ('pending','requested') THEN ${payments.amountPaise} ELSE 0 END)`,
      unpaidRides: sql<number>`sum(CASE WHEN ${payments.status} IN ('pending','requested') THEN 1 ELSE 0 END)`,
      awaiting: sql<number>`sum(CASE WHEN ${payments.status} = 'paid' THEN 1 ELSE 0 END)`,
      riderName: sql<string | null>`(SELECT full_name FROM user_profiles WHERE user_id = ${payments.payerId})`,
      driverName: sql<string | null>`(SELECT full_name FROM user_profiles WHERE user_id = ${payments.payeeId})`,
    })
    .from(payments)
    .innerJoin(rides, eq(rides.id, payments.rideId))
    .where(maySeePayment(viewerId))
    .groupBy(sql`1`, payments.payerId, payments.payeeId)
    .having(sql`sum(CASE WHEN ${payments.status} IN ('pending','requested','paid') THEN 1 ELSE 0 END) > 0`)
    .orderBy(sql`1 DESC`, payments.payerId, payments.payeeId)
    .limit(limit);
  return rows.map((r) => ({ ...r, rides: Number(r.rides), unpaidPaise: Number(r.unpaidPaise) }));
}

/** The payments of one pair's week, as a subquery for the guarded writes. */
const unpaidOfWeek = (riderId: string, driverId: string, week: string) =>
  sql`SELECT p.id, p.amount_paise FROM payments p JOIN rides r ON r.id = p.ride_id
    WHERE p.payer_id = ${riderId} AND p.payee_id = ${driverId}
      AND r.date BETWEEN ${week} AND ${weekEndOf(week)}
      AND p.status IN ('pending','requested') AND p.settlement_id IS NULL`;

/**
 * One pair's statement for one week, for the rider and the driver only (anyone else: not
 * found, as if it did not exist). Every completed ride of the pair that week with its share
 * and state, the unpaid total and the week's settlements.
 */
export async function getWeekStatement(
  { db }: ModelCtx,
  viewerId: string,
  week: string,
  riderId: string,
  driverId: string,
) {
  if ((viewerId !== riderId && viewerId !== driverId) || !isWeekStart(week))
    throw new NotFoundError(STATEMENT_NOT_FOUND);
  const [lines, people, paid] = await db.batch([
    db
      .select({
        paymentId: payments.id,
        // Not rides.id: a D1 batch answers rows by column name, and payments.id is "id" too.
        rideId: payments.rideId,
        date: rides.date,
        time: rides.time,
        fromLocation: rides.fromLocation,
        toLocation: rides.toLocation,
        seats: payments.seats,
        amountPaise: payments.amountPaise,
        status: payments.status,
        method: payments.method,
        settlementId: payments.settlementId,
      })
      .from(payments)
      .innerJoin(rides, eq(rides.id, payments.rideId))
      .where(
        and(
          eq(payments.payerId, riderId),
          eq(payments.payeeId, driverId),
          sql`${rides.date} BETWEEN ${week} AND ${weekEndOf(week)}`,
          maySeePayment(viewerId),
        ),
      )
      .orderBy(asc(rides.date), asc(rides.time), asc(payments.id)),
    db
      .select({ userId: userProfiles.userId, name: userProfiles.fullName, upiId: userProfiles.upiId })
      .from(userProfiles)
      .where(inArray(userProfiles.userId, [riderId, driverId])),
    db
      .select({
        id: settlements.id,
        amountPaise: settlements.amountPaise,
        rides: settlements.rides,
        method: settlements.method,
        status: settlements.status,
        createdAt: settlements.createdAt,
      })
      .from(settlements)
      .where(
        and(
          eq(settlements.payerId, riderId),
          eq(settlements.payeeId, driverId),
          eq(settlements.weekStart, week),
          sql`(${settlements.payerId} = ${viewerId} OR ${settlements.payeeId} = ${viewerId})`,
        ),
      )
      .orderBy(asc(settlements.createdAt)),
  ]);
  const person = (id: string) => people.find((p) => p.userId === id);
  const open = lines.filter((l) => (OPEN as readonly string[]).includes(l.status));
  return {
    week,
    label: weekLabel(week),
    rider: { id: riderId, name: person(riderId)?.name ?? null },
    driver: { id: driverId, name: person(driverId)?.name ?? null, upiId: person(driverId)?.upiId ?? null },
    viewerIs: viewerId === riderId ? ("rider" as const) : ("driver" as const),
    lines,
    totalPaise: lines.reduce((n, l) => n + l.amountPaise, 0),
    unpaidPaise: open.reduce((n, l) => n + l.amountPaise, 0),
    unpaidRides: open.length,
    settlements: paid,
  };
}

export type WeekStatement = Awaited<ReturnType<typeof getWeekStatement>>;

/**
 * The rider pays the week: one settlement for exactly the unpaid rides they were shown
 * (`expected`), and each of those rides marked paid with it, in one batch. The settlement is
 * inserted only while the unpaid set still has that count and total, and the payments join
 * it only if it was; a payment joins one settlement at most, only while unpaid (the WHERE
 * here, and the payments_settled_once trigger under it). So two payments of one week at the
 * same moment, or a ride paid on its own meanwhile, leave exactly one of them applied.
 */
export async function settleWeek(
  { db }: ModelCtx,
  viewerId: string,
  input: {
    week: string;
    riderId: string;
    driverId: string;
    method: "upi" | "cash";
    expectedPaise: number;
    expectedRides: number;
  },
  now = Date.now(),
) {
  const { week, riderId, driverId, method } = input;
  if (viewerId === driverId) throw new ForbiddenError("Only the rider who owes this week can mark it paid.");
  if (viewerId !== riderId || !isWeekStart(week)) throw new NotFoundError(STATEMENT_NOT_FOUND);
  const id = newId();
  const unpaid = unpaidOfWeek(riderId, driverId, week);
  const settled = sql`EXISTS (SELECT 1 FROM settlements WHERE id = ${id})`;
  const [inserted] = await db.batch([
    db
      .insert(settlements)
      .select(
        sql`SELECT ${id}, ${riderId}, ${driverId}, ${week}, s, n, ${method}, 'paid', ${now}, NULL
        FROM (SELECT count(*) AS n, coalesce(sum(amount_paise), 0) AS s FROM (${unpaid}))
        WHERE n > 0 AND n = ${input.expectedRides} AND s = ${input.expectedPaise}`,
      )
      .returning({ id: settlements.id }),
    db
      .update(payments)
      .set({ status: "paid", method, paidAt: now, settlementId: id })
      .where(sql`${payments.id} IN (SELECT id FROM (${unpaid})) AND ${settled}`),
    notificationInsert(
      db,
      {
        userId: driverId,
        type: "ride_update",
        title: "Week marked as paid",
        message: `A rider marked the week ${weekLabel(week)} paid by ${method === "upi" ? "UPI" : "cash"}: ${formatRupees(
          input.expectedPaise,
        )} for ${input.expectedRides} ${input.expectedRides === 1 ? "ride" : "rides"}. Please confirm when you receive it.`,
        data: { settlement_id: id, week, status: "week_paid" },
      },
      now,
      sql`WHERE ${settled}`,
    ),
  ]);
  if (inserted.length === 0) {
    const left = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM (${unpaid})`);
    throw new ConflictError((left[0]?.n ?? 0) === 0 ? WEEK_ALREADY_SETTLED : STATEMENT_CHANGED);
  }
  return { settlementId: id, audience: audience([driverId]) };
}

/** The driver confirms a week's payment arrived: the settlement and its rides are received, in one batch. */
export async function confirmWeekReceived({ db }: ModelCtx, viewerId: string, settlementId: string, now = Date.now()) {
  const row = await db
    .select({ payerId: settlements.payerId, payeeId: settlements.payeeId, status: settlements.status })
    .from(settlements)
    .where(eq(settlements.id, settlementId))
    .get();
  if (!row || (row.payerId !== viewerId && row.payeeId !== viewerId)) throw new NotFoundError(STATEMENT_NOT_FOUND);
  if (row.payeeId !== viewerId) throw new ForbiddenError("Only the driver who was paid can confirm receiving it.");
  if (row.status === "received") throw new ConflictError("This payment is already confirmed.");
  const received = sql`EXISTS (SELECT 1 FROM settlements WHERE id = ${settlementId} AND status = 'received' AND received_at = ${now})`;
  const [updated] = await db.batch([
    db
      .update(settlements)
      .set({ status: "received", receivedAt: now })
      .where(and(eq(settlements.id, settlementId), eq(settlements.payeeId, viewerId), eq(settlements.status, "paid")))
      .returning({ id: settlements.id }),
    db
      .update(payments)
      .set({ status: "received", receivedAt: now })
      .where(and(eq(payments.settlementId, settlementId), eq(payments.status, "paid"), received)),
    notificationInsert(
      db,
      {
        userId: row.payerId,
        type: "ride_update",
        title: "Payment received",
        message: "Your driver confirmed receiving your payment for the week. Thank you!",
        data: { settlement_id: settlementId, status: "week_received" },
      },
      now,
      sql`WHERE ${received}`,
    ),
  ]);
  if (updated.length === 0) throw new ConflictError("This payment is already confirmed.");
  return { audience: audience([row.payerId]) };
}
