import { hasPriceConditions, priceMatches, type PriceFilter } from '../../domain/catalog/price-filter.js';
import { ForbiddenError } from '../../domain/errors.js';
import type { IndexedMarket } from '../../indexes/indexed-market.js';
import type { IndexedProduct, ShopCatalog } from '../../indexes/shop-catalog.js';

/** A product proposed for an answer, with the variants to keep (all when `keep` is absent). */
export interface Candidate {
  product: IndexedProduct;
  keep?: readonly number[];
}

/** A product chosen for an answer: the variants to show and, in a market, their priced JSON. */
export interface Picked extends Candidate {
  marketVariants?: readonly string[];
}

/** What every product answer filters by, in this order (docs/api.md, "The shared filters"). */
export interface FilterRules {
  market: IndexedMarket | null;
  limit: number;
  filterOos: boolean;
  price?: PriceFilter;
  unsetVariants?: boolean;
  /** Products left out (the custom endpoint's input products); reported in `excluded` when visible. */
  exclude?: ReadonlySet<number>;
}

export interface Filtered {
  picked: Picked[];
  /** The scan stopped at examinedBound before the answer was full. */
  cutShort: boolean;
  /** Visible products passed over for being out of stock: the first PASSED_OVER_LISTED of them. */
  outOfStock: Picked[];
  /** How many were passed over for being out of stock, listed or not. */
  outOfStockCount: number;
  /** Visible products passed over for being excluded. */
  excluded: Picked[];
}

/**
 * Out-of-stock products an answer lists at most. The list says why an answer is short; a sold-out
 * collection of 20,000 products listed whole was a 28 MB answer from a public endpoint (0.6 s).
 */
export const PASSED_OVER_LISTED = 100;

/**
 * Candidates one filter examines at most: every product of the catalog twice, and never fewer than
 * 100,000. A list proposes each product once; only a ruleset's outputs can propose
 * more, and without a bound 100 rules × 50 outputs of one 20,000-product collection proposed 100
 * million (17 s) when the filter kept none of them.
 */
export function examinedBound(catalog: ShopCatalog): number {
  return Math.max(100_000, 2 * catalog.products.size);
}

/**
 * The one product filter of every list and of the custom endpoint: each product once (first place
 * wins), excluded ones out, then unpublished / excluded-tag / outside the market, out of stock (when
 * `filterOos`), the price conditions, then the limit. The scan stops once the answer is full, so
 * the passed-over lists name only what was passed over to fill it; candidates are read lazily.
 */
export function filterProducts(catalog: ShopCatalog, candidates: Iterable<Candidate>, rules: FilterRules): Filtered {
  const out: Filtered = { picked: [], cutShort: false, outOfStock: [], outOfStockCount: 0, excluded: [] };
  const seen = new Set<number>();
  const pricing = rules.price !== undefined && hasPriceConditions(rules.price);
  const { market } = rules;
  let examinable = examinedBound(catalog);
  for (const candidate of candidates) {
    if (out.picked.length >= rules.limit) break;
    if (examinable-- === 0) {
      out.cutShort = true;
      break;
    }
    const { product } = candidate;
    if (seen.has(product.id)) continue;
    seen.add(product.id);
    const visible = product.listable && (!market?.catalog || market.catalog.has(product.id));
    if (rules.exclude?.has(product.id)) {
      if (visible) out.excluded.push(pick(catalog, product, market));
      continue;
    }
    if (!visible) continue;
    const keep = candidate.keep;
    const variants = keep ? product.variants : []; // made on each read: read once
    const inStock = keep ? keep.some((i) => variants[i]?.inStock) : product.inStock;
    if (rules.filterOos && !inStock) {
      if (out.outOfStockCount++ < PASSED_OVER_LISTED) out.outOfStock.push(pick(catalog, product, market));
      continue;
    }
    if (!pricing) {
      out.picked.push(pick(catalog, product, market, keep));
      continue;
    }
    const matching = priced(catalog, product, market, keep, rules.price!);
    if (matching.length === 0) continue;
    const all = (keep?.length ?? product.variantCount) === matching.length;
    out.picked.push(pick(catalog, product, market, rules.unsetVariants && !all ? matching : keep));
  }
  return out;
}

/** Indexes of the variants (among those kept) whose price, in the market, meets the conditions. */
function priced(
  catalog: ShopCatalog,
  product: IndexedProduct,
  market: IndexedMarket | null,
  keep: readonly number[] | undefined,
  price: PriceFilter,
): number[] {
  const prices = market ? catalog.variantsInMarket(product, market).prices : product.variants.map((v) => v.price);
  const indexes = keep ?? prices.map((_, i) => i);
  return indexes.filter((i) => prices[i] !== undefined && priceMatches(prices[i]!, price));
}

function pick(
  catalog: ShopCatalog,
  product: IndexedProduct,
  market: IndexedMarket | null,
  keep?: readonly number[],
): Picked {
  return {
    product,
    ...(keep ? { keep } : {}),
    ...(market ? { marketVariants: catalog.variantsInMarket(product, market).strings } : {}),
  };
}

/**
 * The market a request names by `country_code`, or by the deprecated `presentment_prices`
 * currency; both need the read_markets scope. No matching market: base prices, whole catalog.
 */
export function resolveMarket(
  catalog: ShopCatalog,
  place: { countryCode: string | null; currency?: string | null },
): IndexedMarket | null {
  const { countryCode, currency = null } = place;
  if (countryCode === null && currency === null) return null;
  if (!catalog.shop.scopes.includes('read_markets')) {
    throw new ForbiddenError(
      countryCode !== null
        ? 'country_code needs the read_markets scope.'
        : 'presentment_prices needs the read_markets scope.',
      'key_scope',
    );
  }
  return countryCode !== null ? catalog.marketFor(countryCode) : catalog.marketForCurrency(currency!);
}
