import type { SoldLine } from '../store/kysely/commerce.js';
import { DAY_MS, rankTopSellers, scoreTrending, type TrendingSettings } from '../domain/ranking/trending.js';
import { CoPurchases } from './co-purchases.js';
import { PurchaseIndex } from './purchases.js';

export { DAY_MS };

/**
 * Sales figures behind the lists and rules, folded from the stored order lines (cancelled orders
 * excluded) whenever a shop's orders change. Windows end at `reference`: now, or the newest order
 * when the shop's orders stop earlier (an imported history keeps its trends).
 */
export interface SalesStats {
  readonly reference: number;
  readonly unitsSold90d: ReadonlyMap<number, number>;
  readonly unitsSold30d: ReadonlyMap<number, number>;
  readonly topSellers: readonly number[];
  readonly trending: readonly number[];
  /** The trending score of each ranked product. */
  readonly trendingScores: ReadonlyMap<number, number>;
  readonly purchasedByCustomer: PurchaseIndex;
  /** Raw basket co-occurrence: recommended's list until the shop's first model is built. */
  readonly coPurchases: CoPurchases;
}

/** Folds sold lines (oldest first, grouped by order) into the stats; the lines are trending's sales as they are. */
export function buildSales(lines: readonly SoldLine[], now: number, settings: TrendingSettings): SalesStats {
  let newest = 0;
  for (const line of lines) if (line.at > newest) newest = line.at;
  const reference = newest > 0 ? Math.min(now, newest) : now;
  const top90 = rankTopSellers(lines, reference - 90 * DAY_MS, reference);
  const top30 = rankTopSellers(lines, reference - 30 * DAY_MS, reference);

  // Bought-together lists come from the shop's model (indexes/model-index.ts), built off the request path;
  // until the first is built, from the raw co-occurrence of coPurchases.
  const trend = scoreTrending(lines, reference, settings);
  return {
    reference,
    unitsSold90d: top90.units,
    unitsSold30d: top30.units,
    topSellers: top90.ranked,
    trending: trend.ranked,
    trendingScores: trend.scores,
    purchasedByCustomer: new PurchaseIndex(lines),
    coPurchases: new CoPurchases(lines),
  };
}

/** Best sellers first, then by id: the order of tag outputs (docs/rules.md). */
export function bestSellingFirst(stats: SalesStats): (a: { id: number }, b: { id: number }) => number {
  return (a, b) => (stats.unitsSold90d.get(b.id) ?? 0) - (stats.unitsSold90d.get(a.id) ?? 0) || a.id - b.id;
}
