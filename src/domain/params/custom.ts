import { commonParams, customerSigParam, keyParam, limitParam } from './common.js';
import { count, idList, money, optionalFlag, positiveId } from './kinds.js';
import { clip, invalid, param, params, type ParamsOf } from './param.js';
import { sessionId, text, time } from './text-kinds.js';

export type SubtotalUnit = 'major' | 'minor';

/** The unit of cart_subtotal; absent (null): the shop's setting. A bracketed cart sets minor. */
const subtotalUnit = param<SubtotalUnit | null>(
  {
    description:
      'unit of cart_subtotal: major (currency unit) or minor (cents; what a bracketed cart sends); ' +
      "default the shop's cart_subtotal_unit",
  },
  {
    decode(raw, name) {
      if (raw === undefined) return null;
      const value = raw.trim().toLowerCase();
      if (value !== 'major' && value !== 'minor')
        throw invalid(name, `Parameter ${name} must be major or minor, got "${clip(raw)}".`);
      return value;
    },
    key: (value) => value,
  },
);

/** The custom endpoint's parameters (docs/api.md, "Custom"): what rules read, and how the answer is shaped. */
export const customParams = params({
  ...keyParam,
  ...customerSigParam,
  shop_product_ids: idList('input products; enables product-level rules'),
  shop_variant_ids: idList('input variants; enables variant-level rules'),
  shop_customer_id: positiveId('storefront customer id (customer, customer_tag, customer_purchased rules)'),
  shop_order_ids: idList(
    "orders (a thank-you page's): their products are the input products when no product or variant ids are given",
  ),
  cart_subtotal: money('cart total, in the currency unit (or in minor units: see cart_subtotal_unit)'),
  cart_subtotal_unit: subtotalUnit,
  cart_line_count: count('lines in the cart (one per variant)'),
  cart_item_count: count('items in the cart'),
  time: time("the visitor's current time: unix seconds or milliseconds, RFC 3339 or RFC 2822; default now"),
  uuid: sessionId('client-made session UUID'),
  url: text('page URL, matched by url rules', { max: 2048 }),
  filter_oos: optionalFlag("overrides the ruleset's out-of-stock setting"),
  filter_inputs: optionalFlag(
    "no keeps the input products in the answer (overrides the ruleset's filter_input_products)",
  ),
  ...commonParams,
  ...limitParam(),
});

export type CustomParams = ParamsOf<typeof customParams.properties>;

/**
 * The custom request with `cart_subtotal` in the currency unit, whatever unit it came in (a
 * bracketed cart's cents, or the shop's `cart_subtotal_unit`): rules and cache keys see one amount.
 */
export function subtotalInCurrency(values: CustomParams, shopUnit: SubtotalUnit | undefined): CustomParams {
  const unit = values.cart_subtotal_unit ?? shopUnit ?? 'major';
  if (values.cart_subtotal_unit === null && unit === 'major') return values;
  const subtotal = values.cart_subtotal;
  return {
    ...values,
    cart_subtotal_unit: null,
    cart_subtotal: unit === 'minor' && subtotal !== null ? Math.round(subtotal / 100) : subtotal,
  };
}
