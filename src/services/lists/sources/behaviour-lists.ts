import { MissingInputError } from '../../../domain/errors.js';
import { idList, positiveId } from '../../../domain/params/kinds.js';
import { searchText, sessionId } from '../../../domain/params/text-kinds.js';
import { similarTo } from '../../../domain/models/content.js';
import { titleWords, type ContentProfile } from '../../../domain/ranking/similarity.js';
import type { IndexedProduct } from '../../../indexes/shop-catalog.js';
import { searchIndex } from '../../../indexes/search-index.js';
import { byIds, defineList, eachById, type ListContext } from './types.js';

function requireInputs(context: ListContext): readonly number[] {
  if (!context.productIds?.length)
    throw new MissingInputError('shop_product_ids', 'Missing required endpoint argument: shop_product_ids.');
  return context.productIds;
}

function profile(p: IndexedProduct): ContentProfile {
  const lowest = Math.min(...p.variants.map((v) => v.price)) / 10_000;
  return {
    id: p.id,
    productType: p.productType,
    vendor: p.vendor,
    tags: p.tagsLower,
    titleWords: titleWords(p.title),
    priceBand: Math.log2(Math.max(lowest, 0.01)),
  };
}

export const similarSource = defineList({
  path: '/products/similar_products',
  summary:
    'Products most like the input products (type, vendor, tags, title words and price band, precomputed with the ' +
    "shop's model), then best sellers",
  params: { shop_product_ids: idList('the input products') },
  requiredOnPath: ['shop_product_ids'],
  async candidates(context) {
    const inputs = requireInputs(context);
    // A lookup and a merge: every product's neighbours were scored
    // off the request path, before the first model if need be.
    const content = await context.content();
    const skip = new Set(inputs);
    return (function* () {
      if (content) yield* eachById(context.catalog, similarTo(content, inputs), skip);
      yield* eachById(context.catalog, context.catalog.sales.topSellers, skip);
    })();
  },
});

export const purchasedSource = defineList({
  path: '/products/purchased',
  summary: 'What a customer bought before, most recent first, with metadata.purchased_quantity',
  params: { shop_customer_id: positiveId('the storefront customer') },
  requiredOnPath: ['shop_customer_id'],
  candidates(context) {
    if (context.customerId === null)
      throw new MissingInputError('shop_customer_id', 'Missing required endpoint argument: shop_customer_id.');
    const bought = context.catalog.sales.purchasedByCustomer.get(context.customerId);
    if (!bought) return [];
    return byIds(
      context.catalog,
      [...bought.entries()].sort((a, b) => b[1].last - a[1].last || a[0] - b[0]).map(([id]) => id),
    );
  },
  metadata(context, picked) {
    const bought =
      context.customerId === null ? undefined : context.catalog.sales.purchasedByCustomer.get(context.customerId);
    return {
      purchased_quantity: Object.fromEntries(
        picked.map((p) => [String(p.product.id), bought?.get(p.product.id)?.quantity ?? 0]),
      ),
    };
  },
});

/** Personalization: products sharing type, vendor or tags with what the visitor viewed or bought rank higher. */
async function historyProfile(context: ListContext): Promise<ContentProfile[]> {
  const { catalog } = context;
  const viewed = context.uuid !== null || context.customerId !== null ? await context.viewedHandles() : [];
  const history = viewed
    .slice(0, 20)
    .map((h) => catalog.byHandle.get(h))
    .filter((p): p is IndexedProduct => p !== undefined);
  const bought = context.customerId === null ? undefined : catalog.sales.purchasedByCustomer.get(context.customerId);
  if (bought) history.push(...byIds(catalog, [...bought.keys()].slice(0, 20)));
  return history.map(profile);
}

/** Words a search may hold (distinct): each one is a look-up every match must pass. */
const MAX_SEARCH_WORDS = 10;

/** Matches reordered by the visitor's history; an answer holds at most 50. */
const SEARCH_RERANKED = 500;

export const searchSource = defineList({
  path: '/products/search',
  summary: 'Site-wide personalized product search (deprecated: the smart search API replaces it)',
  params: {
    query: searchText('search words or a product id (required; at most 10 different words)', {
      max: 200,
      maxWords: MAX_SEARCH_WORDS,
      required: true,
    }),
    uuid: sessionId('session UUID, for personalization'),
    shop_customer_id: positiveId('customer, for personalization'),
  },
  limits: { fallback: 10, max: 50 },
  async candidates(context, params) {
    const text = params.query;
    const { catalog } = context;
    const exact = /^\d{1,16}$/.test(text) ? catalog.products.get(Number(text)) : undefined;
    // Personalization reorders the best matches only: a short prefix can match most of a large catalog.
    // A term's matches are found once per catalog generation: a ruleset's endpoint outputs repeat the same searches on
    // every request.
    const results = await catalog.memoForRequest(`search:${text}`, async () =>
      (await searchIndex(catalog))
        .search(text)
        .slice(0, SEARCH_RERANKED)
        .map((r) => ({ id: r.id as number, score: r.score })),
    );
    const history = await historyProfile(context);
    const boosted = results
      .map((r) => {
        const product = catalog.products.get(r.id)!;
        let boost = 1;
        if (history.length > 0) {
          const p = profile(product);
          if (history.some((h) => h.productType !== '' && h.productType === p.productType)) boost += 0.3;
          if (history.some((h) => h.vendor !== '' && h.vendor === p.vendor)) boost += 0.15;
          if (history.some((h) => h.tags.some((t) => p.tags.includes(t)))) boost += 0.15;
        }
        return { product, score: r.score * boost };
      })
      .sort((a, b) => b.score - a.score || a.product.id - b.product.id);
    return [...(exact ? [exact] : []), ...boosted.map((b) => b.product).filter((p) => p !== exact)];
  },
});
