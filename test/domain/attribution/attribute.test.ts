import { describe, expect, it } from 'vitest';
import { attributeOrder, type Click, indexClicks } from '../../../src/domain/attribution/attribute.js';

const HOUR = 3_600_000;
const at = 100 * HOUR;
const order = (customer: number | null, cart: string | null, products: number[]) => ({
  id: 1,
  customer_id: customer,
  cart_token: cart,
  created_at: at,
  cancelled: false,
  lines: products.map((product_id, i) => ({ line_no: i, product_id, quantity: 1, price: 10, source: null })),
});
const click = (source: string, hoursBefore: number, by: Partial<Click> = {}): Click => ({
  customer_id: null,
  cart_token: null,
  product_id: 5,
  source,
  created_at: at - hoursBefore * HOUR,
  ...by,
});

/** A line without its own source goes to the latest click on its product, in the window, by its customer or cart. */
describe('attributeOrder by clicks', () => {
  const sources = (o: ReturnType<typeof order>, clicks: Click[]) =>
    attributeOrder(o as never, indexClicks(clicks), 24 * HOUR).map((line) => line.source);

  it("takes the latest of the customer's and the cart's clicks on the product within the window", () => {
    const clicks = [
      click('list:a', 30, { customer_id: 7 }), // before the window
      click('list:b', 5, { customer_id: 7 }),
      click('list:c', 2, { cart_token: 'cart-1' }),
      click('list:d', 1, { customer_id: 8 }), // another customer
      click('list:e', 1, { customer_id: 7, product_id: 6 }), // another product
    ];
    expect(sources(order(7, 'cart-1', [5]), clicks)).toEqual(['list:c']);
    expect(sources(order(7, null, [5, 6]), clicks)).toEqual(['list:b', 'list:e']);
    expect(sources(order(null, 'cart-2', [5]), clicks)).toEqual([]);
  });

  it('takes the later listed of two clicks at the same instant', () => {
    const clicks = [click('list:first', 1, { customer_id: 7 }), click('list:second', 1, { cart_token: 'cart-1' })];
    expect(sources(order(7, 'cart-1', [5]), clicks)).toEqual(['list:second']);
  });
});
