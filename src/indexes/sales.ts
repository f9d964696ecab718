import type { SoldLine } from '../store/kysely/commerce.js';
import { DAY_MS, trendingWeight, type TrendingSettings } from '../domain/ranking/trending.js';
import { CoPurchases, type CoPurchaseColumns } from './co-purchases.js';
import { PurchaseIndex, type PurchaseColumns } from './purchases.js';
import { countArray, ProductFigure, soldProducts, type Numbers, type SoldProducts } from './sold-products.js';

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
  /** Bytes of the figures' arrays (the memory budget's estimate adds the objects around them). */
  readonly bytes: number;
}

/**
 * The sales figures' arrays, as a load snapshot keeps them: `salesOf` makes the stats of them
 * without the lines. `reference` null: the time they are read (a shop without sales).
 */
export interface SalesColumns {
  readonly reference: number | null;
  /** Whether the figures hold the time they were folded at: orders dated after it (no snapshot keeps them). */
  readonly timeBound: boolean;
  readonly ids: Float64Array;
  readonly units90: Numbers;
  readonly units30: Numbers;
  readonly scores: Float64Array;
  readonly topSellers: readonly number[];
  readonly trending: readonly number[];
  readonly purchases: PurchaseColumns;
  readonly coPurchases: CoPurchaseColumns;
}

/** A shop's sales figures as of `now`, with its trending settings: what a fold of its sold lines needs besides them. */
export interface SalesFold {
  now: number;
  settings: TrendingSettings;
}

/**
 * Folds a shop's sold lines off this thread (the assembly thread); null when that thread is not
 * ready, and the caller folds them itself.
 */
export type SalesFolder = (shopId: number, fold: SalesFold) => Promise<SalesColumns> | null;

/** Folds sold lines (oldest first, grouped by order) into the stats; the lines are trending's sales as they are. */
export function buildSales(lines: readonly SoldLine[], now: number, settings: TrendingSettings): SalesStats {
  return salesOf(foldSales(lines, now, settings), now);
}

/** The arrays of `buildSales`. */
export function foldSales(lines: readonly SoldLine[], now: number, settings: TrendingSettings): SalesColumns {
  const sold = soldProducts(lines);
  const reference = sold.newest > 0 ? Math.min(now, sold.newest) : now;
  const { units90, units30, scores, last } = foldFigures(lines, sold, reference, settings);
  const ids = sold.ids;
  return {
    reference: sold.newest > 0 ? reference : null,
    timeBound: sold.newest > now,
    ids,
    units90: countArray(units90),
    units30: countArray(units30),
    scores,
    // The orders of rankTopSellers and rankTrending (domain/ranking/trending.ts), over indexes in id order.
    topSellers: ranked(units90, (a, b) => units90[b]! - units90[a]! || a - b).map((p) => ids[p]!),
    trending: ranked(scores, (a, b) => scores[b]! - scores[a]! || last[b]! - last[a]! || a - b).map((p) => ids[p]!),
    purchases: new PurchaseIndex(lines, sold).columns(),
    coPurchases: new CoPurchases(lines, sold).columns(),
  };
}

/** The stats of folded arrays; `now` stands for a reference they do not hold. */
export function salesOf(columns: SalesColumns, now: number): SalesStats {
  const { ids } = columns;
  // Bought-together lists come from the shop's model (indexes/model-index.ts), built off the request path;
  // until the first is built, from the raw co-occurrence of coPurchases.
  const stats = {
    reference: columns.reference ?? now,
    unitsSold90d: new ProductFigure(ids, columns.units90),
    unitsSold30d: new ProductFigure(ids, columns.units30),
    topSellers: columns.topSellers,
    trending: columns.trending,
    trendingScores: new ProductFigure(ids, columns.scores),
    purchasedByCustomer: PurchaseIndex.restore(columns.purchases, ids),
    coPurchases: CoPurchases.restore(columns.coPurchases, ids),
  };
  const figures = stats.unitsSold90d.bytes + stats.unitsSold30d.bytes + stats.trendingScores.bytes;
  const rankings = 8 * (stats.topSellers.length + stats.trending.length);
  const indexes = stats.purchasedByCustomer.bytes + stats.coPurchases.bytes;
  return { ...stats, bytes: ids.byteLength + figures + rankings + indexes };
}

/**
 * Units over 90 and 30 days and the trending scores in one pass over the lines, by index of the
 * sold products (NaN where a product has none); the same sums, in the same order, as
 * rankTopSellers and scoreTrending make.
 */
function foldFigures(lines: readonly SoldLine[], sold: SoldProducts, reference: number, settings: TrendingSettings) {
  const n = sold.ids.length;
  const units90 = new Float64Array(n).fill(Number.NaN);
  const units30 = new Float64Array(n).fill(Number.NaN);
  const scores = new Float64Array(n).fill(Number.NaN);
  const last: number[] = new Array(n).fill(-Infinity);
  const lastOrder: number[] = new Array(n).fill(Number.NaN);
  const since90 = reference - 90 * DAY_MS;
  const since30 = reference - 30 * DAY_MS;
  const sinceTrend = reference - settings.windowDays * DAY_MS;
  const add = (sums: Float64Array, p: number, amount: number) => {
    const sum = sums[p]!;
    sums[p] = (Number.isNaN(sum) ? 0 : sum) + amount;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.at > reference || line.quantity <= 0) continue;
    const p = sold.lineProduct[i]!;
    if (line.at >= since90) add(units90, p, line.quantity);
    if (line.at >= since30) add(units30, p, line.quantity);
    if (line.at < sinceTrend) continue;
    if (settings.counts === 'orders') {
      // Two lines of one order (two variants) are one order.
      if (lastOrder[p] === line.orderId) continue;
      lastOrder[p] = line.orderId;
    }
    add(scores, p, trendingWeight(line.at, line.quantity, reference, settings));
    if (line.at > last[p]!) last[p] = line.at;
  }
  return { units90, units30, scores, last };
}

/** Indexes of the products with a figure, in the comparator's order. */
function ranked(figures: Float64Array, compare: (a: number, b: number) => number): number[] {
  const present: number[] = [];
  for (let p = 0; p < figures.length; p++) if (!Number.isNaN(figures[p]!)) present.push(p);
  return present.sort(compare);
}

/** Best sellers first, then by id: the order of tag outputs (docs/rules.md). */
export function bestSellingFirst(stats: SalesStats): (a: { id: number }, b: { id: number }) => number {
  return (a, b) => (stats.unitsSold90d.get(b.id) ?? 0) - (stats.unitsSold90d.get(a.id) ?? 0) || a.id - b.id;
}
