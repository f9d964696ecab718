import { InvalidDocumentError } from '../errors.js';

/** The escape JSON text writes U+0000 as: the only way the character reaches a parsed value. */
const ESCAPED_NUL = '\\u0000';
const NUL = '\u0000';
/** An escaped surrogate (`\uD800`–`\uDFFF`): the only way an unpaired one reaches a parsed value. */
const ESCAPED_SURROGATE = /\\u[dD][89a-fA-F][0-9a-fA-F]{2}/g;
/** A surrogate without its other half: UTF-8 cannot encode it, so the databases cannot keep it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether the character at `at` of JSON text starts an escape (not itself escaped by a backslash). */
function unescaped(text: string, at: number): boolean {
  let backslashes = 0;
  while (text[at - 1 - backslashes] === '\\') backslashes++;
  return backslashes % 2 === 0;
}

/**
 * Whether JSON text may hold a value no store keeps: U+0000, or a surrogate without its other half
 * (both only as escapes). Cheap: native searches that almost never find anything, so the values are
 * walked only when they do (an escaped emoji's pair does, and is then found whole).
 */
export function mayHoldUnstorable(text: string): boolean {
  for (let at = text.indexOf(ESCAPED_NUL); at !== -1; at = text.indexOf(ESCAPED_NUL, at + 1))
    if (unescaped(text, at)) return true;
  for (const match of text.matchAll(ESCAPED_SURROGATE)) if (unescaped(text, match.index)) return true;
  return false;
}

/** What of a string no store keeps, or null. */
function unstorable(text: string): string | null {
  if (text.includes(NUL)) return 'a NUL character (U+0000)';
  return LONE_SURROGATE.test(text) ? 'an unpaired surrogate (a lone half of a UTF-16 pair)' : null;
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
 * The first string (value or key) of a parsed JSON value that no store keeps, with its path, or
 * null. The walk keeps its own stack: JSON.parse takes a body nested 200,000 deep, a recursive walk
 * does not.
 */
export function unstorablePath(value: unknown): { path: string; what: string } | null {
  const stack: Step[] = [{ value, key: null, parent: null }];
  for (let step = stack.pop(); step; step = stack.pop()) {
    const current = step.value;
    const inKey = typeof step.key === 'string' ? unstorable(step.key) : null;
    if (inKey) return { path: spell(step), what: inKey };
    if (typeof current === 'string') {
      const what = unstorable(current);
      if (what) return { path: spell(step) || '(value)', what };
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
 * U+0000 and unpaired surrogates are refused in every value a request sends: PostgreSQL's text
 * cannot hold U+0000 (a stored customer's e-mail with one was a 500 there, and stored as sent on
 * SQLite), and a lone surrogate was kept as U+FFFD by PostgreSQL and as invalid UTF-8 by SQLite,
 * so two handles that differ only there became one on PostgreSQL. No merchant's data means
 * either. The 422 names the row (`index`, in a bulk body) and the field.
 */
export function refuseUnstorable(value: unknown, what: string, index?: number): void {
  const found = unstorablePath(value);
  if (found === null) return;
  const message = `holds ${found.what}, which no value may hold`;
  const where = index === undefined ? `The ${what}` : `Row ${index} of the ${what}`;
  throw new InvalidDocumentError(`${where}: ${found.path}: ${message}.`, [
    { ...(index === undefined ? {} : { index }), path: found.path, message },
  ]);
}

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
/** A string a store keeps: U+0000 removed, an unpaired surrogate made U+FFFD (what PostgreSQL made of it). */
const storable = (text: string) =>
  unstorable(text) ? text.replaceAll(NUL, '').replace(LONE_SURROGATES, '\uFFFD') : text;

/**
 * The value with its strings and keys made storable (upstream data: a platform's, taken as it is
 * sent), changed in place by a walk of its own stack.
 */
export function withoutUnstorable(value: unknown): unknown {
  if (typeof value === 'string') return storable(value);
  const stack: object[] = value !== null && typeof value === 'object' ? [value] : [];
  for (let current = stack.pop(); current; current = stack.pop()) {
    const record = current as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const inner = record[key];
      const kept = typeof inner === 'string' ? storable(inner) : inner;
      if (kept !== null && typeof kept === 'object') stack.push(kept);
      const storedKey = storable(key);
      if (storedKey === key) {
        if (kept !== inner) record[key] = kept;
        continue;
      }
      delete record[key];
      // Defined, not assigned: a key that becomes `__proto__` stays a key and sets no prototype.
      Object.defineProperty(record, storedKey, {
        value: kept,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return value;
}
