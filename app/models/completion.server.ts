import { isUniqueViolation } from "./db-errors.server";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import {
  communities,
  communityMembers,
  payments,
  rideRatings,
  rideRequests,
  rides,
  userProfiles,
} from "../../db/schema";
import { computeCostBreakdown, PRICING_MODES, type CostBreakdown, type PricingMode } from "../domain/cost-split";
import { newId } from "../domain/ids";
import { COMPLETE_EARLY_MS, TOO_EARLY_TO_COMPLETE } from "../domain/rides";
import { ConflictError, ForbiddenError, NotFoundError } from "./errors.server";
import { notificationInsert } from "./notifications.server";
import { requestExpiredNotifications } from "./ride-requests.server";
import { maySeeRide } from "./permissions.server";
import { type ModelCtx, audience } from "./context.server";

const driverProfile = alias(userProfiles, "driver_profile");

const pricingOf = (v: string | null) =>
  (PRICING_MODES as readonly (string | null)[]).includes(v) ? (v as PricingMode) : null;

/** The ride with its driver and community, for loadRide or a batch (rows: [] when missing). */
const rideQuery = (db: ModelCtx["db"], rideId: string) =>
  db
    .select({
      id: rides.id,
      driverId: rides.driverId,
      driverName: driverProfile.fullName,
      driverUpiId: driverProfile.upiId,
      fromLocation: rides.fromLocation,
      toLocation: rides.toLocation,
      date: rides.date,
      time: rides.time,
      departsAt: rides.departsAt,
      seats: rides.seats,
      bookedSeats: rides.bookedSeats,
      tripCostPaise: rides.tripCostPaise,
      status: rides.status,
      splitMode: rides.splitMode,
      pricingMode: rides.pricingMode,
      completedAt: rides.completedAt,
      paymentsRequestedAt: rides.paymentsRequestedAt,
      communityId: rides.communityId,
      communityName: communities.name,
      communityType: communities.type,
    })
    .from(rides)
    .leftJoin(driverProfile, eq(driverProfile.userId, rides.driverId))
    .leftJoin(communities, eq(communities.id, rides.communityId))
    .where(eq(rides.id, rideId));

async function loadRide({ db }: ModelCtx, rideId: string) {
  return (await rideQuery(db, rideId).get()) ?? null;
}

export type CompletionRide = NonNullable<Awaited<ReturnType<typeof loadRide>>>;

/** Accepted riders with their names and whether they are approved members of the ride's community. */
async function acceptedRiders({ db }: ModelCtx, rideId: string, communityId: string | null) {
  return db
    .select({
      userId: rideRequests.riderId,
      name: userProfiles.fullName,
      seats: rideRequests.seats,
      shownMaxPaise: rideRequests.quotedPaise,
      member: sql<number>`EXISTS (SELECT 1 FROM ${communityMembers} m WHERE m.community_id = ${communityId} AND m.user_id = ${rideRequests.riderId} AND m.status = 'approved')`,
    })
    .from(rideRequests)
    .leftJoin(userProfiles, eq(userProfiles.userId, rideRequests.riderId))
    .where(and(eq(rideRequests.rideId, rideId), eq(rideRequests.status, "accepted")))
    .orderBy(asc(rideRequests.createdAt));
}

async function isApprovedMember({ db }: ModelCtx, communityId: string | null, userId: string) {
  if (!communityId) return false;
  const row = await db
    .select({ id: communityMembers.id })
    .from(communityMembers)
    .where(
      and(
        eq(communityMembers.communityId, communityId),
        eq(communityMembers.userId, userId),
        eq(communityMembers.status, "approved"),
      ),
    )
    .get();
  return !!row;
}

/**
 * Completes a ride: only its driver, only while active, only with a booked seat. One
 * batch sets the status, records one payment per accepted rider and notifies them. The
 * batch is idempotent: the status change is guarded by `status = 'active'`, payments by
 * the unique (ride, payer) index, notifications by NOT EXISTS, so completing twice (even
 * at the same moment) leaves exactly one set.
 */
export async function completeRide(ctx: ModelCtx, userId: string, rideId: string, now = Date.now()) {
  const { db } = ctx;
  const ride = await loadRide(ctx, rideId);
  if (!ride) throw new NotFoundError("Ride Not Found");
  if (ride.driverId !== userId) throw new ForbiddenError("Only the driver can complete this ride.");
  if (ride.status === "cancelled") throw new ConflictError("This ride was cancelled.");
  if (ride.status !== "active") throw new ConflictError("This ride has already been completed.");
  if (ride.bookedSeats < 1) throw new ConflictError("A ride needs at least one booked seat to be completed.");
  if (now < ride.departsAt - COMPLETE_EARLY_MS) throw new ConflictError(TOO_EARLY_TO_COMPLETE);
  const [riders, driverMember] = await Promise.all([
    acceptedRiders(ctx, rideId, ride.communityId),
    isApprovedMember(ctx, ride.communityId, userId),
  ]);
  const breakdown = computeCostBreakdown({
    tripCostPaise: ride.tripCostPaise,
    seatsOffered: ride.seats,
    community: ride.communityId ? { name: ride.communityName ?? "", type: ride.communityType ?? "" } : null,
    driverInCommunity: driverMember,
    riders: riders.map((r) => ({
      userId: r.userId,
      name: r.name,
      seats: r.seats,
      sameCommunity: r.member === 1,
      shownMaxPaise: r.shownMaxPaise,
    })),
    pricing: pricingOf(ride.pricingMode),
  });
  // A free ride (issue 16) owes nothing: its ₹0 shares are recorded as already settled.
  const free = breakdown.mode === "free";
  const route = `${ride.fromLocation} → ${ride.toLocation}`;
  // Rows inserted only if the ride is completed at that point of the batch: INSERT ... SELECT
  // from the ride row itself (drizzle's D1 batch cannot bind parameters of raw sql).
  const rideIsCompleted = and(eq(rides.id, rideId), eq(rides.status, "completed"));
  const lit = <T>(v: T) => sql<T>`${v}`;
  // The split was computed from the accepted riders read above: the ride completes only if
  // exactly those riders are still accepted (an accept or a cancel racing this completion
  // makes it change nothing and ask to try again), and not too early.
  const riderIds = riders.map((r) => r.userId);
  const sameRiders = sql`(SELECT count(*) FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rideId} AND ${rideRequests.status} = 'accepted') = ${riderIds.length}
    AND NOT EXISTS (SELECT 1 FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rideId} AND ${rideRequests.status} = 'accepted' AND ${rideRequests.riderId} NOT IN ${riderIds})`;
  const message = `Your request for ${route} expired: the ride was completed before the driver answered it.`;
  const statements = [
    db
      .update(rides)
      .set({ status: "completed", completedAt: now, splitMode: free ? "standard" : breakdown.mode })
      .where(
        and(
          eq(rides.id, rideId),
          eq(rides.driverId, userId),
          eq(rides.status, "active"),
          sql`${rides.bookedSeats} > 0`,
          sql`${rides.departsAt} <= ${now + COMPLETE_EARLY_MS}`,
          sameRiders,
        ),
      )
      .returning({ id: rides.id }),
    // Requests still pending are closed with the ride: their riders are told, then they expire.
    requestExpiredNotifications(
      db,
      message,
      sql`FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rideId} AND ${rideRequests.status} = 'pending'
        AND EXISTS (SELECT 1 FROM ${rides} WHERE ${rides.id} = ${rideId} AND ${rides.status} = 'completed')`,
      now,
    ),
    db
      .update(rideRequests)
      .set({ status: "expired", decidedAt: now })
      .where(
        and(
          eq(rideRequests.rideId, rideId),
          eq(rideRequests.status, "pending"),
          sql`EXISTS (SELECT 1 FROM ${rides} WHERE ${rides.id} = ${rideId} AND ${rides.status} = 'completed')`,
        ),
      )
      .returning({ riderId: rideRequests.riderId }),
    ...breakdown.riders.flatMap((r) => [
      db
        .insert(payments)
        .select(
          db
            .select({
              id: lit(newId()).as("id"),
              rideId: lit(rideId).as("ride_id"),
              payerId: lit(r.userId).as("payer_id"),
              payeeId: lit(userId).as("payee_id"),
              seats: lit(r.seats).as("seats"),
              amountPaise: lit(r.amountPaise).as("amount_paise"),
              status: lit(free ? "received" : "pending").as("status"),
              method: sql<null>`NULL`.as("method"),
              createdAt: lit(now).as("created_at"),
              requestedAt: sql<null>`NULL`.as("requested_at"),
              paidAt: sql<null>`NULL`.as("paid_at"),
              receivedAt: (free ? lit(now) : sql<null>`NULL`).as("received_at"),
              settlementId: sql<null>`NULL`.as("settlement_id"),
            })
            .from(rides)
            .where(rideIsCompleted),
        )
        .onConflictDoNothing(),
      notificationInsert(
        db,
        {
          userId: r.userId,
          type: "ride_update",
          title: "Ride completed",
          message: free
            ? `Your ride ${route} is complete. It was a free ride: you owe nothing.`
            : `Your ride ${route} is complete. Your share is ready to settle.`,
          data: { ride_id: rideId, status: "completed" },
        },
        now,
        sql`FROM ${rides} WHERE ${and(
          rideIsCompleted,
          sql`NOT EXISTS (SELECT 1 FROM notifications n WHERE n.user_id = ${r.userId} AND n.type = 'ride_update'
                AND json_extract(n.data, '$.ride_id') = ${rideId} AND json_extract(n.data, '$.status') = 'completed')`,
        )}`,
      ),
    ]),
  ];
  const [completed, , expired] = (await db.batch(
    statements as unknown as Parameters<typeof db.batch>[0],
  )) as unknown as [{ id: string }[], unknown, { riderId: string }[]];
  if (completed.length === 0) {
    const after = await loadRide(ctx, rideId);
    if (after?.status === "completed") return { audience: audience() };
    if (after?.status === "cancelled") throw new ConflictError("This ride was cancelled.");
    throw new ConflictError(
      "The ride's bookings changed while it was being completed. Please check them and try again.",
    );
  }
  return { audience: audience([...breakdown.riders.map((r) => r.userId), ...expired.map((r) => r.riderId)]) };
}

export type BreakdownRider = CostBreakdown["riders"][number] & {
  paymentId: string;
  status: "pending" | "requested" | "paid" | "received";
  method: "upi" | "cash" | null;
};

export type CompletionView = {
  ride: CompletionRide;
  viewer: { isDriver: boolean; isParticipant: boolean };
  breakdown: (Omit<CostBreakdown, "riders"> & { riders: BreakdownRider[] }) | null;
  /** People on the ride the viewer may still rate (completed rides only). */
  canRate: { userId: string; name: string | null }[];
  rated: { userId: string; stars: number }[];
  /** Issue 16: the accepted riders' no-show marks (completed rides). */
  noShows: { userId: string; markedAt: number | null; disputedAt: number | null; pickedUpAt: number | null }[];
};

/**
 * The completion page's data, for the driver and the ride's participants only. A
 * completed ride's breakdown is read from what was recorded at completion.
 */
export async function getCompletionView(ctx: ModelCtx, userId: string, rideId: string): Promise<CompletionView> {
  const { db } = ctx;
  // One batch (ADR 0029): the ride and the decision (is the viewer on it, may they see it)
  // come with the reads they decide. Those reads name the ride's community and driver in SQL
  // and are guarded by the same participant test, so a stranger's batch returns no one's
  // payments or marks; the model then throws from the decision.
  const participant = sql`(EXISTS (SELECT 1 FROM ${rides} WHERE ${rides.id} = ${rideId} AND ${rides.driverId} = ${userId})
    OR EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.rideId} = ${rideId} AND ${payments.payerId} = ${userId})
    OR EXISTS (SELECT 1 FROM ${rideRequests} WHERE ${rideRequests.rideId} = ${rideId} AND ${rideRequests.riderId} = ${userId} AND ${rideRequests.status} = 'accepted'))`;
  const rideCommunity = sql`(SELECT ${rides.communityId} FROM ${rides} WHERE ${rides.id} = ${rideId})`;
  const [found, decision, recorded, riders, driverMember, myRatings] = await db.batch([
    rideQuery(db, rideId),
    db
      .select({
        participant: sql<number>`${participant}`.as("participant"),
        // Asked only of an outsider (CASE does not evaluate it for a participant).
        visible: sql<number>`CASE WHEN ${participant} THEN 1 ELSE ${maySeeRide(userId, { withRequests: true })} END`.as(
          "visible",
        ),
      })
      .from(rides)
      .where(eq(rides.id, rideId)),
    db
      .select({
        id: payments.id,
        payerId: payments.payerId,
        seats: payments.seats,
        amountPaise: payments.amountPaise,
        status: payments.status,
        method: payments.method,
        name: userProfiles.fullName,
        member: sql<number>`EXISTS (SELECT 1 FROM ${communityMembers} m WHERE m.community_id = ${rideCommunity} AND m.user_id = ${payments.payerId} AND m.status = 'approved')`,
      })
      .from(payments)
      .leftJoin(userProfiles, eq(userProfiles.userId, payments.payerId))
      .where(and(eq(payments.rideId, rideId), participant))
      .orderBy(asc(payments.createdAt), asc(payments.id)),
    db
      .select({
        userId: rideRequests.riderId,
        markedAt: rideRequests.noShowAt,
        disputedAt: rideRequests.noShowDisputedAt,
        // Issue 37: boarded with the pickup code (no no-show can be marked).
        pickedUpAt: rideRequests.pickedUpAt,
      })
      .from(rideRequests)
      .where(and(eq(rideRequests.rideId, rideId), eq(rideRequests.status, "accepted"), participant)),
    db
      .select({ id: communityMembers.id })
      .from(communityMembers)
      .where(
        and(
          sql`${communityMembers.communityId} = ${rideCommunity}`,
          sql`${communityMembers.userId} = (SELECT ${rides.driverId} FROM ${rides} WHERE ${rides.id} = ${rideId})`,
          eq(communityMembers.status, "approved"),
          participant,
        ),
      ),
    db
      .select({ rateeId: rideRatings.rateeId, stars: rideRatings.stars })
      .from(rideRatings)
      .where(and(eq(rideRatings.rideId, rideId), eq(rideRatings.raterId, userId))),
  ]);
  const ride = found[0];
  if (!ride) throw new NotFoundError("Ride Not Found");
  const isDriver = ride.driverId === userId;
  const isParticipant = decision[0]?.participant === 1;
  if (!isParticipant) {
    // An outsider of a community ride learns nothing, not even that it exists (404, not 403).
    if (decision[0]?.visible !== 1) throw new NotFoundError("Ride Not Found");
    throw new ForbiddenError("Only the driver and the riders of this ride can see it.");
  }

  let breakdown: CompletionView["breakdown"] = null;
  if (ride.status === "completed") {
    const community = ride.communityId ? { name: ride.communityName ?? "", type: ride.communityType ?? "" } : null;
    const base = computeCostBreakdown({
      tripCostPaise: ride.tripCostPaise,
      seatsOffered: ride.seats,
      community,
      driverInCommunity: driverMember.length > 0,
      riders: recorded.map((p) => ({ userId: p.payerId, name: p.name, seats: p.seats, sameCommunity: p.member === 1 })),
      pricing: pricingOf(ride.pricingMode),
    });
    // The recorded split wins over today's memberships; a free ride's mode is the ride's own copy.
    const mode = ride.pricingMode === "free" ? "free" : ride.splitMode === "split" ? "split" : "standard";
    const ridersLines: BreakdownRider[] = recorded.map((p) => ({
      userId: p.payerId,
      name: p.name,
      seats: p.seats,
      sameCommunity: p.member === 1,
      amountPaise: p.amountPaise,
      explanation: mode === "free" ? "Free ride" : mode === "split" ? "Equal share" : `${p.seats} × cost per seat`,
      paymentId: p.id,
      status: p.status as BreakdownRider["status"],
      method: (p.method as BreakdownRider["method"]) ?? null,
    }));
    const collected = ridersLines.reduce((s, r) => s + r.amountPaise, 0);
    breakdown = {
      ...base,
      mode,
      riders: ridersLines,
      collectedPaise: collected,
      driverCoversPaise: ride.tripCostPaise - collected,
      totalParticipants: ridersLines.length + 1,
      driver:
        mode === "split"
          ? { label: "Equal share", amountPaise: ride.tripCostPaise - collected }
          : { label: mode === "free" ? "Free ride" : "No charge", amountPaise: null },
    };
  }
  const people = [
    { userId: ride.driverId, name: ride.driverName },
    ...recorded.map((p) => ({ userId: p.payerId, name: p.name })),
  ];
  const rated = myRatings.map((r) => ({ userId: r.rateeId, stars: r.stars }));
  const canRate =
    ride.status === "completed"
      ? people.filter((p) => p.userId !== userId && !rated.some((r) => r.userId === p.userId))
      : [];
  // The driver sees every rider's mark; a rider only their own.
  const noShows = ride.status === "completed" ? riders.filter((r) => isDriver || r.userId === userId) : [];
  return { ride, viewer: { isDriver, isParticipant }, breakdown, canRate, rated, noShows };
}

/** Process Payments: the driver asks every rider who has not paid yet to settle up. */
export async function requestPayments(ctx: ModelCtx, userId: string, rideId: string, now = Date.now()) {
  const { db } = ctx;
  const ride = await loadRide(ctx, rideId);
  if (!ride) throw new NotFoundError("Ride Not Found");
  if (ride.driverId !== userId) throw new ForbiddenError("Only the driver can process payments for this ride.");
  if (ride.status !== "completed") throw new ConflictError("Payments can be processed once the ride is completed.");
  const due = await db
    .select({ id: payments.id, payerId: payments.payerId, amountPaise: payments.amountPaise })
    .from(payments)
    .where(and(eq(payments.rideId, rideId), eq(payments.status, "pending")));
  await db.batch([
    db.update(rides).set({ paymentsRequestedAt: now }).where(eq(rides.id, rideId)),
    db
      .update(payments)
      .set({ status: "requested", requestedAt: now })
      .where(and(eq(payments.rideId, rideId), eq(payments.status, "pending"))),
    ...due.map((p) =>
      notificationInsert(
        db,
        {
          userId: p.payerId,
          type: "ride_update",
          title: "Payment requested",
          message: `${ride.driverName ?? "Your driver"} asked you to settle your share for ${ride.fromLocation} → ${ride.toLocation}.`,
          data: { ride_id: rideId, payment_id: p.id, status: "payment_requested" },
        },
        now,
      ),
    ),
  ]);
  return { requested: due.length, audience: audience(due.map((p) => p.payerId)) };
}

async function loadPayment({ db }: ModelCtx, paymentId: string) {
  return (
    (await db
      .select({
        id: payments.id,
        rideId: payments.rideId,
        payerId: payments.payerId,
        payeeId: payments.payeeId,
        status: payments.status,
        amountPaise: payments.amountPaise,
      })
      .from(payments)
      .where(eq(payments.id, paymentId))
      .get()) ?? null
  );
}

/** The rider marks their share paid (UPI or cash). Only the payer, only before it is paid. */
export async function markPaymentPaid(
  ctx: ModelCtx,
  userId: string,
  paymentId: string,
  method: "upi" | "cash",
  now = Date.now(),
) {
  const { db } = ctx;
  const payment = await loadPayment(ctx, paymentId);
  if (!payment) throw new NotFoundError("Payment not found");
  if (payment.payerId !== userId) throw new ForbiddenError("Only the rider who owes this payment can mark it paid.");
  if (payment.status === "paid" || payment.status === "received")
    throw new ConflictError("This payment is already marked as paid.");
  // Guarded by the status: a week's settlement (or a second tab) that paid it meanwhile
  // leaves this changing nothing, and the driver is told nothing twice.
  const paidNow = sql`EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.id} = ${paymentId} AND ${payments.paidAt} = ${now} AND ${payments.method} = ${method})`;
  const [changed] = await db.batch([
    db
      .update(payments)
      .set({ status: "paid", method, paidAt: now })
      .where(
        and(
          eq(payments.id, paymentId),
          eq(payments.payerId, userId),
          inArray(payments.status, ["pending", "requested"]),
        ),
      )
      .returning({ id: payments.id }),
    notificationInsert(
      db,
      {
        userId: payment.payeeId,
        type: "ride_update",
        title: "Payment marked as paid",
        message: `A rider marked their share as paid by ${method === "upi" ? "UPI" : "cash"}. Please confirm when you receive it.`,
        data: { ride_id: payment.rideId, payment_id: paymentId, status: "paid" },
      },
      now,
      sql`WHERE ${paidNow}`,
    ),
  ]);
  if (changed.length === 0) throw new ConflictError("This payment is already marked as paid.");
  return { rideId: payment.rideId, audience: audience([payment.payeeId]) };
}

/** The driver confirms they received a rider's share. Only the payee. */
export async function confirmPaymentReceived(ctx: ModelCtx, userId: string, paymentId: string, now = Date.now()) {
  const { db } = ctx;
  const payment = await loadPayment(ctx, paymentId);
  if (!payment) throw new NotFoundError("Payment not found");
  if (payment.payeeId !== userId)
    throw new ForbiddenError("Only the driver who is owed this payment can confirm receiving it.");
  if (payment.status === "received") throw new ConflictError("This payment is already confirmed.");
  await db.batch([
    db
      .update(payments)
      .set({ status: "received", receivedAt: now })
      .where(and(eq(payments.id, paymentId), eq(payments.payeeId, userId), sql`${payments.status} <> 'received'`)),
    notificationInsert(
      db,
      {
        userId: payment.payerId,
        type: "ride_update",
        title: "Payment received",
        message: "Your driver confirmed receiving your share. Thank you!",
        data: { ride_id: payment.rideId, payment_id: paymentId, status: "received" },
      },
      now,
    ),
  ]);
  return { rideId: payment.rideId, audience: audience([payment.payerId]) };
}

/** Rate someone you rode with on a completed ride, once. */
export async function rateParticipant(
  ctx: ModelCtx,
  raterId: string,
  rideId: string,
  input: { rateeId: string; stars: number; comment: string | null },
  now = Date.now(),
) {
  const { db } = ctx;
  const ride = await loadRide(ctx, rideId);
  if (!ride) throw new NotFoundError("Ride Not Found");
  if (ride.status !== "completed")
    throw new ConflictError("You can rate your co-passengers once the ride is completed.");
  if (raterId === input.rateeId) throw new ConflictError("You cannot rate yourself.");
  const riders = await db.select({ payerId: payments.payerId }).from(payments).where(eq(payments.rideId, rideId));
  const people = new Set([ride.driverId, ...riders.map((r) => r.payerId)]);
  if (!people.has(raterId) || !people.has(input.rateeId)) {
    throw new ForbiddenError("You can only rate people you rode with.");
  }
  try {
    await db.insert(rideRatings).values({
      id: newId(),
      rideId,
      raterId,
      rateeId: input.rateeId,
      stars: input.stars,
      comment: input.comment,
      createdAt: now,
    });
  } catch (e) {
    if (isUniqueViolation(e)) {
      throw new ConflictError("You have already rated this person for this ride.");
    }
    throw e;
  }
}
