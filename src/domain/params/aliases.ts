import { InvalidInputError } from '../errors.js';
import { readCart } from './cart.js';
import { saysNo } from './kinds.js';

/**
 * Storefront code written for the hosted service names parameters the platforms' way
 * (docs/api.md, "Aliases"): `shopify_*` for `shop_*`, `recharge_*` for `billing_*`. The aliases,
 * the bare `pretty` flag and the bracketed cart are folded into the seed's names here, once per
 * request part, before any parameter is decoded: routes, services and cache keys only ever see
 * the seed's names.
 */
const PREFIX_ALIASES: readonly (readonly [alias: string, seed: string])[] = [
  ['shopify_', 'shop_'],
  ['recharge_', 'billing_'],
];

/** Whole-name aliases. */
const NAME_ALIASES: Readonly<Record<string, string>> = { cart_count: 'cart_line_count' };

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** The seed's name a platform alias stands for (`shopify_product_ids` → `shop_product_ids`); undefined for others. */
export function seedNameOf(name: string): string | undefined {
  const whole = NAME_ALIASES[name];
  if (whole !== undefined) return whole;
  for (const [alias, seed] of PREFIX_ALIASES) if (name.startsWith(alias)) return seed + name.slice(alias.length);
  return undefined;
}

/** Whether a name may need folding: a cheap first-character test keeps the common request on the fast path. */
function mayFold(name: string): boolean {
  const first = name.charCodeAt(0);
  // c: cart[…], cart_count · p: pretty · r: recharge_ · s: shopify_
  return first === 99 || first === 112 || first === 114 || first === 115;
}

/**
 * The parameters under their seed names. Returns the same object when nothing needs folding. An
 * alias and its seed name given different values is a 400 naming both; an empty one is absent.
 * With `cart`, the bracketed cart (or a `cart` object of a JSON body) fills the custom endpoint's
 * cart parameters (docs/api.md, "The cart").
 */
export function foldAliases(
  raw: Readonly<Record<string, unknown>>,
  options: { cart: boolean },
): Readonly<Record<string, unknown>> {
  let out: Record<string, unknown> | null = null;
  let bracketed = false;
  for (const name in raw) {
    if (!mayFold(name)) continue;
    if (name.startsWith('cart[')) {
      bracketed = true;
      continue;
    }
    if (name === 'pretty') {
      out ??= copyOf(raw);
      // The bare flag, or a yes; `pretty=no` (or false, 0) asks for compact JSON, as no flag does.
      const off = typeof raw.pretty === 'string' && saysNo(raw.pretty);
      if (isEmpty(raw.format) && !off) out.format = 'pretty';
      continue;
    }
    const seed = seedNameOf(name);
    if (seed === undefined) continue;
    out ??= copyOf(raw);
    const value = raw[name];
    if (isEmpty(value)) continue;
    const current = out[seed];
    if (!isEmpty(current) && String(current) !== String(value)) {
      throw new InvalidInputError(
        seed,
        `Parameters ${seed} and ${name} name the same thing with different values; send one of them.`,
      );
    }
    out[seed] = value;
  }
  if (options.cart && (bracketed || isCartObject(raw.cart))) {
    out ??= copyOf(raw);
    readCart(raw, out);
  }
  return out ?? raw;
}

function isCartObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function copyOf(raw: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy: Record<string, unknown> = Object.create(null);
  for (const name in raw) if (name !== '__proto__') copy[name] = raw[name];
  return copy;
}

/**
 * The name a parameter was sent under when it came as an alias (`shopify_product_ids` for
 * `shop_product_ids`), so an error can name what the caller wrote; null when it came as itself.
 */
export function sentAs(raw: Readonly<Record<string, unknown>>, seed: string): string | null {
  if (!isEmpty(raw[seed])) return null;
  for (const [alias, seedPrefix] of PREFIX_ALIASES) {
    const name = seed.startsWith(seedPrefix) ? alias + seed.slice(seedPrefix.length) : null;
    if (name !== null && !isEmpty(raw[name])) return name;
  }
  for (const [alias, target] of Object.entries(NAME_ALIASES)) if (target === seed && !isEmpty(raw[alias])) return alias;
  return cartFieldOf(raw, seed);
}

/** Where the cart (bracketed, or a JSON body's object) holds what fills each parameter. */
const CART_FIELDS: Readonly<Record<string, readonly [brackets: string, object: string]>> = {
  shop_product_ids: ['cart[items][…][product_id]', 'cart.items[…].product_id'],
  shop_variant_ids: ['cart[items][…][variant_id]', 'cart.items[…].variant_id'],
  cart_subtotal: ['cart[subtotal]', 'cart.subtotal'],
  cart_line_count: ['cart[line_count]', 'cart.line_count'],
  cart_item_count: ['cart[item_count]', 'cart.item_count'],
};

/** The cart's field a parameter was filled from, when the request sent a cart; null otherwise. */
function cartFieldOf(raw: Readonly<Record<string, unknown>>, seed: string): string | null {
  const fields = CART_FIELDS[seed];
  if (fields === undefined) return null;
  if (isCartObject(raw.cart)) return fields[1];
  for (const name in raw) if (name.startsWith('cart[')) return fields[0];
  return null;
}
