/**
 * A wizard's step from the URL or a form field: a whole number from 1 to 4; anything else
 * ("1.5", "9", "") is step 1. A fractional step once selected no schema and threw: a 500.
 */
export function wizardStep(value: FormDataEntryValue | string | null | undefined): 1 | 2 | 3 | 4 {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 4 ? (n as 1 | 2 | 3 | 4) : 1;
}
