/** The prior's weight: a product needs about this many views before its own rate dominates. */
export const SMART_SORT_K = 20;

/**
 * Estimated conversion (docs/lists.md): (purchases + k·p) / (views + k), a Bayesian average that
 * pulls products with little evidence towards the shop-wide rate p.
 */
export function conversionEstimate(purchases: number, views: number, shopRate: number, k = SMART_SORT_K): number {
  return (purchases + k * shopRate) / (views + k);
}

/** The shop-wide rate p: purchases over views, 0 when nothing was viewed. */
export function shopConversionRate(totalPurchases: number, totalViews: number): number {
  return totalViews > 0 ? Math.min(1, totalPurchases / totalViews) : 0;
}
