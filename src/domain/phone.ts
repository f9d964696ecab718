/** Fewest trailing digits two numbers must share to be one (a subscriber number without its country code). */
const SHARED_DIGITS = 9;

/** A phone number's digits, whatever it was written with (`+44 20 7946 0958` → `442079460958`). */
export const phoneDigits = (phone: string): string => phone.replace(/\D/g, '');

/**
 * Whether two written phone numbers are one: the same digits, or the same last nine (one written with
 * its country code, the other with the national trunk prefix). Fewer than seven digits are no number.
 */
export function samePhone(a: string, b: string): boolean {
  const [x, y] = [phoneDigits(a), phoneDigits(b)];
  if (x.length < 7 || y.length < 7) return false;
  if (x === y) return true;
  return x.length >= SHARED_DIGITS && y.length >= SHARED_DIGITS && x.slice(-SHARED_DIGITS) === y.slice(-SHARED_DIGITS);
}

/** Every string under a key named `phone` in a parsed document, at any depth. */
export function phonesIn(document: unknown, found: string[] = []): string[] {
  if (Array.isArray(document)) for (const item of document) phonesIn(item, found);
  else if (document !== null && typeof document === 'object')
    for (const [key, value] of Object.entries(document)) {
      if (key === 'phone' && typeof value === 'string') found.push(value);
      else phonesIn(value, found);
    }
  return found;
}
