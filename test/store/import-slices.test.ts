import { describe, expect, it } from 'vitest';
import { ORDER_SLICE, orderRows, slicesOf } from '../../src/store/kysely/imports.js';

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

  it('keeps every row once, in order, and counts rows alike without weights', () => {
    const rows = Array.from({ length: 250 }, (_, i) => i);
    const slices = slicesOf(rows, 100);
    expect(slices.map((s) => s.length)).toEqual([100, 100, 50]);
    expect(slices.flat()).toEqual(rows);
    expect(slicesOf([], 100)).toEqual([]);
  });
});
