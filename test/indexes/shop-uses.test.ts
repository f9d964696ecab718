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
    period = 2; // read again at each halving
    uses.add(3);
    uses.add(3);
    expect([uses.of(1), uses.of(3)]).toEqual([0, 1]);
    expect(uses.size).toBe(1);
  });

  it('forgets a deleted shop at once', () => {
    const uses = new ShopUses(() => 100);
    uses.add(7);
    uses.forget(7);
    expect(uses.of(7)).toBe(0);
    expect(uses.size).toBe(0);
  });
});
