import { hasPriceConditions, priceMatches } from '../../domain/catalog/price-filter.js';
import { ForbiddenError } from '../../domain/errors.js';
import type { IndexedMarket, IndexedProduct, ShopCatalog } from '../../indexes/shop-catalog.js';
import type { ListOptions } from './options.js';

/** A product chosen for an answer, with the variants to show (all when `keep` is absent). */
export interface Picked {
  product: IndexedProduct;
  keep?: number[];
  /** Variant strings in the requested market's prices. */
  marketVariants?: readonly string[];
}

export interface Selection {
  picked: Picked[];
  /** Products dropped for being out of stock (custom endpoint metadata). */
  outOfStock: IndexedProduct[];
}

/** The market a request's country_code selects; 403 when the shop has not granted read_markets. */
export function resolveMarket(catalog: ShopCatalog, countryCode: string | null): IndexedMarket | null {
  if (countryCode === null) return null;
  if (!catalog.shop.scopes.includes('read_markets')) throw new ForbiddenError('country_code needs the read_markets scope.');
  return catalog.marketFor(countryCode);
}

/**
 * Applies the rules every list shares, in order: listable, in the market's catalog, in stock
 * (when filter_oos), price conditions, then the limit. Candidates keep their order.
 */
export function selectProducts(
  catalog: ShopCatalog,
  candidates: Iterable<IndexedProduct>,
  options: Pick<ListOptions, 'filterOos' | 'unsetVariants' | 'price' | 'limit'>,
  market: IndexedMarket | null,
  exclude?: ReadonlySet<number>,
): Selection {
  const picked: Picked[] = [];
  const outOfStock: IndexedProduct[] = [];
  const seen = new Set<number>();
  const pricing = hasPriceConditions(options.price);
  for (const product of candidates) {
    if (picked.length >= options.limit) break;
    if (seen.has(product.id) || exclude?.has(product.id)) continue;
    seen.add(product.id);
    if (!product.listable) continue;
    if (market?.catalog && !market.catalog.has(product.id)) continue;
    if (options.filterOos && !product.inStock) {
      outOfStock.push(product);
      continue;
    }
    const inMarket = market ? catalog.variantsInMarket(product, market) : undefined;
    const marketVariants = inMarket?.strings;
    let keep: number[] | undefined;
    if (pricing) {
      const prices = inMarket ? inMarket.prices : product.variants.map((v) => v.price);
      const matching = prices.flatMap((price, i) => (priceMatches(price, options.price) ? [i] : []));
      if (matching.length === 0) continue;
      if (options.unsetVariants && matching.length < prices.length) keep = matching;
    }
    picked.push({ product, ...(keep ? { keep } : {}), ...(marketVariants ? { marketVariants } : {}) });
  }
  return { picked, outOfStock };
}
