import { NotFoundError } from '../domain/errors.js';
import type { CatalogIndex } from './catalog-index.js';
import type { ShopCatalog } from './shop-catalog.js';

/**
 * A shop's catalog generation, loaded first when it is not in memory (admin calls, background work,
 * pages); no shop is a 404.
 */
export async function loadCatalog(index: Pick<CatalogIndex, 'ensure'>, shopId: number): Promise<ShopCatalog> {
  const catalog = await index.ensure(shopId);
  if (!catalog) throw new NotFoundError('Shop not found.');
  return catalog;
}
