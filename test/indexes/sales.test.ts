import { describe, expect, it } from 'vitest';
import { DAY_MS, rankTopSellers, scoreTrending, type TrendingSettings } from '../../src/domain/ranking/trending.js';
import { buildSales } from '../../src/indexes/sales.js';
import { ProductFigure } from '../../src/indexes/sold-products.js';
import type { SoldLine } from '../../src/store/kysely/commerce.js';
import { BIG } from '../helpers/fixtures.js';

const NOW = Date.UTC(2026, 10, 20);

/** A small deterministic generator (mulberry32): the same lines on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Orders over 120 days (some after `until`), oldest first and grouped by order as the store lists
 * them: large and small ids, two lines of one product in an order, quantities of 0, negative,
 * fractional and large ones, guests.
 */
function soldLines(seed: number, orders: number, until: number): SoldLine[] {
  const next = random(seed);
  const pick = (n: number) => Math.floor(next() * n);
  const lines: SoldLine[] = [];
  for (let o = 0; o < orders; o++) {
    const at = until - 120 * DAY_MS + Math.floor((o / orders) * 125 * DAY_MS);
    const customerId = next() < 0.2 ? null : pick(60) + (next() < 0.5 ? BIG : 1);
    for (let k = 0, count = 1 + pick(4); k < count; k++) {
      const productId = pick(40) + (pick(3) === 0 ? 7 : BIG);
      const roll = next();
      const quantity = roll < 0.05 ? 0 : roll < 0.08 ? -1 : roll < 0.1 ? 1.5 : roll < 0.12 ? 70_000 : 1 + pick(3);
      lines.push({ orderId: 5_000_000 + o, productId, quantity, customerId, at });
    }
  }
  return lines;
}

const byId = (map: ReadonlyMap<number, number>) => [...map].sort((a, b) => a[0] - b[0]);

/** The plain co-occurrence: orders holding an input, newest first, each counting its products once. */
function coOccurring(lines: readonly SoldLine[], inputs: number[]): number[] {
  const orders = new Map<number, Set<number>>();
  for (const line of lines) orders.set(line.orderId, (orders.get(line.orderId) ?? new Set()).add(line.productId));
  const counts = new Map<number, number>();
  for (const input of new Set(inputs))
    for (const products of orders.values())
      if (products.has(input)) for (const p of products) counts.set(p, (counts.get(p) ?? 0) + 1);
  return [...counts]
    .filter(([id]) => !inputs.includes(id))
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .map(([id]) => id);
}

describe('buildSales: the compact figures against the plain folds', () => {
  const settings: TrendingSettings[] = [
    { windowDays: 30, halfLifeDays: 14, counts: 'orders' },
    { windowDays: 120, halfLifeDays: 3, counts: 'units' },
  ];
  for (const [seed, until] of [
    [1, NOW],
    [2, NOW - 10 * DAY_MS], // orders stop before now: the windows end at the newest
    [3, NOW + 3 * DAY_MS], // some orders after now: left out
  ] as const) {
    for (const trending of settings) {
      it(`gives the same units, rankings and scores (lines ${seed}, ${trending.counts})`, () => {
        const lines = soldLines(seed, 400, until);
        const stats = buildSales(lines, NOW, trending);
        const reference = Math.min(NOW, Math.max(...lines.map((l) => l.at)));
        expect(stats.reference).toBe(reference);
        const top90 = rankTopSellers(lines, reference - 90 * DAY_MS, reference);
        const top30 = rankTopSellers(lines, reference - 30 * DAY_MS, reference);
        const trend = scoreTrending(lines, reference, trending);
        expect(byId(stats.unitsSold90d)).toEqual(byId(top90.units));
        expect(byId(stats.unitsSold30d)).toEqual(byId(top30.units));
        expect(stats.topSellers).toEqual(top90.ranked);
        expect(stats.trending).toEqual(trend.ranked);
        expect(byId(stats.trendingScores)).toEqual(byId(trend.scores));
        for (const id of [7, 7 + 39, BIG, BIG + 39, 424242]) {
          expect(stats.unitsSold90d.get(id)).toBe(top90.units.get(id));
          expect(stats.trendingScores.has(id)).toBe(trend.scores.has(id));
        }
        expect(stats.unitsSold30d.size).toBe(top30.units.size);
        for (const inputs of [[7], [BIG + 3], [BIG + 3, 9, BIG + 3], [424242]])
          expect(stats.coPurchases.top(inputs)).toEqual(coOccurring(lines, inputs));
      });
    }
  }

  it('is empty without lines', () => {
    const stats = buildSales([], NOW, settings[0]!);
    expect(stats.reference).toBe(NOW);
    expect([stats.topSellers, stats.trending, [...stats.unitsSold90d], stats.coPurchases.top([1])]).toEqual([
      [],
      [],
      [],
      [],
    ]);
    expect(stats.purchasedByCustomer.size).toBe(0);
  });
});

describe('ProductFigure', () => {
  it('reads as a Map of the present products in id order; counts in a small array, 0 and NaN absent', () => {
    const ids = Float64Array.of(3, BIG, BIG + 1);
    const counts = ProductFigure.ofCounts(ids, Float64Array.of(2, Number.NaN, 300));
    const scores = new ProductFigure(ids, Float64Array.of(Number.NaN, 0, 0.25));
    expect([...counts]).toEqual([
      [3, 2],
      [BIG + 1, 300],
    ]);
    expect(counts.bytes).toBe(3 * 2); // 300 needs 16 bits
    expect([counts.size, counts.get(BIG), counts.has(BIG + 1), counts.get(4)]).toEqual([2, undefined, true, undefined]);
    expect([...scores.keys()]).toEqual([BIG, BIG + 1]); // a score of 0 is a score
    expect([...scores.values()]).toEqual([0, 0.25]);
    const seen: number[] = [];
    scores.forEach((value, id) => {
      seen.push(id, value);
    });
    expect(seen).toEqual([BIG, 0, BIG + 1, 0.25]);
    expect(ProductFigure.ofCounts(ids, Float64Array.of(1.5, Number.NaN, 1)).bytes).toBe(3 * 8);
  });
});
