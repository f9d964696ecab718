import type { RuleCatalog, Ruleset } from '../types';

/** A request input as the widget's attribute and the API's parameter, with the placeholder a merchant replaces. */
interface Input {
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

/** Every input the ruleset's conditions read, the page's products always first (lists and outputs use them too). */
export function inputsOf(ruleset: Ruleset, catalog: RuleCatalog): Input[] {
  const specs = new Map(catalog.conditions.map((c) => [c.type, c]));
  const found = new Map<string, Input>([[PRODUCTS.param, PRODUCTS]]);
  for (const rule of ruleset.rules)
    for (const group of rule.logic ?? [])
      for (const condition of group.rules)
        for (const input of INPUTS[specs.get(condition.type)?.input ?? ''] ?? []) found.set(input.param, input);
  return [...found.values()];
}

/**
 * How a saved ruleset reaches a storefront: the widget's script tag
 * and the API call with every input its rules read, ready to copy.
 */
export function UseIt({ id, ruleset, catalog }: { id: number; ruleset: Ruleset; catalog: RuleCatalog }) {
  const origin = window.location.origin;
  const inputs = inputsOf(ruleset, catalog);
  const attrs = inputs.filter((i) => i.attr !== null).map((i) => `\n  ${i.attr}="${i.value}"`);
  const params = inputs.map((i) => `&${i.param}=${i.value}`).join('');
  return (
    <details className="use-it">
      <summary>Use this ruleset on a storefront</summary>
      <p>
        A product-card widget. Replace the key with the shop's public key, and each capitalised value with the page's
        own (this ruleset reads {inputs.map((i) => i.param).join(', ')}):
      </p>
      <pre>
        <code data-testid="use-it-widget">
          {`<script src="${origin}/widget.js" async\n` +
            `  data-key="YOUR_PUBLIC_KEY" data-ruleset="${id}"${attrs.join('')}\n` +
            '  data-title="You may also like"></script>'}
        </code>
      </pre>
      <p>Or the JSON answer from a back end or an email tool:</p>
      <pre>
        <code data-testid="use-it-api">{`GET ${origin}/api/v1/custom/id/${id}?key=YOUR_PUBLIC_KEY${params}`}</code>
      </pre>
      <p className="muted">
        A cart subtotal is in the shop's currency (e.g. 49.90). Widgets can also be designed without code on the Widgets
        page.
      </p>
    </details>
  );
}
