import { parseMoney, type Money } from '../catalog/money.js';
import { clip, invalid, missing, param, type TParam } from './param.js';

/** At most this many ids or values in one list parameter. */
export const MAX_LIST = 250;

const FLAG_TRUE = new Set(['yes', 'true', '1']);
const FLAG_FALSE = new Set(['no', 'false', '0']);

/** Whether a flag's value says no (`no`, `false`, `0`, any case), as every flag reads it. */
export function saysNo(raw: string): boolean {
  return FLAG_FALSE.has(raw.trim().toLowerCase());
}

function decodeFlag(raw: string, name: string): boolean {
  const value = raw.trim().toLowerCase();
  if (FLAG_TRUE.has(value)) return true;
  if (FLAG_FALSE.has(value)) return false;
  throw invalid(name, `Parameter ${name} must be yes or no, got "${clip(raw)}".`);
}

/** yes / no, also true / false and 1 / 0, any case (storefront code sends all of them); absent takes the fallback. */
export function flag(description: string, fallback = false): TParam<boolean> {
  return param(
    { description: `${description} (yes or no; default ${fallback ? 'yes' : 'no'})`, examples: ['yes'] },
    {
      decode: (raw, name) => (raw === undefined ? fallback : decodeFlag(raw, name)),
      key: (value) => (value === fallback ? null : value ? 'yes' : 'no'),
    },
  );
}

/**
 * A flag whose absence means "not given" (null): the custom endpoint's filter_oos overrides the ruleset only when sent.
 */
export function optionalFlag(description: string): TParam<boolean | null> {
  return param(
    { description: `${description} (yes or no)`, examples: ['no'] },
    {
      decode: (raw, name) => (raw === undefined ? null : decodeFlag(raw, name)),
      key: (value) => (value === null ? null : value ? 'yes' : 'no'),
    },
  );
}

/**
 * `format=pretty`: 2-space indented JSON. Any case; any other value is ignored rather than refused
 * (storefront code sends typos such as `prettyy`, and a 400 would empty its whole screen).
 */
export function format(): TParam<boolean> {
  return param(
    { description: 'pretty (any case): 2-space indented JSON; other values are ignored', examples: ['pretty'] },
    {
      decode: (raw) => raw !== undefined && raw.trim().toLowerCase() === 'pretty',
      key: (value) => (value ? 'pretty' : null),
    },
  );
}

/** A result count from 1; above the endpoint's maximum it is served at the maximum, not refused. */
export function limit(fallback: number, max: number): TParam<number> {
  return param(
    {
      description: `maximum number of results, from 1 (more than ${max} is served as ${max}); default ${fallback}`,
      examples: [String(fallback)],
    },
    {
      decode(raw, name) {
        if (raw === undefined) return fallback;
        const value = raw.trim();
        if (!/^\d+$/.test(value) || /^0+$/.test(value))
          throw invalid(name, `Parameter ${name} must be a whole number of 1 or more, got "${clip(raw)}".`);
        // However many digits: anything past the maximum is served at it (Number stays exact to 15 digits).
        return value.length > 15 ? max : Math.min(Number(value), max);
      },
      key: (value) => (value === fallback ? null : String(value)),
    },
  );
}

/** A whole number in a range, refused outside it (admin paging, quantities). */
export function wholeNumber(
  description: string,
  range: { min: number; max: number } & ({ fallback: number } | { required: string }),
): TParam<number> {
  const fallback = 'fallback' in range ? range.fallback : null;
  return param(
    fallback === null
      ? { description: `${description} (${range.min}-${range.max})`, required: true }
      : { description: `${description} (${range.min}-${range.max}, default ${fallback})` },
    {
      decode(raw, name) {
        if (raw === undefined) {
          if ('required' in range) throw missing(name, range.required);
          return range.fallback;
        }
        const value = raw.trim();
        // 16 digits: an id up to 2^53 - 1 (the range.max test refuses what lies past it).
        if (!/^\d{1,16}$/.test(value) || Number(value) < range.min || Number(value) > range.max) {
          throw invalid(
            name,
            `Parameter ${name} must be a whole number from ${range.min} to ${range.max}, got "${clip(raw)}".`,
          );
        }
        return Number(value);
      },
      key: (value) => (value === fallback ? null : String(value)),
    },
  );
}

/** A count of 0 or more, or null when absent (cart item and line counts). */
export function count(description: string): TParam<number | null> {
  return param(
    { description, examples: ['2'] },
    {
      decode(raw, name) {
        if (raw === undefined) return null;
        const value = raw.trim();
        if (!/^\d{1,9}$/.test(value))
          throw invalid(name, `Parameter ${name} must be a whole number from 0 to 999999999, got "${clip(raw, 20)}".`);
        return Number(value);
      },
      key: (value) => (value === null ? null : String(value)),
    },
  );
}

/** A non-negative decimal amount (price filters, cart subtotal), exact in money units. */
export function money(description: string): TParam<Money | null> {
  return param(
    { description: `${description} (a decimal amount)`, examples: ['49.90'] },
    {
      decode(raw, name) {
        if (raw === undefined) return null;
        const value = raw.length <= 40 ? parseMoney(raw) : null;
        if (value === null || value < 0)
          throw invalid(
            name,
            `Parameter ${name} must be a non-negative decimal number below 900000000000 with at most 4 digits ` +
              `after the point, got "${clip(raw)}".`,
          );
        return value;
      },
      key: (value) => (value === null ? null : String(value)),
    },
  );
}

/** An ISO 3166-1 alpha-2 code, any case, upper-cased. */
export function countryCode(description: string): TParam<string | null> {
  return param(
    { description, examples: ['DE'] },
    {
      decode(raw, name) {
        if (raw === undefined) return null;
        const value = raw.trim();
        if (!/^[A-Za-z]{2}$/.test(value))
          throw invalid(name, `Parameter ${name} must be a two-letter ISO 3166-1 country code, got "${clip(raw)}".`);
        return value.toUpperCase();
      },
      key: (value) => value,
    },
  );
}

/** An ISO 4217 currency code, any case, upper-cased. */
export function currencyCode(description: string): TParam<string | null> {
  return param(
    { description, examples: ['EUR'] },
    {
      decode(raw, name) {
        if (raw === undefined) return null;
        const value = raw.trim();
        if (!/^[A-Za-z]{3}$/.test(value))
          throw invalid(name, `Parameter ${name} must be a three-letter ISO 4217 currency code, got "${clip(raw)}".`);
        return value.toUpperCase();
      },
      key: (value) => value,
    },
  );
}

function splitList(raw: string, name: string, what: string): string[] {
  const parts = raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length > MAX_LIST)
    throw invalid(name, `Parameter ${name} takes at most ${MAX_LIST} ${what}, got ${parts.length}.`);
  return parts;
}

/** The resource a global id must name for a parameter, from the parameter's name; null: no global ids. */
function gidKindOf(name: string): string | null {
  if (name.includes('variant')) return 'ProductVariant';
  if (name.includes('collection')) return 'Collection';
  if (name.includes('customer')) return 'Customer';
  if (name.includes('order')) return 'Order';
  if (name.includes('product') || name === 'ids') return 'Product';
  return null;
}

const GID = /^gid:\/\/(?:shopify|shop)\/([A-Za-z]{1,40})\/(\d{1,16})(?:\?.*)?$/;

/**
 * An id as text: a global id (`gid://shopify/Product/123`) is read as its trailing number; one
 * naming another kind of resource than the parameter's is refused, naming the parameter.
 */
export function idText(text: string, name: string): string {
  if (!text.startsWith('gid:')) return text;
  const gid = GID.exec(text);
  const kind = gidKindOf(name);
  if (!gid || kind === null) return text;
  if (gid[1] !== kind) {
    throw invalid(name, `Parameter ${name} takes ${kind} ids; "${clip(text, 60)}" names a ${gid[1]}.`);
  }
  return gid[2]!;
}

/** Whether text is a positive integer id that fits a JavaScript number exactly. */
export function isPositiveId(text: string): boolean {
  return /^\d{1,16}$/.test(text) && Number(text) >= 1 && Number.isSafeInteger(Number(text));
}

/** Comma-separated positive integer ids, spaces allowed, at most 250; null when absent. */
export function idList(description: string, options: { required?: boolean } = {}): TParam<number[] | null> {
  return param(
    {
      description: `comma-separated positive integer ids (at most ${MAX_LIST}); ${description}`,
      examples: ['1,2,3'],
      ...options,
    },
    {
      decode(raw, name) {
        const parts = raw === undefined ? [] : splitList(raw, name, 'ids');
        if (parts.length === 0) {
          if (options.required) throw missing(name);
          return null;
        }
        return parts.map((text) => {
          const part = idText(text, name);
          if (!isPositiveId(part))
            throw invalid(
              name,
              `Parameter ${name} must be a comma-separated list of positive integer ids; "${clip(part)}" is not one.`,
            );
          return Number(part);
        });
      },
      key: (value) => (value === null ? null : value.join(',')),
    },
  );
}

/** Comma-separated values (handles), trimmed, at most 250 of at most 255 characters each; null when absent. */
export function stringList(description: string): TParam<string[] | null> {
  return param(
    { description: `comma-separated, at most ${MAX_LIST}; ${description}` },
    {
      decode(raw, name) {
        const parts = raw === undefined ? [] : splitList(raw, name, 'values');
        const long = parts.find((p) => p.length > 255);
        if (long !== undefined)
          throw invalid(name, `Parameter ${name} has a value longer than 255 characters ("${clip(long)}").`);
        return parts.length === 0 ? null : parts;
      },
      key: (value) => (value === null ? null : value.map(encodeURIComponent).join(',')),
    },
  );
}

/** A positive integer id; `required` makes absence a 400. */
export function positiveId(description: string, options: { required: true }): TParam<number>;
export function positiveId(description: string, options?: { required?: false }): TParam<number | null>;
export function positiveId(description: string, options: { required?: boolean } = {}): TParam<number | null> {
  return param(
    { description, ...options },
    {
      decode(raw, name) {
        if (raw === undefined) {
          if (options.required) throw missing(name);
          return null;
        }
        const value = idText(raw.trim(), name);
        if (!isPositiveId(value))
          throw invalid(name, `Parameter ${name} must be a positive integer id, got "${clip(raw, 30)}".`);
        return Number(value);
      },
      key: (value) => (value === null ? null : String(value)),
    },
  );
}
