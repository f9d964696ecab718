import { listSource } from '../../../domain/attribution/source.js';
import { seedNameOf } from '../../../domain/params/aliases.js';
import { readParams } from '../../../domain/params/read.js';
import type { IndexedProduct } from '../../../indexes/shop-catalog.js';
import { filterProducts, resolveMarket, type Picked } from '../pipeline.js';
import { listOptions } from '../options.js';
import { purchasedSource, searchSource, similarSource } from './behaviour-lists.js';
import { collectionsSource, staticSource, topSellersSource, trendingSource } from './catalog-lists.js';
import type { ListBase, ListContext, ListSource, SharedListParams } from './types.js';
import { forYouSource, recommendedSource, viewedRelatedSource, viewedTogetherSource } from './model-lists.js';
import { recentlyViewedSource, viewedSource } from './visitor-lists.js';

export type { ListBase, ListSource } from './types.js';

/** Every list endpoint, served over HTTP and usable as a ruleset `endpoint` output. */
export const LIST_SOURCES: ReadonlyMap<string, ListSource> = new Map(
  [
    staticSource,
    trendingSource,
    topSellersSource,
    collectionsSource,
    searchSource,
    recommendedSource,
    similarSource,
    purchasedSource,
    forYouSource,
    viewedTogetherSource,
    viewedRelatedSource,
    viewedSource,
    recentlyViewedSource,
  ].map((s) => [s.path, s]),
);

export type ListParams = SharedListParams & Record<string, unknown>;

/** A list's answer as data: the products chosen and its metadata (`source`, and more for some lists). */
export interface ListAnswer {
  picked: Picked[];
  metadata: Record<string, unknown>;
}

/** Runs a list on decoded parameters: its candidates, then the filters every list shares. */
export async function runListSource(source: ListSource, base: ListBase, params: ListParams): Promise<ListAnswer> {
  const options = listOptions(params);
  const context = contextOf(base, params);
  const market = resolveMarket(context.catalog, options);
  const candidates = await source.candidates(context, params);
  const { picked } = filterProducts(context.catalog, eachCandidate(candidates), { market, ...options });
  // `source` is the same for every answer of a list, so cached answers stay the same bytes.
  return { picked, metadata: { source: listSource(source.path), ...source.metadata?.(context, picked) } };
}

function* eachCandidate(products: Iterable<IndexedProduct>) {
  for (const product of products) yield { product };
}

/**
 * What a caller hands on to a ruleset's `endpoint` output: input
 * products and variants, customer, session, country, limit.
 */
export interface CallerContext {
  shop_product_ids: readonly number[] | null;
  shop_variant_ids: readonly number[] | null;
  shop_customer_id: number | null;
  uuid: string | null;
  country_code: string | null;
  limit: number;
}

/**
 * The parameters of a list run in-process for a ruleset's `endpoint` output: the endpoint's own
 * query, read like an HTTP request's, with the caller's context where the endpoint names nothing.
 */
export function endpointParams(
  source: ListSource,
  endpointQuery: Readonly<Record<string, string>>,
  caller: CallerContext,
): ListParams {
  const params = { ...endpointQueryRead(source, endpointQuery) } as ListParams;
  const declared = source.schema.properties;
  const named = namedBy(endpointQuery);
  for (const [name, value] of Object.entries(caller)) {
    if (name in declared && !named.has(name)) params[name] = value;
  }
  return params;
}

/**
 * The parameters an endpoint's own query names, by their seed names (`shopify_customer_id` names
 * `shop_customer_id`): read once per query, which is fixed when its ruleset is compiled.
 */
const namedByQuery = new WeakMap<object, ReadonlySet<string>>();
function namedBy(endpointQuery: Readonly<Record<string, string>>): ReadonlySet<string> {
  let named = namedByQuery.get(endpointQuery);
  if (named === undefined) {
    named = new Set(Object.keys(endpointQuery).map((given) => seedNameOf(given) ?? given));
    namedByQuery.set(endpointQuery, named);
  }
  return named;
}

/**
 * An output's endpoint query is fixed when its ruleset is compiled, so it is read once per query
 * (and list), not on every answer; a query that does not read is refused the same way each time.
 */
type EndpointRead = { params: Readonly<ListParams> } | { refusal: unknown };
const endpointQueries = new WeakMap<object, Map<ListSource, EndpointRead>>();

function endpointQueryRead(source: ListSource, endpointQuery: Readonly<Record<string, string>>): Readonly<ListParams> {
  let bySource = endpointQueries.get(endpointQuery);
  if (bySource === undefined) {
    bySource = new Map();
    endpointQueries.set(endpointQuery, bySource);
  }
  let read = bySource.get(source);
  if (read === undefined) {
    try {
      read = { params: Object.freeze(readParams(source.schema, endpointQuery) as ListParams) };
    } catch (error) {
      read = { refusal: error };
    }
    bySource.set(source, read);
  }
  if ('refusal' in read) throw read.refusal;
  return read.params;
}

/** The visitor and input products the parameters name (each list declares the ones it reads). */
function contextOf(base: ListBase, params: ListParams): ListContext {
  const customerId = (params.shop_customer_id as number | null | undefined) ?? null;
  const uuid = (params.uuid as string | null | undefined) ?? null;
  const variants = (params.shop_variant_ids as readonly number[] | null | undefined) ?? [];
  return {
    catalog: base.catalog,
    productIds: (params.shop_product_ids as readonly number[] | null | undefined) ?? null,
    variantProductIds: [...new Set(variants.flatMap((v) => base.catalog.byVariant.get(v)?.id ?? []))],
    customerId,
    uuid,
    viewedHandles: () => base.viewed({ uuid, customerId }),
    model: () => base.model(),
    content: () => base.content(),
  };
}
