// Numbers as en-IN shows them, without Intl. Components that hydrate must not format through
// Intl: a page's first Intl formatter loads ICU's locale data in the browser, 18-80 ms of one
// task on this host before any slowdown (ADR 0061, "No Intl at hydration"), which alone made
// the dashboard miss Lighthouse's TBT goal. test/unit/numbers.test.ts holds these equal to
// Intl's output.

/** "1,23,45,678": a string of digits grouped the Indian way (lakh, crore). */
export function groupIndian(digits: string): string {
  const last3 = digits.slice(-3);
  const rest = digits.slice(0, -3);
  return rest ? `${rest.replace(/\B(?=(\d{2})+(?!\d))/g, ",")},${last3}` : last3;
}

/** The digits of a non-negative finite number without an exponent ("1e-7" -> "0.0000001"). */
function plainDigits(abs: number): string {
  const s = String(abs);
  const e = s.indexOf("e");
  if (e < 0) return s;
  const [int, frac = ""] = s.slice(0, e).split(".");
  const exp = Number(s.slice(e + 1));
  const all = int + frac;
  const point = int.length + exp;
  if (point <= 0) return `0.${"0".repeat(-point)}${all}`;
  return point >= all.length ? all + "0".repeat(point - all.length) : `${all.slice(0, point)}.${all.slice(point)}`;
}

/**
 * `value.toLocaleString("en-IN", { maximumFractionDigits })`, byte for byte: rounded half away
 * from zero on the shortest decimal form of the number (as ICU does, so 1.15 gives "1.2"),
 * trailing zeros dropped, Indian grouping.
 */
export function formatDecimal(value: number, maximumFractionDigits = 3): string {
  if (Number.isNaN(value)) return "NaN";
  const negative = value < 0 || Object.is(value, -0);
  const sign = negative ? "-" : "";
  if (!Number.isFinite(value)) return `${sign}∞`;
  const [int, frac = ""] = plainDigits(Math.abs(value)).split(".");
  let whole = int;
  let kept = frac;
  if (frac.length > maximumFractionDigits) {
    kept = frac.slice(0, maximumFractionDigits);
    if (frac[maximumFractionDigits] >= "5") {
      // Carry through the kept digits as one integer; it may gain a digit (9.96 -> 10.0).
      const up = String(BigInt(whole + kept) + 1n).padStart(whole.length + kept.length, "0");
      whole = up.slice(0, up.length - kept.length);
      kept = up.slice(up.length - kept.length);
    }
  }
  kept = kept.replace(/0+$/, "");
  return `${sign}${groupIndian(whole)}${kept ? `.${kept}` : ""}`;
}
