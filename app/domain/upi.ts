/** A UPI deep link (NPCI "upi://pay") for paying a driver their share in rupees. */
export function upiPayLink({
  upiId,
  payeeName,
  amountPaise,
  note,
}: {
  upiId: string;
  payeeName: string;
  amountPaise: number;
  note: string;
}): string {
  const params = [
    `pa=${encodeURIComponent(upiId)}`,
    `pn=${encodeURIComponent(payeeName)}`,
    `am=${(amountPaise / 100).toFixed(2)}`,
    "cu=INR",
    `tn=${encodeURIComponent(note.slice(0, 80))}`,
  ];
  return `upi://pay?${params.join("&")}`;
}
