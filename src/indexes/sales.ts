import type { OrderLine } from '../domain/catalog/collection.js';

export const DAY_MS = 86_400_000;

/** Sales figures the rules read: units sold in the last 90 days, and who bought what. */
export interface SalesStats {
  readonly unitsSold90d: ReadonlyMap<number, number>;
  readonly purchasedByCustomer: ReadonlyMap<number, ReadonlySet<number>>;
}

export const NO_SALES: SalesStats = { unitsSold90d: new Map(), purchasedByCustomer: new Map() };

/** Folds order lines (cancelled orders already excluded) into the stats, relative to `now`. */
export function buildSales(lines: readonly OrderLine[], now: number): SalesStats {
  const since = now - 90 * DAY_MS;
  const units = new Map<number, number>();
  const purchased = new Map<number, Set<number>>();
  for (const line of lines) {
    if (line.created_at >= since && line.created_at <= now) units.set(line.product_id, (units.get(line.product_id) ?? 0) + line.quantity);
    if (line.customer_id !== null) {
      let set = purchased.get(line.customer_id);
      if (!set) purchased.set(line.customer_id, (set = new Set()));
      set.add(line.product_id);
    }
  }
  return { unitsSold90d: units, purchasedByCustomer: purchased };
}

/** Best sellers first, then by id: the order of tag outputs (product.md §4). */
export function bestSellingFirst(stats: SalesStats): (a: { id: number }, b: { id: number }) => number {
  return (a, b) => (stats.unitsSold90d.get(b.id) ?? 0) - (stats.unitsSold90d.get(a.id) ?? 0) || a.id - b.id;
}
