import { isCalendarDate, parseRequestTime } from '../rules/local-time.js';
import { isEmailAddress } from './email-address.js';
import { clip, DECODE, invalid, missing, param, type TParam } from './param.js';

interface TextOptions {
  max: number;
  required?: boolean;
  /** The message when a required text is absent (default: "Missing required endpoint argument: <name>."). */
  missing?: string;
  examples?: string[];
}

/** Free text up to a length, trimmed; null when absent, or a 400 when required. */
export function text(description: string, options: TextOptions & { required: true }): TParam<string>;
export function text(description: string, options: TextOptions & { required?: false }): TParam<string | null>;
export function text(description: string, options: TextOptions): TParam<string | null> {
  return param(
    {
      description,
      ...(options.required ? { required: true } : {}),
      ...(options.examples ? { examples: options.examples } : {}),
    },
    {
      decode(raw, name) {
        const value = raw?.trim() ?? '';
        if (value === '') {
          if (options.required) throw missing(name, options.missing);
          return null;
        }
        if (value.length > options.max)
          throw invalid(name, `Parameter ${name} is longer than ${options.max} characters.`);
        return value;
      },
      key: (value) => (value === null ? null : encodeURIComponent(value)),
    },
  );
}

/** What separates the words of a search: spaces and punctuation, as the full-text index splits them. */
const WORD_BREAK = /[\n\r\p{Z}\p{P}]+/u;

/**
 * A search text: its distinct words, lower-cased, in their order, joined by a space (so `a a a`
 * is `a`, one search and one cached answer). At most `maxWords` of them, else a 400: every word is
 * a look-up in the index that must match too, and a hundred of them held a worker for seconds.
 */
export function searchText(
  description: string,
  options: TextOptions & { required: true; maxWords: number },
): TParam<string> {
  const whole = text(description, options)[DECODE];
  return param<string>(
    { description, required: true, ...(options.examples ? { examples: options.examples } : {}) },
    {
      decode(raw, name) {
        const value = whole.decode(raw, name);
        const distinct = [
          ...new Set(
            value
              .toLowerCase()
              .split(WORD_BREAK)
              .filter((w) => w !== ''),
          ),
        ];
        if (distinct.length > options.maxWords)
          throw invalid(name, `Parameter ${name} has more than ${options.maxWords} different words.`);
        // Punctuation alone (`-`) leaves no word: the text itself is searched, as before.
        return distinct.length > 0 ? distinct.join(' ') : value;
      },
      key: (value) => encodeURIComponent(value),
    },
  );
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A client-made session UUID, lower-cased; null when absent. */
export function uuid(description: string): TParam<string | null> {
  return param(
    { description, examples: ['3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b'] },
    {
      decode(raw, name) {
        if (raw === undefined) return null;
        const value = raw.trim();
        if (!UUID.test(value))
          throw invalid(
            name,
            `Parameter ${name} must be a UUID such as 3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b, got "${clip(raw)}".`,
          );
        return value.toLowerCase();
      },
      key: (value) => value,
    },
  );
}

/** An email address; null when absent. */
export function email(description: string): TParam<string | null> {
  return param(
    { description },
    {
      decode(raw, name) {
        if (raw === undefined) return null;
        // Composed: `zoë` typed on one keyboard and sent decomposed by another is one address (so stored and compared).
        const value = raw.trim().normalize('NFC');
        if (!isEmailAddress(value)) throw invalid(name, `Parameter ${name} must be a valid email address.`);
        return value;
      },
      key: (value) => (value === null ? null : encodeURIComponent(value)),
    },
  );
}

/**
 * One of fixed words, any case (aliases map other spellings onto
 * them); `fallback` when absent, or required with its own message.
 */
export function oneOf<const W extends string>(
  words: readonly W[],
  description: string,
  options: ({ fallback: W } | { required: string }) & { aliases?: Readonly<Record<string, W>> },
): TParam<W> {
  const list = words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
  const aliases = new Map(Object.entries(options.aliases ?? {}));
  return param(
    { description: `${description} (${words.join(', ')})`, ...('required' in options ? { required: true } : {}) },
    {
      decode(raw, name) {
        if (raw === undefined) {
          if ('fallback' in options) return options.fallback;
          throw missing(name, options.required);
        }
        const value = raw.trim().toLowerCase();
        const word = (words as readonly string[]).includes(value) ? (value as W) : aliases.get(value);
        if (word === undefined) throw invalid(name, `Parameter ${name} must be ${list}, got "${clip(raw)}".`);
        return word;
      },
      key: (value) => ('fallback' in options && value === options.fallback ? null : value),
    },
  );
}

/**
 * A session id that only gives context (personalization, viewed outputs): trimmed, lower-cased, at most 100 characters.
 */
export function sessionId(description: string): TParam<string | null> {
  return param(
    { description, examples: ['3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b'] },
    {
      decode(raw, name) {
        const value = raw?.trim().toLowerCase() ?? '';
        if (value === '') return null;
        if (value.length > 100) throw invalid(name, `Parameter ${name} is longer than 100 characters.`);
        return value;
      },
      key: (value) => (value === null ? null : encodeURIComponent(value)),
    },
  );
}

/** The visitor's time: unix seconds or milliseconds, RFC 3339 or RFC 2822, as epoch ms; null when absent (now). */
export function time(description: string): TParam<number | null> {
  return param(
    { description, examples: ['2026-12-24T18:00:00-05:00'] },
    { decode: decodeTime, key: (value) => (value === null ? null : String(value)) },
  );
}

function decodeTime(raw: string | undefined, name: string): number | null {
  if (raw === undefined) return null;
  const value = raw.length <= 64 ? parseRequestTime(raw) : null;
  if (value === null) {
    throw invalid(
      name,
      `Parameter ${name} must be a unix timestamp (seconds or milliseconds) or an RFC 3339 / RFC 2822 time, ` +
        `got "${clip(raw)}".`,
    );
  }
  return value;
}

/** The earliest time an event may claim (2000-01-01): before it, a client's clock or encoding is wrong. */
const EARLIEST_EVENT_MS = Date.UTC(2000, 0, 1);
/** How far ahead of this node's clock an event's time may be (clients' clocks run ahead). */
const EVENT_CLOCK_SKEW_MS = 24 * 60 * 60 * 1000;

/**
 * When a stored event happened (tracking's `at`, a bulk event's `event_time`): a `time`, from 2000
 * until a day past now. Out of that range it is a 400, not an event kept where no window or
 * report will ever look (a request's own `time` for rules is any time: previews ask for others).
 */
export function eventTime(description: string, now: () => number = Date.now): TParam<number | null> {
  return param(
    { description: `${description} (from 2000 until a day past now)`, examples: ['2026-12-24T18:00:00-05:00'] },
    {
      decode(raw, name) {
        const value = decodeTime(raw, name);
        if (value !== null && (value < EARLIEST_EVENT_MS || value > now() + EVENT_CLOCK_SKEW_MS))
          throw invalid(name, `Parameter ${name} must be a time from 2000 until a day past now, got "${clip(raw!)}".`);
        return value;
      },
      key: (value) => (value === null ? null : String(value)),
    },
  );
}

const TOKEN = /^[A-Za-z0-9_-]+$/;

/** A short code of letters, digits, dashes and underscores (tracking keys, discount codes). */
export function token(description: string, max: number): TParam<string | null> {
  return param(
    { description: `${description}: at most ${max} letters, digits, dashes or underscores` },
    {
      decode(raw, name) {
        const value = raw?.trim() ?? '';
        if (value === '') return null;
        if (value.length > max || !TOKEN.test(value))
          throw invalid(name, `Parameter ${name} must be at most ${max} letters, digits, dashes or underscores.`);
        return value;
      },
      key: (value) => value,
    },
  );
}

/** A calendar date `YYYY-MM-DD`, or the words today / tomorrow (read in the shop's time zone later). */
export function dateOrDay(description: string): TParam<string | null> {
  return param(
    { description: `${description}: YYYY-MM-DD, today or tomorrow`, examples: ['tomorrow'] },
    {
      decode(raw, name) {
        if (raw === undefined) return null;
        const value = raw.trim().toLowerCase();
        if (value === 'today' || value === 'tomorrow') return value;
        const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
        if (!m || !isCalendarDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
          throw invalid(name, `Parameter ${name} must be a date (YYYY-MM-DD), today or tomorrow.`);
        }
        return value;
      },
      key: (value) => value,
    },
  );
}
