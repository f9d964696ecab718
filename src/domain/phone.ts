/** Fewest trailing digits two numbers must share to be one (a subscriber number without its country code). */
const SHARED_DIGITS = 9;

/** A phone number's digits, whatever it was written with (`+44 20 7946 0958` → `442079460958`). */
export const phoneDigits = (phone: string): string => phone.replace(/\D/g, '');

/** Whether a number is written with its country code (`+44 …`, `0044 …`). */
export const writtenInternationally = (phone: string): boolean => /^[\s(]*(\+|00)/.test(phone);

/** A number's digits, the `00` that stands for `+` dropped (`0044 20…` and `+44 20…` are one). */
export function numberDigits(phone: string): string {
  // `+44 (0)20 …`: the trunk prefix a national reader dials, written beside the country code, is no digit of it.
  const digits = phoneDigits(writtenInternationally(phone) ? phone.replace(/\(\s*0\s*\)/, '') : phone);
  return /^[\s(]*00/.test(phone) ? digits.slice(2) : digits;
}

/**
 * Whether two written phone numbers are one: the same digits, or the same last nine when one of them
 * is written nationally (its country code left out, a trunk prefix in its place). Two numbers written
 * with their country codes are one only whole: `+33 6 12 34 56 78` and `+31 6 12345678` share their
 * last nine digits and are two people. Fewer than seven digits are no number.
 */
export function samePhone(a: string, b: string): boolean {
  const [x, y] = [numberDigits(a), numberDigits(b)];
  if (x.length < 7 || y.length < 7) return false;
  if (x === y) return true;
  if (writtenInternationally(a) && writtenInternationally(b)) return false;
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
