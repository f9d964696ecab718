import type { RuleCatalog, Ruleset } from '../types.js';

/** A request input as the widget's attribute and the API's parameter, with the placeholder a merchant replaces. */
export interface Input {
  attr: string | null;
  param: string;
  value: string;
}

const PRODUCTS: Input = { attr: 'data-product-ids', param: 'shop_product_ids', value: 'PRODUCT_ID' };
const CUSTOMER: Input = { attr: 'data-customer-id', param: 'shop_customer_id', value: 'CUSTOMER_ID' };

/** What each condition's input needs the storefront to send (the catalog's `input` of each condition type). */
const INPUTS: Record<string, Input[]> = {
  'shop_product_ids, shop_variant_ids': [PRODUCTS],
  'attributes of the input products': [PRODUCTS],
  'collections of the input products': [PRODUCTS],
  shop_variant_ids: [{ attr: 'data-variant-ids', param: 'shop_variant_ids', value: 'VARIANT_ID' }],
  cart_subtotal: [{ attr: 'data-cart-subtotal', param: 'cart_subtotal', value: 'CART_SUBTOTAL' }],
  cart_item_count: [{ attr: 'data-cart-item-count', param: 'cart_item_count', value: 'CART_ITEM_COUNT' }],
  cart_line_count: [{ attr: 'data-cart-line-count', param: 'cart_line_count', value: 'CART_LINE_COUNT' }],
  shop_customer_id: [CUSTOMER],
  'shop_customer_id (past orders)': [CUSTOMER],
  'shop_customer_id (stored customer)': [CUSTOMER],
  country_code: [{ attr: 'data-country', param: 'country_code', value: 'COUNTRY_CODE' }],
  // The widget sends the page's address by itself.
  url: [{ attr: null, param: 'url', value: 'PAGE_URL' }],
};

/** Lists an endpoint output runs for the signed-in customer: without one they have nothing to show. */
const CUSTOMER_LIST = /^\/?(api\/v1\/)?products\/(purchased|for_you)\/?(\?|$)/;
/** An endpoint that names its own customer needs none from the page. */
const OWN_CUSTOMER = /[?&](shop|shopify)_customer_id=/;

/**
 * Every input the ruleset reads: its conditions', and the customer of an endpoint output listing a
 * customer's products. The page's products always first (lists and outputs use them too).
 */
export function inputsOf(ruleset: Ruleset, catalog: RuleCatalog): Input[] {
  const specs = new Map(catalog.conditions.map((c) => [c.type, c]));
  const found = new Map<string, Input>([[PRODUCTS.param, PRODUCTS]]);
  for (const rule of ruleset.rules) {
    for (const group of rule.logic ?? [])
      for (const condition of group.rules)
        for (const input of INPUTS[specs.get(condition.type)?.input ?? ''] ?? []) found.set(input.param, input);
    for (const output of rule.output) {
      const endpoint = output.type === 'endpoint' ? (output.endpoint ?? '') : '';
      if (CUSTOMER_LIST.test(endpoint) && !OWN_CUSTOMER.test(endpoint)) found.set(CUSTOMER.param, CUSTOMER);
    }
  }
  return [...found.values()];
}
