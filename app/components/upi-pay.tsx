import { formatRupees } from "~/domain/money";

export type UpiPayment = { link: string; qr: { size: number; d: string } };

/** A UPI QR code (drawn on the server, no script) and the same link for a phone's UPI app. */
export function UpiPay({ upi, amountPaise }: { upi: UpiPayment; amountPaise: number }) {
  return (
    <div className="mb-3 flex flex-wrap items-center gap-4">
      <svg
        role="img"
        aria-label="UPI payment QR code"
        viewBox={`0 0 ${upi.qr.size} ${upi.qr.size}`}
        className="h-36 w-36 bg-white"
        shapeRendering="crispEdges"
      >
        <path d={upi.qr.d} fill="#000" />
      </svg>
      <a
        href={upi.link}
        className="rounded-md border border-emerald-700 px-3 py-2 text-sm font-semibold text-emerald-800 hover:bg-emerald-50 dark:text-emerald-300"
      >
        Pay {formatRupees(amountPaise)} with a UPI app
      </a>
    </div>
  );
}
