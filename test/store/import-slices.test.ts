import { describe, expect, it } from 'vitest';
import { ORDER_SLICE, orderRows, PRODUCT_SLICE, productWeight, slicesOf } from '../../src/store/kysely/imports.js';
import { product } from '../helpers/fixtures.js';

/** The work an import does between two turns of the event loop (docs/scaling.md, "Imports beside serving"). */
describe('the slices of an import', () => {
  const order = (lines: number) => ({ lines: Array.from({ length: lines }, () => ({})) });

  it('slices orders by their rows, their lines included, so a few very large orders are not one stretch', () => {
    const large = Array.from({ length: 30 }, () => order(10_000));
    const slices = slicesOf(large, ORDER_SLICE, orderRows);
    expect(slices).toHaveLength(30);
    const small = Array.from({ length: 1_000 }, () => order(3));
    const sizes = slicesOf(small, ORDER_SLICE, orderRows).map((s) => s.length);
    expect(sizes).toEqual([500, 500]);
    for (const slice of slicesOf([...small, ...large, ...small], ORDER_SLICE, orderRows))
      expect(slice.length === 1 || slice.reduce((sum, o) => sum + orderRows(o), 0) <= ORDER_SLICE).toBe(true);
  });

  it('slices products by their text and variants, so products at the platform bounds are not one stretch', () => {
    const typical = Array.from({ length: 250 }, (_, i) => product(i + 1));
    expect(slicesOf(typical, PRODUCT_SLICE, productWeight).map((s) => s.length)).toEqual([100, 100, 50]);
    const tags = Array.from({ length: 250 }, (_, t) => `tag ${t} `.padEnd(110, 'x')).join(', ');
    const tagged = Array.from({ length: 100 }, (_, i) => product(i + 1, { tags }));
    expect(productWeight(tagged[0]!)).toBe(4);
    expect(slicesOf(tagged, PRODUCT_SLICE, productWeight).map((s) => s.length)).toEqual([25, 25, 25, 25]);
    const variants = Array.from({ length: 600 }, (_, v) => ({ ...product(1).variants[0]!, id: 1_000 + v }));
    expect(productWeight({ ...product(1), variants })).toBe(38);
  });

  it('keeps every row once, in order, and counts rows alike without weights', () => {
    const rows = Array.from({ length: 250 }, (_, i) => i);
    const slices = slicesOf(rows, 100);
    expect(slices.map((s) => s.length)).toEqual([100, 100, 50]);
    expect(slices.flat()).toEqual(rows);
    expect(slicesOf([], 100)).toEqual([]);
  });
});
