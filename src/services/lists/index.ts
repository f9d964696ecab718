import type { CatalogIndex } from '../../indexes/catalog-index.js';
import type { ModelIndex } from '../../indexes/model-index.js';
import type { ShopCatalog } from '../../indexes/shop-catalog.js';
import type { ViewedIndex } from '../../indexes/viewed-index.js';
import { runListSource, type ListAnswer, type ListParams, type ListSource } from './sources/index.js';

/** The list family over HTTP (docs/lists.md): one source, the shared filters, `{"data": […]}`. */
export function createListsService(deps: { catalog: CatalogIndex; viewed: ViewedIndex; models: ModelIndex }) {
  return {
    /**
     * The read-model version of the request's catalog generation
     * and the model's stamp: part of every cached answer's key.
     */
    version(catalog: ShopCatalog): string {
      return `${catalog.version}.${deps.models.stamp(catalog.shop.id) ?? '-'}`;
    },

    /** A list's answer on decoded parameters, from the request's catalog generation. */
    list(catalog: ShopCatalog, source: ListSource, params: ListParams): Promise<ListAnswer> {
      const shopId = catalog.shop.id;
      return runListSource(
        source,
        {
          catalog,
          viewed: (filter) => deps.viewed.handles(shopId, filter),
          model: () => deps.models.get(shopId),
          content: () => deps.models.content(shopId),
        },
        params,
      );
    },
  };
}

export type ListsService = ReturnType<typeof createListsService>;
