import { commonParams, customerSigParam, keyParam, limitParam } from './common.js';
import { count, idList, money, optionalFlag, positiveId } from './kinds.js';
import { params, type ParamsOf } from './param.js';
import { sessionId, text, time } from './text-kinds.js';

/** The custom endpoint's parameters (docs/api.md, "Custom"): what rules read, and how the answer is shaped. */
export const customParams = params({
  ...keyParam,
  ...customerSigParam,
  shop_product_ids: idList('input products; enables product-level rules'),
  shop_variant_ids: idList('input variants; enables variant-level rules'),
  shop_customer_id: positiveId('storefront customer id (customer, customer_tag, customer_purchased rules)'),
  cart_subtotal: money('cart total'),
  cart_line_count: count('lines in the cart (one per variant)'),
  cart_item_count: count('items in the cart'),
  time: time("the visitor's current time: unix seconds or milliseconds, RFC 3339 or RFC 2822; default now"),
  uuid: sessionId('client-made session UUID'),
  url: text('page URL, matched by url rules', { max: 2048 }),
  filter_oos: optionalFlag("overrides the ruleset's out-of-stock setting"),
  ...commonParams,
  ...limitParam(),
});

export type CustomParams = ParamsOf<typeof customParams.properties>;
