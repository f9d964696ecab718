import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './json-codes.js';
import { mayHoldUnstorable, withoutUnstorable } from './nul.js';

/**
 * JSON from an upstream (the platform's webhooks and exports, the billing provider's answers), with
 * U+0000 taken out of every string and key and an unpaired surrogate made U+FFFD. A request's value
 * holding either is refused (refuseUnstorable), but the platform's data is what the shop holds: a
 * product description with a NUL would otherwise be stored as sent on SQLite and fail every write
 * on PostgreSQL, the product never updated again.
 * Throws what JSON.parse throws, and a SyntaxError for a text nested deeper than MAX_UPSTREAM_DEPTH.
 */
export function parseUpstreamJson(text: string): unknown {
  if (text.length >= DEPTH_CHECKED_FROM && nestedDeeperThan(text, MAX_UPSTREAM_DEPTH))
    throw new SyntaxError(`JSON nested deeper than ${MAX_UPSTREAM_DEPTH} levels`);
  const value: unknown = JSON.parse(text);
  return mayHoldUnstorable(text) ? withoutUnstorable(value) : value;
}

/**
 * Levels of nesting an upstream document may have: the platform's and the billing provider's are
 * a few levels deep. JSON.parse takes a deeply nested text at a fifteenth of its usual speed (a
 * 4.8 MB webhook of 2.4 million levels held the event loop 0.9 s), so a deeper one is refused
 * unparsed. A shorter text is parsed without the check: 16 K levels parse in a few milliseconds.
 */
export const MAX_UPSTREAM_DEPTH = 128;
const DEPTH_CHECKED_FROM = 16 * 1024;

/** Whether JSON text nests deeper than `max`: brackets counted outside strings, a quarter of parsing's cost. */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === QUOTE) break;
      }
    } else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
  }
  return false;
}
