import { upiPayLink } from "../domain/upi";
import type { CompletionView } from "../models/completion.server";
import { qrPath } from "./qr.server";

/** A rider who still owes their share gets a UPI link and its QR code (when the driver has a UPI ID). */
export function riderUpi(
  view: CompletionView,
  userId: string,
): { link: string; qr: { size: number; d: string } } | null {
  const mine = view.breakdown?.riders.find((r) => r.userId === userId);
  if (
    !mine ||
    mine.amountPaise <= 0 ||
    (mine.status !== "pending" && mine.status !== "requested") ||
    !view.ride.driverUpiId
  )
    return null;
  const link = upiPayLink({
    upiId: view.ride.driverUpiId,
    payeeName: view.ride.driverName ?? "LoopRide driver",
    amountPaise: mine.amountPaise,
    note: `LoopRide ${view.ride.fromLocation} to ${view.ride.toLocation} ${view.ride.date}`,
  });
  return { link, qr: qrPath(link) };
}
