import { describe, expect, it } from 'vitest';
import { conversionEstimate, shopConversionRate } from '../../../src/domain/ranking/smart-sort.js';
import { rankSimilar, titleWords, type ContentProfile } from '../../../src/domain/ranking/similarity.js';
import { DAY_MS, rankTopSellers, rankTrending } from '../../../src/domain/ranking/trending.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');

describe('trending', () => {
  it('decays by half-life, drops sales outside the window, breaks ties by recency then id', () => {
    const sales = [
      { productId: 1, quantity: 4, at: NOW - 7 * DAY_MS }, // 4 × 0.5 = 2
      { productId: 2, quantity: 2, at: NOW }, // 2, more recent than 1's
      { productId: 3, quantity: 100, at: NOW - 31 * DAY_MS }, // outside the window
      { productId: 4, quantity: 1, at: NOW - DAY_MS },
      { productId: 5, quantity: 1, at: NOW - DAY_MS },
      { productId: 6, quantity: 0, at: NOW },
    ];
    expect(rankTrending(sales, NOW, { windowDays: 30, halfLifeDays: 7, counts: 'units' })).toEqual([2, 1, 4, 5]);
    expect(rankTrending(sales, NOW, { windowDays: 60, halfLifeDays: 7, counts: 'units' })[0]).toBe(3);
  });

  it('counts each order once by default, however many units or lines it holds', () => {
    const sales = [
      { productId: 1, quantity: 500, at: NOW, orderId: 10 }, // one bulk order
      { productId: 1, quantity: 20, at: NOW, orderId: 10 }, // a second line (another variant) of the same order
      { productId: 2, quantity: 1, at: NOW - DAY_MS, orderId: 11 },
      { productId: 2, quantity: 1, at: NOW - DAY_MS, orderId: 12 },
    ];
    expect(rankTrending(sales, NOW, { windowDays: 30, halfLifeDays: 14, counts: 'orders' })).toEqual([2, 1]);
    expect(rankTrending(sales, NOW, { windowDays: 30, halfLifeDays: 14, counts: 'units' })).toEqual([1, 2]);
  });

  it('counts units for top sellers inside the period only', () => {
    const { ranked, units } = rankTopSellers(
      [
        { productId: 1, quantity: 2, at: NOW },
        { productId: 2, quantity: 3, at: NOW - 100 * DAY_MS },
        { productId: 1, quantity: 1, at: NOW - DAY_MS },
      ],
      NOW - 90 * DAY_MS,
      NOW,
    );
    expect(ranked).toEqual([1]);
    expect(units.get(1)).toBe(3);
  });
});

describe('smart sort', () => {
  it('pulls thin evidence towards the shop rate', () => {
    const p = shopConversionRate(50, 1000);
    expect(p).toBe(0.05);
    const lucky = conversionEstimate(1, 1, p); // 1 view, 1 sale
    const proven = conversionEstimate(30, 300, p); // 10 % over many views
    expect(proven).toBeGreaterThan(lucky);
    expect(conversionEstimate(0, 0, p)).toBeCloseTo(p);
    expect(shopConversionRate(5, 0)).toBe(0);
  });
});

describe('similarity', () => {
  const p = (
    id: number,
    productType: string,
    vendor: string,
    tags: string[],
    title: string,
    priceBand: number,
  ): ContentProfile => ({
    id,
    productType,
    vendor,
    tags,
    titleWords: titleWords(title),
    priceBand,
  });
  it('ranks same type and shared tags first, leaves out the inputs and unrelated products', () => {
    const tent = p(1, 'Tents', 'A', ['camping'], 'Alpine Tent', 7);
    const others = [
      tent,
      p(2, 'Tents', 'B', ['camping'], 'Ridge Tent', 7),
      p(3, 'Stoves', 'A', [], 'Camp Stove', 4),
      p(4, 'Mugs', 'C', [], 'Mug', 1),
    ];
    expect(rankSimilar([tent], others)).toEqual([2, 3]);
    expect(titleWords('The Alpine Tent for 2')).toEqual(['alpine', 'tent']);
  });
});
