import { describe, expect, it } from 'vitest';
import { inputsOf } from '../../console/src/editor/use-it-inputs.js';
import type { RuleCatalog, Ruleset } from '../../console/src/types.js';

const catalog = { conditions: [{ type: 'cart_subtotal', input: 'cart_subtotal' }] } as unknown as RuleCatalog;
const returning = (endpoint: string, logic: Ruleset['rules'][number]['logic'] = []): Ruleset =>
  ({ name: 'r', rules: [{ logic, output: [{ type: 'endpoint', endpoint }] }] }) as unknown as Ruleset;
const params = (ruleset: Ruleset) => inputsOf(ruleset, catalog).map((i) => i.param);

describe("the inputs a ruleset's snippet asks the page for", () => {
  it("asks for the signed-in customer when an output lists a customer's products", () => {
    expect(params(returning('/products/purchased'))).toEqual(['shop_product_ids', 'shop_customer_id']);
    expect(params(returning('/api/v1/products/for_you?limit=4'))).toEqual(['shop_product_ids', 'shop_customer_id']);
    // An endpoint that names its own customer, or lists nobody's, needs none.
    expect(params(returning('/products/purchased?shopify_customer_id=5'))).toEqual(['shop_product_ids']);
    expect(params(returning('/products/trending_products'))).toEqual(['shop_product_ids']);
  });

  it("reads its conditions' inputs as before", () => {
    const logic = [{ rules: [{ type: 'cart_subtotal', operator: 'greater_than', value: '50' }] }];
    expect(params(returning('/products/top_sellers', logic as never))).toEqual(['shop_product_ids', 'cart_subtotal']);
  });
});
