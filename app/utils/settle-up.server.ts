import { upiPayLink } from "../domain/upi";
import type { WeekStatement } from "../models/settle-up.server";
import { qrPath } from "./qr.server";

/** The rider's one UPI link and QR for a week's unpaid total (when the driver has a UPI ID). */
export function weekUpi(statement: WeekStatement): { link: string; qr: { size: number; d: string } } | null {
  if (statement.viewerIs !== "rider" || statement.unpaidPaise <= 0 || !statement.driver.upiId) return null;
  const link = upiPayLink({
    upiId: statement.driver.upiId,
    payeeName: statement.driver.name ?? "LoopRide driver",
    amountPaise: statement.unpaidPaise,
    note: `LoopRide week of ${statement.week}, ${statement.unpaidRides} rides`,
  });
  return { link, qr: qrPath(link) };
}
