import { InvalidInputError } from '../../../domain/errors.js';
import type { IndexedProduct, ShopCatalog } from '../../../indexes/shop-catalog.js';
import { idList, stringList, type Query } from '../../params.js';
import { conversionOf } from '../conversion.js';
import { byIds, eachById, type ListSource } from './types.js';

const EXCLUDE = 'comma-separated product ids removed from the result set';

function* excluding(products: Iterable<IndexedProduct>, ids: readonly number[] | null): Generator<IndexedProduct> {
  const skip = new Set(ids ?? []);
  for (const p of products) if (!skip.has(p.id)) yield p;
}

export const staticSource: ListSource = {
  path: '/products/static',
  summary: 'Products by id and / or handle, in the order given',
  params: { ids: 'comma-separated product ids, answered in this order', handles: 'comma-separated handles, after the ids' },
  limits: { fallback: 5, max: 100 },
  candidates(context, query) {
    const ids = idList(query, 'ids');
    const handles = stringList(query, 'handles');
    if (!ids && !handles) throw new InvalidInputError('ids', 'Missing required endpoint argument: ids or handles.');
    const out = byIds(context.catalog, ids ?? []);
    for (const handle of handles ?? []) {
      const p = context.catalog.byHandle.get(handle);
      if (p) out.push(p);
    }
    return out;
  },
};

export const trendingSource: ListSource = {
  path: '/products/trending_products',
  summary: 'Trending products: decayed sales over the shop\'s window (30 days, half-life 7 days by default)',
  params: { shop_product_ids: EXCLUDE },
  limits: { fallback: 5, max: 100 },
  candidates: (context) => eachById(context.catalog, context.catalog.sales.trending, new Set(context.productIds ?? [])),
};

export const topSellersSource: ListSource = {
  path: '/products/top_sellers',
  summary: 'Best sellers by units sold in the last 90 days',
  params: { shop_product_ids: EXCLUDE },
  limits: { fallback: 5, max: 100 },
  candidates: (context) => eachById(context.catalog, context.catalog.sales.topSellers, new Set(context.productIds ?? [])),
};

/** Products of the named collections, in the order named, each by position, each once. */
function collectionMembers(catalog: ShopCatalog, ids: readonly number[]): IndexedProduct[] {
  const seen = new Set<number>();
  const out: IndexedProduct[] = [];
  for (const id of ids) {
    for (const p of catalog.collectionMembers.get(id) ?? []) {
      if (!seen.has(p.id)) {
        seen.add(p.id);
        out.push(p);
      }
    }
  }
  return out;
}

/** smart_sort=yes: estimated conversion over the last 30 days, a Bayesian average (product.md §5). */
function byConversion(catalog: ShopCatalog, products: IndexedProduct[]): IndexedProduct[] {
  const estimate = new Map(products.map((product) => [product.id, conversionOf(catalog, product).estimate]));
  // A stable sort keeps collection position order among equals.
  return [...products].sort((a, b) => estimate.get(b.id)! - estimate.get(a.id)!);
}

export const collectionsSource: ListSource = {
  path: '/products/collections',
  summary: 'Products of collections, by position, by estimated conversion (smart_sort=yes) or by sales (smart_sort=top_sellers)',
  params: {
    shop_collection_ids: 'comma-separated collection ids (required)',
    shop_product_ids: EXCLUDE,
    smart_sort: 'yes: by estimated conversion; top_sellers: by units sold in the last 90 days',
  },
  limits: { fallback: 5, max: 100 },
  candidates(context, query: Query) {
    const ids = idList(query, 'shop_collection_ids');
    if (!ids) throw new InvalidInputError('shop_collection_ids', 'Missing required endpoint argument: shop_collection_ids.');
    const sort = typeof query.smart_sort === 'string' ? query.smart_sort.trim().toLowerCase() : query.smart_sort;
    if (sort !== undefined && sort !== '' && sort !== 'yes' && sort !== 'no' && sort !== 'top_sellers') {
      throw new InvalidInputError('smart_sort', 'Parameter smart_sort must be yes, no or top_sellers.');
    }
    const { catalog } = context;
    // The sorted membership is made once per catalog generation and collection list.
    const ordered = catalog.memoForRequest(`collections:${ids.join(',')}:${sort === 'yes' || sort === 'top_sellers' ? sort : 'position'}`, () => {
      const members = collectionMembers(catalog, ids);
      if (sort === 'yes') return byConversion(catalog, members);
      if (sort === 'top_sellers') {
        const units = catalog.sales.unitsSold90d;
        return [...members].sort((a, b) => (units.get(b.id) ?? 0) - (units.get(a.id) ?? 0));
      }
      return members;
    });
    return excluding(ordered, context.productIds);
  },
};
