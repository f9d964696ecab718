import type { Order } from '../../src/domain/catalog/collection.js';
import type { SalesStats } from '../../src/indexes/sales.js';
import { BIG } from './fixtures.js';

export const DAY = 86_400_000;
export const NOW = Date.UTC(2026, 10, 20);

/** Orders of a small shop: some cancelled, guests among customers, ties in time, repeated products. */
export function someOrders(count: number): Order[] {
  return Array.from({ length: count }, (_, i) => {
    const id = (i % 2 ? BIG : 0) + 1000 - i;
    const created = NOW - (i % 120) * DAY + (i % 3 === 0 ? 0 : i * 1000);
    return {
      id,
      customer_id: i % 5 === 0 ? null : ((i * 7) % 23) + 1,
      created_at: created,
      cancelled_at: i % 9 === 4 ? created + DAY : null,
      updated_at: created,
      lines: Array.from({ length: 1 + (i % 3) }, (_, k) => ({
        product_id: 1 + ((i * 5 + k * 3) % 17),
        variant_id: k === 2 ? null : 100 + k,
        quantity: 1 + ((i + k) % 4),
        price: '9.50',
      })),
    };
  });
}

/** What a comparison of two sales figures needs: every map, list and lookup as plain values. */
export function plainSales(stats: SalesStats, customers: number[], products: number[]) {
  return {
    reference: stats.reference,
    units90: [...stats.unitsSold90d],
    units30: [...stats.unitsSold30d],
    topSellers: stats.topSellers,
    trending: stats.trending,
    scores: [...stats.trendingScores],
    purchases: stats.purchasedByCustomer.purchases,
    bought: customers.map((c) => [c, [...(stats.purchasedByCustomer.get(c) ?? [])]]),
    together: products.map((p) => [p, stats.coPurchases.top([p])]),
  };
}
