import { conversionEstimate, shopConversionRate } from '../../domain/ranking/smart-sort.js';
import type { IndexedProduct, ShopCatalog } from '../../indexes/shop-catalog.js';

/** A product's evidence over the last 30 days and its estimated conversion. */
export interface Conversion {
  views: number;
  purchases: number;
  estimate: number;
}

/** The shop-wide conversion rate p of the last 30 days, once per catalog generation. */
export function shopRate(catalog: ShopCatalog): number {
  return catalog.memo('conversion-rate', () => {
    let purchases = 0;
    for (const units of catalog.sales.unitsSold30d.values()) purchases += units;
    return shopConversionRate(purchases, catalog.eventCounts.views);
  });
}

/**
 * What smart sort ranks by (docs/lists.md): units sold and views over the last 30 days, and the
 * Bayesian estimate (purchases + k·p) / (views + k). Smart sort and the admin insights share it.
 */
export function conversionOf(catalog: ShopCatalog, product: IndexedProduct): Conversion {
  const purchases = catalog.sales.unitsSold30d.get(product.id) ?? 0;
  const views = catalog.eventCounts.viewsOf(product.handle);
  return { views, purchases, estimate: conversionEstimate(purchases, views, shopRate(catalog)) };
}
