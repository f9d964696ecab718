export const DAY_MS = 86_400_000;

export interface TrendingSettings {
  windowDays: number;
  halfLifeDays: number;
}

export const DEFAULT_TRENDING: TrendingSettings = { windowDays: 30, halfLifeDays: 7 };

/** A sold quantity at a time, as trending needs it. */
export interface Sale {
  productId: number;
  quantity: number;
  at: number;
}

/**
 * Trending (product.md §5): Σ over sales in the window of quantity × 0.5^(age_days / half_life),
 * ranked by score, then most recent sale, then product id.
 */
export function rankTrending(sales: Iterable<Sale>, reference: number, settings: TrendingSettings): number[] {
  return scoreTrending(sales, reference, settings).ranked;
}

/** The trending ranking with each product's score (the admin insights show the scores). */
export function scoreTrending(sales: Iterable<Sale>, reference: number, settings: TrendingSettings): { ranked: number[]; scores: Map<number, number> } {
  const since = reference - settings.windowDays * DAY_MS;
  const score = new Map<number, number>();
  const last = new Map<number, number>();
  for (const sale of sales) {
    if (sale.at < since || sale.at > reference || sale.quantity <= 0) continue;
    const age = (reference - sale.at) / DAY_MS;
    score.set(sale.productId, (score.get(sale.productId) ?? 0) + sale.quantity * 0.5 ** (age / settings.halfLifeDays));
    if (sale.at > (last.get(sale.productId) ?? -Infinity)) last.set(sale.productId, sale.at);
  }
  const ranked = [...score.keys()].sort((a, b) => score.get(b)! - score.get(a)! || last.get(b)! - last.get(a)! || a - b);
  return { ranked, scores: score };
}

/** Units sold per product since a time; the ranking of top sellers (units desc, then id). */
export function rankTopSellers(sales: Iterable<Sale>, since: number, until: number): { ranked: number[]; units: Map<number, number> } {
  const units = new Map<number, number>();
  for (const sale of sales) {
    if (sale.at < since || sale.at > until || sale.quantity <= 0) continue;
    units.set(sale.productId, (units.get(sale.productId) ?? 0) + sale.quantity);
  }
  return { ranked: [...units.keys()].sort((a, b) => units.get(b)! - units.get(a)! || a - b), units };
}
