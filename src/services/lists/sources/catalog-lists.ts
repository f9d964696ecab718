import { MissingInputError } from '../../../domain/errors.js';
import { idList, stringList } from '../../../domain/params/kinds.js';
import { oneOf } from '../../../domain/params/text-kinds.js';
import type { IndexedProduct, ShopCatalog } from '../../../indexes/shop-catalog.js';
import { conversionOf } from '../conversion.js';
import { byIds, defineList, eachById } from './types.js';

const excluded = { shop_product_ids: idList('products removed from the result set') };

function* excluding(products: Iterable<IndexedProduct>, ids: readonly number[] | null): Generator<IndexedProduct> {
  const skip = new Set(ids ?? []);
  for (const p of products) if (!skip.has(p.id)) yield p;
}

export const staticSource = defineList({
  path: '/products/static',
  summary: 'Products by id and / or handle, in the order given',
  params: { ids: idList('answered in this order'), handles: stringList('product handles, after the ids') },
  candidates(context, { ids, handles }) {
    if (!ids && !handles) throw new MissingInputError('ids', 'Missing required endpoint argument: ids or handles.');
    const out = byIds(context.catalog, ids ?? []);
    for (const handle of handles ?? []) {
      const p = context.catalog.byHandle.get(handle);
      if (p) out.push(p);
    }
    return out;
  },
});

export const trendingSource = defineList({
  path: '/products/trending_products',
  summary:
    "Trending products: the shop's orders over its window, each decayed by its age " +
    '(30 days, half-life 14 days by default)',
  params: excluded,
  candidates: (context) => eachById(context.catalog, context.catalog.sales.trending, new Set(context.productIds ?? [])),
});

export const topSellersSource = defineList({
  path: '/products/top_sellers',
  summary: 'Best sellers by units sold in the last 90 days',
  params: excluded,
  candidates: (context) =>
    eachById(context.catalog, context.catalog.sales.topSellers, new Set(context.productIds ?? [])),
});

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

/** smart_sort=yes: estimated conversion over the last 30 days, a Bayesian average (docs/lists.md). */
function byConversion(catalog: ShopCatalog, products: IndexedProduct[]): IndexedProduct[] {
  const estimate = new Map(products.map((product) => [product.id, conversionOf(catalog, product).estimate]));
  // A stable sort keeps collection position order among equals.
  return [...products].sort((a, b) => estimate.get(b.id)! - estimate.get(a.id)!);
}

const SORTS = ['yes', 'no', 'top_sellers'] as const;

export const collectionsSource = defineList({
  path: '/products/collections',
  summary:
    'Products of collections, by position, by estimated conversion (smart_sort=yes) ' +
    'or by sales (smart_sort=top_sellers)',
  params: {
    shop_collection_ids: idList('the collections (required)', { required: true }),
    ...excluded,
    smart_sort: oneOf(
      SORTS,
      'yes: by estimated conversion; top_sellers: by units sold in the last 90 days; no: by position',
      {
        fallback: 'no',
        aliases: { true: 'yes', 1: 'yes', false: 'no', 0: 'no' },
      },
    ),
  },
  candidates(context, params) {
    const ids = params.shop_collection_ids!;
    const sort = params.smart_sort;
    const { catalog } = context;
    // The sorted membership is made once per catalog generation and collection list.
    const ordered = () =>
      catalog.memoForRequest(`collections:${ids.join(',')}:${sort}`, () => {
        const members = collectionMembers(catalog, ids);
        if (sort === 'yes') return byConversion(catalog, members);
        if (sort === 'top_sellers') {
          const units = catalog.sales.unitsSold90d;
          return [...members].sort((a, b) => (units.get(b.id) ?? 0) - (units.get(a.id) ?? 0));
        }
        return members;
      });
    // The counts smart sort ranks by are read on its first request after the shop's load.
    if (sort === 'yes' && !catalog.eventCountsOnDemand.now)
      return catalog.eventCountsOnDemand.get().then(() => excluding(ordered(), context.productIds));
    return excluding(ordered(), context.productIds);
  },
});
