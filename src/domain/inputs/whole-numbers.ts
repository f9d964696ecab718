/**
 * A whole number an upstream document gives (an id, a stock level): a safe integer, or a string of
 * decimal digits. `Number()` reads more than that: "0x10" is 16 and "1e3" a thousand, so a
 * customers/redact webhook naming customer "0x10" erased customer 16. Null for anything else.
 */
export function wholeNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value !== 'string' || !/^-?\d{1,16}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return Number.isSafeInteger(n) ? n : null;
}

/** An id an upstream document gives: a whole number of at least 1, or null. */
export function upstreamId(value: unknown): number | null {
  const n = wholeNumber(value);
  return n !== null && n >= 1 ? n : null;
}
