import type { Kysely } from 'kysely';
import type { Product } from '../../domain/catalog/product.js';
import { json, readInIdParts } from '../codec.js';
import type { Database } from '../schema.js';

/** Live inventory is kept beside the document so a stock update touches one small row. */
type StoredProduct = Omit<Product, 'variants'> & { variants: Product['variants'][number][] };

type ProductQuery = { ids?: number[]; afterId?: number; limit?: number };

/** Products in id order with live inventory merged in; on the store's connection or inside a transaction. */
export async function readProducts(
  db: Kysely<Database>,
  shopId: number,
  options: ProductQuery = {},
): Promise<Product[]> {
  const inParts = await readInIdParts(options, (ids) => readProducts(db, shopId, { ...options, ids }));
  if (inParts) return inParts;
  let query = db.selectFrom('products').select(['id', 'document']).where('shop_id', '=', shopId).orderBy('id');
  if (options.ids) {
    if (options.ids.length === 0) return [];
    query = query.where('id', 'in', options.ids);
  }
  if (options.afterId !== undefined) query = query.where('id', '>', options.afterId);
  if (options.limit !== undefined) query = query.limit(options.limit);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  let variantQuery = db
    .selectFrom('variants')
    .select(['id', 'inventory_quantity', 'old_inventory_quantity'])
    .where('shop_id', '=', shopId);
  if (options.ids || options.afterId !== undefined || options.limit !== undefined) {
    variantQuery = variantQuery.where(
      'product_id',
      'in',
      rows.map((r) => r.id),
    );
  }
  const stock = new Map((await variantQuery.execute()).map((v) => [Number(v.id), v]));
  return rows.map((row) => {
    const product = json.fromDb<StoredProduct>(row.document);
    for (const variant of product.variants) {
      const level = stock.get(variant.id);
      if (level) {
        variant.inventory_quantity = Number(level.inventory_quantity);
        variant.old_inventory_quantity = Number(level.old_inventory_quantity);
      }
    }
    return product;
  });
}
