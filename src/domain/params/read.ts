import type { TProperties } from '@sinclair/typebox';
import { InvalidInputError } from '../errors.js';
import { foldAliases, seedNameOf, sentAs } from './aliases.js';
import { decoderOf, invalid, type ParamDecoder, type ParamsOf, type TParams } from './param.js';

interface Entry {
  name: string;
  decoder: ParamDecoder<unknown>;
}

/** Each schema's parameters in name order, found once. */
const entriesBySchema = new WeakMap<object, Entry[]>();
/** Schemas that read a cart (they declare cart_subtotal), found once. */
const readsCart = new WeakMap<object, boolean>();

function readsCartOf(schema: { properties: TProperties }): boolean {
  let cart = readsCart.get(schema);
  if (cart === undefined) {
    cart = 'cart_subtotal' in schema.properties;
    readsCart.set(schema, cart);
  }
  return cart;
}

function entriesOf(schema: { properties: TProperties }): Entry[] {
  let entries = entriesBySchema.get(schema);
  if (!entries) {
    entries = Object.entries(schema.properties)
      .flatMap(([name, property]) => {
        const decoder = decoderOf(property);
        return decoder ? [{ name, decoder }] : [];
      })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    entriesBySchema.set(schema, entries);
  }
  return entries;
}

const declaredBySchema = new WeakMap<object, ReadonlySet<string>>();

function declaredNames(schema: { properties: TProperties }): ReadonlySet<string> {
  let names = declaredBySchema.get(schema);
  if (!names) {
    names = new Set(entriesOf(schema).map((entry) => entry.name));
    declaredBySchema.set(schema, names);
  }
  return names;
}

/** A JSON list of ids or words (`[1, 2]`) as the comma list a query string spells (`1,2`); anything else as it is. */
export function commaListOf(value: unknown): unknown {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' || typeof v === 'number')) return value;
  return value.join(',');
}

/** Whether a reader of this schema reads a value sent under this name: declared, an alias of one, or the cart. */
export function readsName(schema: { properties: TProperties }, name: string): boolean {
  if (declaredNames(schema).has(seedNameOf(name) ?? name)) return true;
  return readsCartOf(schema) && (name === 'cart' || name.startsWith('cart['));
}

/**
 * `name[]=` is how PHP forms and jQuery's `$.param` spell a list. Of a declared parameter (or its
 * alias) it is a 400 naming it: read as an undeclared name, the parameter would be quietly absent.
 */
function refuseListSpelling(
  schema: { properties: TProperties },
  raw: Readonly<Record<string, unknown>>,
  under?: string,
) {
  for (const key in raw) {
    if (!key.endsWith('[]')) continue;
    const sent = key.slice(0, -2);
    const name = seedNameOf(sent) ?? sent;
    if (!declaredNames(schema).has(name)) continue;
    const path = under === undefined ? name : `${under}.${name}`;
    throw invalid(path, `Parameter ${name} must be given once, as ${sent}=…; ${key}= is not read.`);
  }
}

/** The raw text of one parameter: undefined when absent or empty; a repeated or structured value is a 400. */
function rawText(value: unknown, name: string, keepsEmpty = false): string | undefined {
  if (value === undefined || value === null || (value === '' && !keepsEmpty)) return undefined;
  // A JSON body can carry a lone surrogate (`"\ud800"`), which a query string's decoding turns into U+FFFD: so here.
  if (typeof value === 'string') {
    // PostgreSQL's text cannot hold U+0000, and no caller means it: refused wherever it is sent.
    if (value.includes('\u0000')) throw invalid(name, `Parameter ${name} holds a NUL character (U+0000).`);
    return value.toWellFormed();
  }
  // JSON and form bodies carry numbers and booleans for the same fields.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value))
    throw invalid(name, `Parameter ${name} must be given once; a list goes in one value, comma-separated.`);
  throw invalid(name, `Parameter ${name} must be text or a number, not an object.`);
}

/** The aliases folded, or, for an element of a body (`under`), their clash named under the element's path. */
function folded(
  raw: Readonly<Record<string, unknown>>,
  cart: boolean,
  under: string | undefined,
): Readonly<Record<string, unknown>> {
  if (under === undefined) return foldAliases(raw, { cart });
  try {
    return foldAliases(raw, { cart });
  } catch (error) {
    if (!(error instanceof InvalidInputError)) throw error;
    throw new InvalidInputError(`${under}.${error.param}`, `${under}: ${error.message}`);
  }
}

/**
 * Reads the parameters a schema declares from raw request values (query string, form or JSON
 * fields): each is decoded by its kind, absent ones take their defaults, and the first problem is
 * an InvalidInputError naming the parameter. Undeclared parameters are ignored. The platforms'
 * names of parameters (`shopify_*`, `recharge_*`) are read as the seed's (docs/api.md, "Aliases").
 * `under` is the path of an object of parameters inside a body (`events[3]`): problems name
 * the parameter by its whole path (`events[3].product_id`).
 */
export function readParams<P extends TProperties>(
  schema: TParams<P>,
  raw: Readonly<Record<string, unknown>> | null | undefined,
  under?: string,
): ParamsOf<P> {
  const out: Record<string, unknown> = {};
  if (raw) refuseListSpelling(schema, raw, under);
  // Aliases are folded once here, so every lookup below is by the seed's name.
  const values = raw ? folded(raw, readsCartOf(schema), under) : undefined;
  for (const { name, decoder } of entriesOf(schema)) {
    const value = values ? values[name] : undefined;
    const path = under === undefined ? name : `${under}.${name}`;
    try {
      out[name] = decoder.decode(rawText(value, path, decoder.keepsEmpty), path);
    } catch (error) {
      // Name what the caller wrote: an alias's problem is reported under both names.
      const alias = raw && values !== raw && error instanceof InvalidInputError ? sentAs(raw, name) : null;
      if (alias === null) throw error;
      const code =
        (error as InvalidInputError).code === 'missing_parameter' ? 'missing_parameter' : 'invalid_parameter';
      throw new InvalidInputError(path, `${(error as Error).message} (sent as ${alias})`, code);
    }
  }
  return out as ParamsOf<P>;
}

/**
 * The canonical form of decoded parameters for cache keys: declared parameters only, in name
 * order, defaults left out, values in one spelling. Two requests that read the same share it.
 */
export function paramsKey<P extends TProperties>(schema: TParams<P>, values: ParamsOf<P>): string {
  let key = '';
  for (const { name, decoder } of entriesOf(schema)) {
    if (decoder.unkeyed) continue;
    const part = decoder.key((values as Record<string, unknown>)[name]);
    if (part === null) continue;
    key += key === '' ? `${name}=${part}` : `&${name}=${part}`;
  }
  return key;
}
