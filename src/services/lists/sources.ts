import type { IndexedProduct, ShopCatalog } from '../../indexes/shop-catalog.js';
import { idList, listParams, stringList, type Query } from '../params.js';
import type { ListOptions } from './options.js';
import { resolveMarket, selectProducts, type Picked } from './select.js';

/** What a list endpoint knows of its caller when a ruleset's `endpoint` output calls it in-process. */
export interface ListContext {
  catalog: ShopCatalog;
  productIds: readonly number[] | null;
  customerId: number | null;
  uuid: string | null;
}

/** A list endpoint: the products it would answer, its own filters applied. Throws InvalidInputError on bad parameters. */
export interface ListSource {
  path: string;
  candidates(context: ListContext, query: Query, options: ListOptions): Iterable<IndexedProduct>;
}

export const staticSource: ListSource = {
  path: '/products/static',
  candidates(context, query) {
    const ids = idList(query, 'ids') ?? [];
    const handles = stringList(query, 'handles') ?? [];
    const out: IndexedProduct[] = [];
    for (const id of ids) {
      const p = context.catalog.products.get(id);
      if (p) out.push(p);
    }
    for (const handle of handles) {
      const p = context.catalog.byHandle.get(handle);
      if (p) out.push(p);
    }
    return out;
  },
};

/** Every list endpoint usable as a ruleset `endpoint` output (the list issue adds the rest). */
export const LIST_SOURCES: ReadonlyMap<string, ListSource> = new Map([staticSource].map((s) => [s.path, s]));

/**
 * Runs a list endpoint in-process for a ruleset output: the caller's context (limit, country,
 * input products, customer) with the endpoint's own query parameters winning.
 */
export function runListSource(source: ListSource, context: ListContext, callerQuery: Query, endpointQuery: Query): Picked[] {
  const query = { ...callerQuery, ...endpointQuery };
  const options = listParams(query);
  const market = resolveMarket(context.catalog, options.countryCode);
  return selectProducts(context.catalog, source.candidates(context, query, options), options, market).picked;
}
