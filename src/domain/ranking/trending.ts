export const DAY_MS = 86_400_000;

export interface TrendingSettings {
  windowDays: number;
  halfLifeDays: number;
  /** `orders`: each order holding the product counts 1; `units`: its quantity. */
  counts: 'orders' | 'units';
}

/**
 * Chosen on held-out orders (docs/evaluation.md): counting orders rather than units keeps one
 * bulk purchase from outranking what many customers buy, and a 14-day half-life over 30 days
 * scored best among the windows and half-lives tried.
 */
export const DEFAULT_TRENDING: TrendingSettings = { windowDays: 30, halfLifeDays: 14, counts: 'orders' };

/** A sold quantity at a time, as trending needs it. */
export interface Sale {
  productId: number;
  quantity: number;
  at: number;
  /** The order holding the sale; its lines come one after another. */
  orderId?: number;
}

/** What one counted sale adds to its product's trending score: its amount, halved every half-life of its age. */
export function trendingWeight(at: number, quantity: number, reference: number, settings: TrendingSettings): number {
  const age = (reference - at) / DAY_MS;
  const amount = settings.counts === 'orders' ? 1 : quantity;
  return amount * 0.5 ** (age / settings.halfLifeDays);
}

/**
 * Trending (docs/lists.md): Σ over the window's orders (or units) of 0.5^(age_days / half_life),
 * ranked by score, then most recent sale, then product id.
 */
export function rankTrending(sales: Iterable<Sale>, reference: number, settings: TrendingSettings): number[] {
  return scoreTrending(sales, reference, settings).ranked;
}

/** The trending ranking with each product's score (the admin insights show the scores). */
export function scoreTrending(
  sales: Iterable<Sale>,
  reference: number,
  settings: TrendingSettings,
): { ranked: number[]; scores: Map<number, number> } {
  const since = reference - settings.windowDays * DAY_MS;
  const score = new Map<number, number>();
  const last = new Map<number, number>();
  const lastOrder = new Map<number, number>();
  for (const sale of sales) {
    if (sale.at < since || sale.at > reference || sale.quantity <= 0) continue;
    if (settings.counts === 'orders' && sale.orderId !== undefined) {
      // Two lines of one order (two variants) are one order.
      if (lastOrder.get(sale.productId) === sale.orderId) continue;
      lastOrder.set(sale.productId, sale.orderId);
    }
    score.set(
      sale.productId,
      (score.get(sale.productId) ?? 0) + trendingWeight(sale.at, sale.quantity, reference, settings),
    );
    if (sale.at > (last.get(sale.productId) ?? -Infinity)) last.set(sale.productId, sale.at);
  }
  const ranked = [...score.keys()].sort(
    (a, b) => score.get(b)! - score.get(a)! || last.get(b)! - last.get(a)! || a - b,
  );
  return { ranked, scores: score };
}

/** Units sold per product since a time; the ranking of top sellers (units desc, then id). */
export function rankTopSellers(
  sales: Iterable<Sale>,
  since: number,
  until: number,
): { ranked: number[]; units: Map<number, number> } {
  const units = new Map<number, number>();
  for (const sale of sales) {
    if (sale.at < since || sale.at > until || sale.quantity <= 0) continue;
    units.set(sale.productId, (units.get(sale.productId) ?? 0) + sale.quantity);
  }
  return { ranked: rankUnits(units), units };
}

/** Products by units sold, most first, then by id: the order of top sellers. */
export function rankUnits(units: ReadonlyMap<number, number>): number[] {
  return [...units.keys()].sort((a, b) => units.get(b)! - units.get(a)! || a - b);
}
