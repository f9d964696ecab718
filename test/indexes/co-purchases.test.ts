import { describe, expect, it } from 'vitest';
import { CO_PURCHASE_ORDERS_READ, CoPurchases } from '../../src/indexes/co-purchases.js';
import type { SoldLine } from '../../src/store/kysely/commerce.js';

const line = (order: number, product: number): SoldLine => ({
  orderId: order,
  productId: product,
  quantity: 1,
  customerId: null,
  at: order,
});
const orders = (list: [number, number[]][]) => list.flatMap(([order, products]) => products.map((p) => line(order, p)));

describe('CoPurchases: raw basket co-occurrence from the read model', () => {
  it('ranks by orders holding both, summed over the inputs, then by id; inputs left out; one order counts once', () => {
    const co = new CoPurchases(
      orders([
        [1, [1, 2, 2]],
        [2, [1, 2, 3]],
        [3, [1, 4]],
        [4, [5, 4]],
      ]),
    );
    expect(co.top([1])).toEqual([2, 3, 4]);
    expect(co.top([1, 5])).toEqual([2, 4, 3]); // 4: once with 1, once with 5; tied with 2, the lower id first
    expect(co.top([424242])).toEqual([]);
  });

  it('reads the newest orders of an input only, so a request costs the same on any history', () => {
    // Product 1 is bought with 2 in the oldest orders and with 3 in the newest CO_PURCHASE_ORDERS_READ.
    const old: [number, number[]][] = Array.from({ length: 50 }, (_, i) => [i + 1, [1, 2]]);
    const recent: [number, number[]][] = Array.from({ length: CO_PURCHASE_ORDERS_READ }, (_, i) => [1000 + i, [1, 3]]);
    expect(new CoPurchases(orders([...old, ...recent])).top([1])).toEqual([3]);
  });
});
