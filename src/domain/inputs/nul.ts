import { InvalidDocumentError } from '../errors.js';

/** The escape JSON text writes U+0000 as: the only way the character reaches a parsed value. */
const ESCAPED_NUL = '\\u0000';
const NUL = '\u0000';

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

/** A value met by a walk, with the way to it: the path is spelled only for the one found. */
interface Step {
  value: unknown;
  key: string | number | null;
  parent: Step | null;
}

/** Levels of a path spelled: a body nested deeper is named by its innermost ones, after an ellipsis. */
const SPELLED_LEVELS = 64;

function spell(step: Step): string {
  let path = '';
  let levels = 0;
  for (let at: Step | null = step; at?.parent; at = at.parent) {
    if (++levels > SPELLED_LEVELS) return `…${path}`;
    path = typeof at.key === 'number' ? `[${at.key}]${path}` : `${at.parent.parent ? '.' : ''}${at.key}${path}`;
  }
  return path;
}

/**
 * The path of the first string (value or key) of a parsed JSON value holding U+0000, or null. The
 * walk keeps its own stack: JSON.parse takes a body nested 200,000 deep, a recursive walk does not.
 */
export function nulPath(value: unknown): string | null {
  const stack: Step[] = [{ value, key: null, parent: null }];
  for (let step = stack.pop(); step; step = stack.pop()) {
    const current = step.value;
    if (typeof step.key === 'string' && step.key.includes(NUL)) return spell(step);
    if (typeof current === 'string') {
      if (current.includes(NUL)) return spell(step) || '(value)';
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], key: i, parent: step });
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current);
      for (let i = entries.length - 1; i >= 0; i--)
        stack.push({ value: entries[i]![1], key: entries[i]![0], parent: step });
    }
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

/** The value with U+0000 removed from its strings and keys, changed in place (a walk of its own stack). */
export function withoutNul(value: unknown): unknown {
  if (typeof value === 'string') return value.replaceAll(NUL, '');
  const stack: object[] = value !== null && typeof value === 'object' ? [value] : [];
  for (let current = stack.pop(); current; current = stack.pop()) {
    const record = current as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const inner = record[key];
      const kept = typeof inner === 'string' && inner.includes(NUL) ? inner.replaceAll(NUL, '') : inner;
      if (kept !== null && typeof kept === 'object') stack.push(kept);
      if (!key.includes(NUL)) {
        if (kept !== inner) record[key] = kept;
        continue;
      }
      delete record[key];
      // Defined, not assigned: a key that becomes `__proto__` stays a key and sets no prototype.
      Object.defineProperty(record, key.replaceAll(NUL, ''), {
        value: kept,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return value;
}
