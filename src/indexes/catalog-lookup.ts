import { NotFoundError } from '../domain/errors.js';
import type { CatalogIndex } from './catalog-index.js';
import type { ShopCatalog } from './shop-catalog.js';

/** A shop's current catalog generation, which must be resident; a shop with no catalog is a 404. */
export function requireCatalog(index: Pick<CatalogIndex, 'get'>, shopId: number): ShopCatalog {
  const catalog = index.get(shopId);
  if (!catalog) throw new NotFoundError('Shop not found.');
  return catalog;
}

/** The same, loading the shop first when it is not in memory (admin calls, background work, pages). */
export async function loadCatalog(index: Pick<CatalogIndex, 'ensure'>, shopId: number): Promise<ShopCatalog> {
  const catalog = await index.ensure(shopId);
  if (!catalog) throw new NotFoundError('Shop not found.');
  return catalog;
}
