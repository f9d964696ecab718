import { describe, expect, it } from 'vitest';
import { buildModel, type ModelLine } from '../../../src/domain/models/build.js';
import { buildContentModel } from '../../../src/domain/models/content.js';
import { affinitiesOf, FOR_YOU_BLEND, forYou, type ForYouBlend } from '../../../src/domain/models/rank.js';

// Six customers (11–16) each buy product 9 alone: the best seller. Customer 20 buys 1 and 2 together,
// customer 21 buys 1 alone. So 1's only neighbour is 2; popularity: 9 six orders, 1 two, 2 one.
const orders: [number, number, number[]][] = [
  ...[11, 12, 13, 14, 15, 16].map((customer, i): [number, number, number[]] => [i + 1, customer, [9]]),
  [7, 20, [1, 2]],
  [8, 21, [1]],
];
const lines: ModelLine[] = orders.flatMap(([orderId, customerId, items]) =>
  items.map((productId) => ({ orderId, productId, customerId, createdAt: 1_000 })),
);
const model = buildModel(lines, []);
const blend = (overrides: Partial<ForYouBlend>): ForYouBlend => ({ ...FOR_YOU_BLEND, ...overrides });
const forCustomer = (customer: number, b: ForYouBlend = FOR_YOU_BLEND, exclude: ReadonlySet<number> = new Set()) =>
  forYou(model, affinitiesOf(model, customer), [], exclude, b);

describe('for_you: own purchases blended with their neighbours and popularity', () => {
  it("keeps the products' popularity in the model, best first", () => {
    expect([...model.popular].map((j) => model.products[j])).toEqual([9, 1, 2]);
    expect(model.popularity[model.popular[0]!]).toBe(6);
  });

  it('by default puts the purchases first, then the best seller ahead of a weak neighbour', () => {
    // 9: popularity 0.3 · 1; 2: similarity 0.1 · 1 + popularity 0.3 · 1/6 (no content model given).
    expect(FOR_YOU_BLEND).toEqual({ purchasesFirst: true, similarity: 0.1, content: 0.1, popularity: 0.3 });
    expect(forCustomer(21)).toEqual([1, 9, 2]);
    expect(forCustomer(21, FOR_YOU_BLEND, new Set([1]))).toEqual([9, 2]);
  });

  it('without popularity ranks purchases, then their neighbours', () => {
    expect(forCustomer(21, blend({ popularity: 0 }))).toEqual([1, 2]);
  });

  it('with the purchases mixed in, a strong enough popularity outranks them', () => {
    expect(forCustomer(21, blend({ purchasesFirst: false, similarity: 0, popularity: 5 }))).toEqual([9, 1, 2]);
    expect(forCustomer(21, blend({ purchasesFirst: true, similarity: 0, popularity: 5 }))).toEqual([1, 9, 2]);
  });

  it(
    'leaves a visitor with views only to the neighbours of what ' +
      'they viewed and popularity, and an unknown one to the caller',
    () => {
      expect(forYou(model, [], [{ productId: 1, weight: 1 }], new Set(), blend({ popularity: 0 }))).toEqual([2]);
      expect(forYou(model, [], [{ productId: 1, weight: 1 }], new Set())).toEqual([9, 2, 1]);
      expect(forYou(model, [], [], new Set())).toEqual([]);
    },
  );

  it('answers the same for the same model and seeds, ties to the lower product id', () => {
    // 3 and 4 were bought once, together, by one customer: nothing separates them but their ids.
    const tied = buildModel(
      [
        { orderId: 1, productId: 4, customerId: 30, createdAt: 5 },
        { orderId: 1, productId: 3, customerId: 30, createdAt: 5 },
      ],
      [],
    );
    const seeds = affinitiesOf(tied, 30);
    expect(forYou(tied, seeds, [], new Set())).toEqual([3, 4]);
    expect(forYou(tied, [...seeds].reverse(), [], new Set())).toEqual([3, 4]);
  });

  it("with a content weight, ranks a product like the customer's purchases ahead of an unrelated one", () => {
    // 2 shares a brand word with 1 (customer 21's purchase); 9 shares nothing with it.
    const item = (id: number, words: string[]) => ({
      id,
      productType: '',
      vendor: '',
      tags: [],
      titleWords: words,
      priceBand: id,
      listable: true,
    });
    const content = buildContentModel([item(1, ['nokia', 'speaker']), item(2, ['nokia', 'headset']), item(9, ['mug'])]);
    const seeds = affinitiesOf(model, 21);
    const weighted = blend({ similarity: 0, content: 1, popularity: 0 });
    expect(forYou(model, seeds, [], new Set(), weighted, content)).toEqual([1, 2]);
    // No content model, or a weight of 0: the content neighbours are not read.
    expect(forYou(model, seeds, [], new Set(), weighted)).toEqual([1]);
    expect(forYou(model, seeds, [], new Set(), blend({ similarity: 0, content: 0, popularity: 0 }), content)).toEqual([
      1,
    ]);
  });
});
