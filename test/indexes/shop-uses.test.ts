import { describe, expect, it } from 'vitest';
import { ShopUses } from '../../src/indexes/shop-uses.js';

describe('ShopUses', () => {
  it('counts requests per shop and halves every count once a period of requests has been counted', () => {
    let period = 4;
    const uses = new ShopUses(() => period);
    uses.add(1);
    uses.add(1);
    uses.add(1);
    expect(uses.of(1)).toBe(3);
    uses.add(2); // the fourth request: 1 has 3 → 1, 2 has 1 → dropped
    expect(uses.of(1)).toBe(1);
    expect(uses.of(2)).toBe(0);
    expect(uses.size).toBe(1);
    period = 2; // read at every request counted
    uses.add(3);
    uses.add(3);
    expect([uses.of(1), uses.of(3)]).toEqual([0, 1]);
    expect(uses.size).toBe(1);
  });

  it('finds the shop with the fewest uses, and orders shops by uses, ties in the order given', () => {
    const uses = new ShopUses(() => 100);
    for (const [shopId, times] of [
      [1, 3],
      [2, 1],
      [3, 1],
      [4, 2],
    ]) {
      for (let i = 0; i < times!; i++) uses.add(shopId!);
    }
    expect(uses.fewest([1, 3, 2, 4])).toBe(3);
    expect(uses.fewest([1, 5, 2])).toBe(5); // never used: none fewer
    expect(uses.fewest([])).toBeUndefined();
    expect(uses.fewestFirst([1, 3, 2, 4, 5])).toEqual([5, 3, 2, 4, 1]);
  });

  it('forgets a deleted shop at once', () => {
    const uses = new ShopUses(() => 100);
    uses.add(7);
    uses.forget(7);
    expect(uses.of(7)).toBe(0);
    expect(uses.size).toBe(0);
  });
});
