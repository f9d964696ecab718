import { InvalidDocumentError } from '../errors.js';

/** The escape JSON text writes U+0000 as: the only way the character reaches a parsed value. */
const ESCAPED_NUL = '\\u0000';

/**
 * Whether JSON text may hold U+0000 (its escape, not preceded by an escaping backslash). Cheap: a
 * native search that almost never finds anything, so the values are walked only when it does.
 */
export function mayHoldNul(text: string): boolean {
  for (let at = text.indexOf(ESCAPED_NUL); at !== -1; at = text.indexOf(ESCAPED_NUL, at + 1)) {
    let backslashes = 0;
    while (text[at - 1 - backslashes] === '\\') backslashes++;
    if (backslashes % 2 === 0) return true;
  }
  return false;
}

/** The path of the first string (value or key) of a parsed JSON value holding U+0000, or null. */
export function nulPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '(value)' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], `${path}[${i}]`);
      if (found !== null) return found;
    }
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = nulPath(inner, at);
    if (found !== null) return found;
  }
  return null;
}

/**
 * U+0000 is refused in every value a request sends: PostgreSQL's text cannot hold it (a stored
 * customer's e-mail or a ruleset's name with one was a 500 there, and stored as sent on SQLite),
 * and no merchant's data means it. The 422 names the row (`index`, in a bulk body) and the field.
 */
export function refuseNul(value: unknown, what: string, index?: number): void {
  const path = nulPath(value);
  if (path === null) return;
  const message = 'holds a NUL character (U+0000), which no value may hold';
  const where = index === undefined ? `The ${what}` : `Row ${index} of the ${what}`;
  throw new InvalidDocumentError(`${where}: ${path}: ${message}.`, [
    { ...(index === undefined ? {} : { index }), path, message },
  ]);
}
