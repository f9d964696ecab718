import { NotFoundError } from '../domain/errors.js';
import type { CatalogIndex } from '../indexes/catalog-index.js';
import type { IndexedProduct, ShopCatalog } from '../indexes/shop-catalog.js';
import type { ListOptions } from './lists/options.js';
import { renderDataList } from './lists/render.js';
import { resolveMarket, selectProducts } from './lists/select.js';

/** Looks up a shop's current catalog generation; a shop with no catalog yet is a 404. */
export function requireCatalog(index: CatalogIndex, shopId: number): ShopCatalog {
  const catalog = index.get(shopId);
  if (!catalog) throw new NotFoundError('Shop not found.');
  return catalog;
}

/** Products named by id and / or handle, in the order given (`/products/static`, product.md §5). */
export function createProductsService(deps: { catalog: CatalogIndex }) {
  return {
    /** The shop's read-model version: part of every cached answer's key. */
    version(shopId: number): number {
      return requireCatalog(deps.catalog, shopId).version;
    },

    staticProducts(shopId: number, request: { ids: number[] | null; handles: string[] | null; options: ListOptions }): Buffer {
      const catalog = requireCatalog(deps.catalog, shopId);
      const market = resolveMarket(catalog, request.options.countryCode);
      const candidates: IndexedProduct[] = [];
      for (const id of request.ids ?? []) {
        const product = catalog.products.get(id);
        if (product) candidates.push(product);
      }
      for (const handle of request.handles ?? []) {
        const product = catalog.byHandle.get(handle);
        if (product) candidates.push(product);
      }
      const { picked } = selectProducts(catalog, candidates, request.options, market);
      return renderDataList(picked, request.options);
    },
  };
}

export type ProductsService = ReturnType<typeof createProductsService>;
