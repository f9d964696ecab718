import { NotFoundError } from '../domain/errors.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { ShopCatalog } from '../indexes/shop-catalog.js';
import type { ViewedIndex } from '../indexes/viewed-index.js';
import { productArrayParts } from './lists/render.js';
import { runListSource, type ListSource } from './lists/sources/index.js';
import type { Query } from './params.js';

/** Looks up a shop's current catalog generation; a shop with no catalog yet is a 404. */
export function requireCatalog(index: CatalogIndex, shopId: number): ShopCatalog {
  const catalog = index.get(shopId);
  if (!catalog) throw new NotFoundError('Shop not found.');
  return catalog;
}

/** The same, loading the shop first when it is not in memory (admin calls, background work, pages). */
export async function loadCatalog(index: CatalogIndex, shopId: number): Promise<ShopCatalog> {
  const catalog = await index.ensure(shopId);
  if (!catalog) throw new NotFoundError('Shop not found.');
  return catalog;
}

/** The list family over HTTP (product.md §5): one source, the shared filters, `{"data": […]}`. */
export function createProductsService(deps: { catalog: CatalogIndex; viewed: ViewedIndex }) {
  return {
    /** Resolves once a rebuild in flight for the shop (another node's write) is done. */
    settled(shopId: number): Promise<unknown> | undefined {
      return deps.catalog.pending(shopId)?.catch(() => undefined);
    },

    /** The shop's read-model version: part of every cached answer's key. */
    version(shopId: number): number {
      return requireCatalog(deps.catalog, shopId).version;
    },

    async list(shopId: number, source: ListSource, query: Query): Promise<{ body: Buffer; pretty: boolean }> {
      const catalog = requireCatalog(deps.catalog, shopId);
      const { picked, options, context } = await runListSource(source, { catalog, viewed: (filter) => deps.viewed.handles(shopId, filter) }, query);
      const parts = [Buffer.from('{"data":['), ...productArrayParts(picked, options), Buffer.from(']')];
      const metadata = source.metadata?.(context, picked);
      if (metadata) parts.push(Buffer.from(`,"metadata":${JSON.stringify(metadata)}`));
      parts.push(Buffer.from('}'));
      return { body: Buffer.concat(parts), pretty: options.pretty };
    },
  };
}

export type ProductsService = ReturnType<typeof createProductsService>;
