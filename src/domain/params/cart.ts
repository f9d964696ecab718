import { InvalidInputError } from '../errors.js';
import { idText, isPositiveId, MAX_LIST } from './kinds.js';
import { clip } from './param.js';

/**
 * The platform widget's cart (docs/api.md, "The cart"): bracketed fields (`cart[subtotal]`,
 * `cart[items][0][product_id]`, …) or a `cart` object in a JSON body. Its amounts are in minor
 * units (cents), and so is the `cart_subtotal` the widget sends beside it.
 */
interface CartFields {
  subtotal?: unknown;
  line_count?: unknown;
  item_count?: unknown;
  items: { product_id?: unknown; variant_id?: unknown }[];
  /** A line's field named as the request wrote it, for an error. */
  nameOf(line: number, field: string): string;
}

/** A line's id: `cart[items][N][product_id]`, N < 10000, or `[]` for lines without their numbers. */
const ITEM_ID = /^cart\[items\]\[([^\]]*)\]\[(product_id|variant_id)\](.*)$/s;
const TOP_FIELD = /^cart\[(subtotal|line_count|item_count)\]$/;

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function bracketedCart(raw: Readonly<Record<string, unknown>>): CartFields {
  const cart: CartFields = { items: [], nameOf: (line, field) => `cart[items][${line}][${field}]` };
  for (const name in raw) {
    if (!name.startsWith('cart[')) continue;
    const top = TOP_FIELD.exec(name);
    if (top) {
      cart[top[1] as 'subtotal' | 'line_count' | 'item_count'] = raw[name];
      continue;
    }
    // Other fields of a line (quantity, price, title …) are the widget's and not read; a line's id is.
    const item = ITEM_ID.exec(name);
    if (item) addLineId(cart, name, item, raw[name]);
  }
  return cart;
}

function addLineId(cart: CartFields, name: string, [, line, field, rest]: RegExpExecArray, value: unknown): void {
  const key = field as 'product_id' | 'variant_id';
  if (rest === '' && line === '') {
    // `qs`'s `brackets` form writes the field once per line, in the lines' order.
    (Array.isArray(value) ? value : [value]).forEach((id, i) => {
      cart.items[i] ??= {};
      cart.items[i][key] = id;
    });
  } else if (rest === '' && /^\d{1,4}$/.test(line!)) {
    cart.items[Number(line)] ??= {};
    cart.items[Number(line)]![key] = value;
  } else {
    throw new InvalidInputError(name, `Parameter ${name} is not read: ids are cart[items][N][product_id], N < 10000.`);
  }
}

function objectCart(value: Record<string, unknown>): CartFields {
  if (!isEmpty(value.items) && !Array.isArray(value.items))
    throw new InvalidInputError('cart.items', "Parameter cart.items must be an array of the cart's lines.");
  const items = (value.items ?? []) as unknown[];
  items.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item))
      throw new InvalidInputError(`cart.items[${i}]`, `Parameter cart.items[${i}] must be an object of the line.`);
  });
  return {
    subtotal: value.subtotal,
    line_count: value.line_count,
    item_count: value.item_count,
    items: items as CartFields['items'],
    nameOf: (line, field) => `cart.items[${line}].${field}`,
  };
}

/** A line's id as the list will read it (a GID too), refused under the line's own name when it is not one. */
function readableId(text: string, name: string): string {
  if (!isPositiveId(idText(text.trim(), name)))
    throw new InvalidInputError(name, `Parameter ${name} must be a positive integer id, got "${clip(text, 60)}".`);
  return text;
}

/** Distinct ids of the cart's lines, as text (a GID stays a GID for the decoder), at most MAX_LIST. */
function idsOf(cart: CartFields, field: 'product_id' | 'variant_id'): string | undefined {
  const { items } = cart;
  const ids = new Set<string>();
  for (let i = 0; i < items.length && ids.size < MAX_LIST; i++) {
    const id = items[i]?.[field];
    if ((typeof id === 'string' || typeof id === 'number') && id !== '')
      ids.add(readableId(String(id), cart.nameOf(i, field)));
    else if (!isEmpty(id))
      throw new InvalidInputError(
        cart.nameOf(i, field),
        `Parameter ${cart.nameOf(i, field)} must be given once, as an id.`,
      );
  }
  return ids.size === 0 ? undefined : [...ids].join(',');
}

/**
 * Fills the custom endpoint's cart parameters from the cart, where the request does not name
 * them itself: `cart_subtotal` (and its unit, minor), the counts, and, when no input products
 * are named, the cart's products and variants as input products.
 */
export function readCart(raw: Readonly<Record<string, unknown>>, out: Record<string, unknown>): void {
  const cart =
    raw.cart !== null && typeof raw.cart === 'object' && !Array.isArray(raw.cart)
      ? objectCart(raw.cart as Record<string, unknown>)
      : bracketedCart(raw);
  if (isEmpty(out.cart_subtotal_unit)) out.cart_subtotal_unit = 'minor';
  if (isEmpty(out.cart_subtotal) && !isEmpty(cart.subtotal)) out.cart_subtotal = cart.subtotal;
  if (isEmpty(out.cart_line_count) && !isEmpty(cart.line_count)) out.cart_line_count = cart.line_count;
  if (isEmpty(out.cart_item_count) && !isEmpty(cart.item_count)) out.cart_item_count = cart.item_count;
  if (isEmpty(out.shop_product_ids) && isEmpty(out.shop_variant_ids)) {
    const products = idsOf(cart, 'product_id');
    const variants = idsOf(cart, 'variant_id');
    if (products !== undefined) out.shop_product_ids = products;
    if (variants !== undefined) out.shop_variant_ids = variants;
  }
}
