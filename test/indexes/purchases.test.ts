import { describe, expect, it } from 'vitest';
import { PurchaseIndex, type Purchase } from '../../src/indexes/purchases.js';
import type { SoldLine } from '../../src/store/kysely/commerce.js';
import { BIG } from '../helpers/fixtures.js';

const line = (order: number, customer: number | null, product: number, quantity: number, at: number): SoldLine => ({
  orderId: order,
  productId: product,
  quantity,
  customerId: customer,
  at,
});

/** The plain fold the index replaces: customer → product → quantity and last purchase. */
function folded(lines: SoldLine[]): Map<number, Map<number, Purchase>> {
  const out = new Map<number, Map<number, Purchase>>();
  for (const l of lines) {
    if (l.customerId === null) continue;
    const bought = out.get(l.customerId) ?? new Map<number, Purchase>();
    out.set(l.customerId, bought);
    const previous = bought.get(l.productId);
    bought.set(l.productId, {
      quantity: (previous?.quantity ?? 0) + l.quantity,
      last: Math.max(previous?.last ?? 0, l.at),
    });
  }
  return out;
}

describe('PurchaseIndex', () => {
  it("gives each customer's purchases as the plain fold does, in the order first bought", () => {
    const lines: SoldLine[] = [];
    for (let order = 1; order <= 200; order++) {
      const customer = order % 7 === 0 ? null : ((order * 37) % 40) + (order % 2 ? BIG : 1);
      for (let k = 0; k < 1 + (order % 3); k++)
        lines.push(line(order, customer, 100 + ((order * k) % 9), 1 + k, order * 1000));
    }
    const index = new PurchaseIndex(lines);
    const expected = folded(lines);
    expect(index.size).toBe(expected.size);
    for (const [customer, bought] of expected) expect([...index.get(customer)!]).toEqual([...bought]);
    expect(index.get(999_999)).toBeUndefined();
    expect(index.purchases).toBe([...expected.values()].reduce((n, b) => n + b.size, 0));
  });

  it('folds a customer of many lines as it folds one of a few, whatever the order of customers in the lines', () => {
    const lines: SoldLine[] = [];
    for (let order = 1; order <= 120; order++) {
      const customer = order % 4 === 0 ? 5 : order % 4 === 1 ? BIG + 3 : 400 - order;
      for (let k = 0; k < 3; k++) lines.push(line(order, customer, (order * 7 + k * 11) % 37, 1 + k, 5000 - order));
    }
    const index = new PurchaseIndex(lines);
    const expected = folded(lines);
    expect(expected.get(5)!.size).toBeGreaterThan(16);
    expect(index.size).toBe(expected.size);
    for (const [customer, bought] of expected) expect([...index.get(customer)!]).toEqual([...bought]);
    expect(index.purchases).toBe([...expected.values()].reduce((n, b) => n + b.size, 0));
  });

  it('is empty for a shop without orders', () => {
    const index = new PurchaseIndex([]);
    expect(index.size).toBe(0);
    expect(index.get(1)).toBeUndefined();
  });
});
