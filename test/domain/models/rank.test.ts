import { describe, expect, it } from 'vitest';
import { buildModel, type ModelLine } from '../../../src/domain/models/build.js';
import { affinitiesOf, forYou, POPULARITY_SHRINKAGE } from '../../../src/domain/models/rank.js';

// Six customers (11–16) each buy product 9 alone: the best seller. Customer 20 buys 1 and 2 together,
// customer 21 buys 1 alone. So 1's only neighbour is 2; popularity: 9 six orders, 1 two, 2 one.
const orders: [number, number, number[]][] = [
  ...[11, 12, 13, 14, 15, 16].map((customer, i): [number, number, number[]] => [i + 1, customer, [9]]),
  [7, 20, [1, 2]],
  [8, 21, [1]],
];
const lines: ModelLine[] = orders.flatMap(([orderId, customerId, items]) => items.map((productId) => ({ orderId, productId, customerId, createdAt: 1_000 })));
const model = buildModel(lines, []);
const forCustomer = (customer: number, options: Parameters<typeof forYou>[4], exclude: ReadonlySet<number> = new Set()) =>
  forYou(model, affinitiesOf(model, customer), [], exclude, options);

describe('for_you: the blend of the personal score with popularity', () => {
  it("keeps the products' popularity in the model, best first", () => {
    expect([...model.popular].map((j) => model.products[j])).toEqual([9, 1, 2]);
    expect(model.popularity[model.popular[0]!]).toBe(6);
  });

  it('with k = 0 ranks by the personal score alone: purchases, then their neighbours', () => {
    expect(forCustomer(21, { shrinkage: 0 })).toEqual([1, 2]);
  });

  it('a one-purchase customer gets the best seller ahead of a weak neighbour (α = 1/(1 + k))', () => {
    // k = 5: 9 scores (5/6)·1, 2 scores (1/6)·0.02 + (5/6)·(1/6).
    expect(forCustomer(21, { shrinkage: 5 })).toEqual([1, 9, 2]);
    expect(forCustomer(21, { shrinkage: 5 }, new Set([1]))).toEqual([9, 2]);
  });

  it('a tiny k leaves the personal order in front', () => {
    expect(forCustomer(21, { shrinkage: 0.01 })).toEqual([1, 2, 9]);
  });

  it('puts purchases first when they are kept, whatever their blended score', () => {
    expect(forCustomer(21, { shrinkage: 5, purchasesFirst: false })).toEqual([9, 1, 2]);
    expect(forCustomer(20, { shrinkage: 50 }).slice(0, 2).sort()).toEqual([1, 2]);
  });

  it('by default leaves the blend off (k = 0, chosen on validation), purchases first', () => {
    expect(POPULARITY_SHRINKAGE).toBe(0);
    expect(forCustomer(21, {})).toEqual([1, 2]);
    expect(forCustomer(21, {}, new Set([1]))).toEqual([2]);
  });

  it('leaves a visitor with views only to the neighbours of what they viewed, and an unknown one to the caller', () => {
    expect(forYou(model, [], [{ productId: 1, weight: 1 }], new Set())).toEqual([2]);
    expect(forYou(model, [], [], new Set())).toEqual([]);
  });
});
