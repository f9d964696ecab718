import { InvalidInputError } from '../../../domain/errors.js';
import { idList, listParams, type Query } from '../../params.js';
import { resolveMarket, selectProducts, type Picked } from '../select.js';
import { purchasedSource, searchSource, similarSource } from './behaviour-lists.js';
import { collectionsSource, staticSource, topSellersSource, trendingSource } from './catalog-lists.js';
import { forYouSource, recentlyViewedSource, recommendedSource, viewedSource, viewedTogetherSource } from './model-lists.js';
import type { ListBase, ListContext, ListSource } from './types.js';

export type { ListBase, ListContext, ListSource } from './types.js';

/** Every list endpoint, served over HTTP and usable as a ruleset `endpoint` output. */
export const LIST_SOURCES: ReadonlyMap<string, ListSource> = new Map([
  staticSource, trendingSource, topSellersSource, collectionsSource, searchSource, recommendedSource, similarSource, purchasedSource,
  forYouSource, viewedTogetherSource, viewedSource, recentlyViewedSource,
].map((s) => [s.path, s]));

/**
 * Runs a list: its candidates, then the filters every list shares. In-process calls (ruleset
 * outputs) pass the caller's query and the endpoint's own, the endpoint's winning.
 */
export async function runListSource(source: ListSource, base: ListBase, callerQuery: Query, endpointQuery: Query = {}): Promise<{ picked: Picked[]; options: ReturnType<typeof listParams>; context: ListContext }> {
  const query = { ...callerQuery, ...endpointQuery };
  const options = listParams(query, source.limits);
  const context = contextOf(base, query);
  const market = resolveMarket(context.catalog, options.countryCode);
  const candidates = await source.candidates(context, query, options);
  return { picked: selectProducts(context.catalog, candidates, options, market).picked, options, context };
}

/** The visitor and input products a query names (validated: each failure names its parameter). */
function contextOf(base: ListBase, query: Query): ListContext {
  const raw = query.shop_customer_id;
  let customerId: number | null = null;
  if (raw !== undefined && raw !== '') {
    if (typeof raw !== 'string' || !/^\d{1,16}$/.test(raw.trim()) || Number(raw) < 1) {
      throw new InvalidInputError('shop_customer_id', 'Parameter shop_customer_id must be a positive integer id.');
    }
    customerId = Number(raw);
  }
  const uuidRaw = query.uuid;
  if (uuidRaw !== undefined && typeof uuidRaw !== 'string') throw new InvalidInputError('uuid', 'Parameter uuid must be given once, as a string.');
  const uuid = uuidRaw ? uuidRaw.trim().toLowerCase().slice(0, 64) : null;
  const variants = idList(query, 'shop_variant_ids') ?? [];
  return {
    catalog: base.catalog,
    productIds: idList(query, 'shop_product_ids'),
    variantProductIds: [...new Set(variants.flatMap((v) => base.catalog.byVariant.get(v)?.id ?? []))],
    customerId,
    uuid,
    viewedHandles: () => base.viewed({ uuid, customerId }),
    model: () => base.model(),
  };
}
