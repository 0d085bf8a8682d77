/**
 * A 10-digit Indian mobile number from what people type: spaces, dashes and a +91/0
 * prefix are allowed; the result is the bare 10 digits, or null.
 */
export function normalizeIndianMobile(input: string): string | null {
  let digits = input.replace(/[\s-]/g, "");
  if (digits.startsWith("+91")) digits = digits.slice(3);
  else if (digits.length === 12 && digits.startsWith("91")) digits = digits.slice(2);
  else if (digits.length === 11 && digits.startsWith("0")) digits = digits.slice(1);
  return /^[6-9]\d{9}$/.test(digits) ? digits : null;
}

/** 'xxxxx xxxxx' for display. */
export function formatMobile(digits: string): string {
  return `${digits.slice(0, 5)} ${digits.slice(5)}`;
}
