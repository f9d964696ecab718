import { NotFoundError } from '../domain/errors.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { ModelIndex } from '../indexes/model-index.js';
import type { ShopCatalog } from '../indexes/shop-catalog.js';
import type { ViewedIndex } from '../indexes/viewed-index.js';
import { runListSource, type ListAnswer, type ListParams, type ListSource } from './lists/sources/index.js';

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

/** The list family over HTTP (docs/lists.md): one source, the shared filters, `{"data": […]}`. */
export function createProductsService(deps: { catalog: CatalogIndex; viewed: ViewedIndex; models: ModelIndex }) {
  return {
    /** The shop's read-model version and its model's stamp: part of every cached answer's key. */
    version(shopId: number): string {
      return `${requireCatalog(deps.catalog, shopId).version}.${deps.models.stamp(shopId) ?? '-'}`;
    },

    /** A list's answer on decoded parameters. */
    list(shopId: number, source: ListSource, params: ListParams): Promise<ListAnswer> {
      const catalog = requireCatalog(deps.catalog, shopId);
      return runListSource(
        source,
        { catalog, viewed: (filter) => deps.viewed.handles(shopId, filter), model: () => deps.models.get(shopId), content: () => deps.models.content(shopId) },
        params,
      );
    },
  };
}

export type ProductsService = ReturnType<typeof createProductsService>;
