import { MAX_LIST } from './kinds.js';

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
}

const ITEM_FIELD = /^cart\[items\]\[(\d{1,4})\]\[(product_id|variant_id)\]$/;
const TOP_FIELD = /^cart\[(subtotal|line_count|item_count)\]$/;

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function bracketedCart(raw: Readonly<Record<string, unknown>>): CartFields {
  const cart: CartFields = { items: [] };
  for (const name in raw) {
    if (!name.startsWith('cart[')) continue;
    const top = TOP_FIELD.exec(name);
    if (top) {
      cart[top[1] as 'subtotal' | 'line_count' | 'item_count'] = raw[name];
      continue;
    }
    const item = ITEM_FIELD.exec(name);
    if (!item) continue;
    const index = Number(item[1]);
    cart.items[index] ??= {};
    cart.items[index][item[2] as 'product_id' | 'variant_id'] = raw[name];
  }
  return cart;
}

function objectCart(value: Record<string, unknown>): CartFields {
  const items = Array.isArray(value.items)
    ? value.items.filter((i): i is Record<string, unknown> => i !== null && typeof i === 'object')
    : [];
  return { subtotal: value.subtotal, line_count: value.line_count, item_count: value.item_count, items };
}

/** Distinct ids of the cart's lines, as text (a GID stays a GID for the decoder), at most MAX_LIST. */
function idsOf(items: CartFields['items'], field: 'product_id' | 'variant_id'): string | undefined {
  const ids = new Set<string>();
  for (const item of items) {
    const id = item?.[field];
    if ((typeof id === 'string' || typeof id === 'number') && id !== '') ids.add(String(id));
    if (ids.size === MAX_LIST) break;
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
    const products = idsOf(cart.items, 'product_id');
    const variants = idsOf(cart.items, 'variant_id');
    if (products !== undefined) out.shop_product_ids = products;
    if (variants !== undefined) out.shop_variant_ids = variants;
  }
}
