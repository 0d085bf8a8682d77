// Money is integer paise everywhere; rupees only at the edges (forms and display).

/** ₹1,23,456.00: Indian digit grouping (lakh, crore), always two decimals. */
export function formatRupees(paise: number, { decimals = 2 }: { decimals?: 0 | 2 } = {}): string {
  const negative = paise < 0;
  const abs = Math.abs(Math.round(paise));
  const rupees = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, "0");
  const digits = String(rupees);
  const last3 = digits.slice(-3);
  const rest = digits.slice(0, -3);
  const grouped = rest ? `${rest.replace(/\B(?=(\d{2})+(?!\d))/g, ",")},${last3}` : last3;
  return `${negative ? "-" : ""}₹${grouped}${decimals === 2 ? `.${fraction}` : ""}`;
}

/** Parses a rupee amount typed by a person ("250", "250.5", "1,250.00") into paise. */
export function parseRupeesToPaise(input: string): number | null {
  const cleaned = input.replace(/[₹,\s]/g, "");
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(cleaned)) return null;
  const [whole, frac = ""] = cleaned.split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}
