import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Collection } from '../../domain/catalog/collection.js';
import type { Product } from '../../domain/catalog/product.js';
import type { Checkpoints } from '../checkpoints.js';
import { chunks, time } from '../codec.js';
import type { Database } from '../schema.js';
import { collectionsReader } from './load-reads.js';
import { readProducts } from './product-rows.js';
import { nextTurn } from '../../indexes/turns.js';
import { importInSlices, lookUpInBatches, PRODUCT_SLICE, productWeight, writeProducts } from './imports.js';
import { refreshServing } from './product-serving.js';
import { bumpDataVersion } from './shops.js';

/** Products with their variants and stock, and collections: the catalog a shop syncs in. */
export interface CatalogStore {
  upsertProducts(shopId: number, products: Product[]): Promise<void>;
  deleteProduct(shopId: number, productId: number): Promise<boolean>;
  /** Products in id order, with live inventory merged into the variants. */
  listProducts(shopId: number, options?: { ids?: number[]; afterId?: number; limit?: number }): Promise<Product[]>;
  countProducts(shopId: number): Promise<number>;
  /** Variant id → product id for the given variants (missing ones are absent). */
  findVariantProducts(shopId: number, variantIds: number[]): Promise<Map<number, number>>;
  findExistingProductIds(shopId: number, productIds: number[]): Promise<Set<number>>;
  /** Handle → product id for the given handles (missing ones are absent). */
  findProductIdsByHandle(shopId: number, handles: string[]): Promise<Map<string, number>>;
  setInventory(shopId: number, levels: { variant_id: number; inventory_quantity: number }[]): Promise<void>;

  upsertCollections(shopId: number, collections: Collection[]): Promise<void>;
  listCollections(shopId: number): Promise<Collection[]>;
  deleteCollection(shopId: number, collectionId: number): Promise<boolean>;
}

export interface CatalogTables {
  products: ProductRow;
  variants: VariantRow;
  collections: CollectionRow;
  collection_products: { shop_id: number; collection_id: number; product_id: number; position: number };
}

interface ProductRow {
  shop_id: number;
  id: number;
  handle: string;
  status: string;
  document: string; // JSON of the normalized product (variants, options, images, metafields)
  updated_at: number;
}

interface VariantRow {
  shop_id: number;
  id: number;
  product_id: number;
  inventory_quantity: number;
  old_inventory_quantity: number;
}

interface CollectionRow {
  shop_id: number;
  id: number;
  title: string;
  handle: string;
  updated_at: number;
}

/** Inventory levels updated per slice (a statement each), before a turn of the event loop. */
const INVENTORY_SLICE = 1000;
/** A collection's members inserted per statement, a turn of the event loop between statements. */
const MEMBERS_BATCH = 2000;

/** A collection and its members, which replace those it had; a turn of the event loop between member batches. */
async function writeCollection(trx: Kysely<Database>, shopId: number, c: Collection): Promise<void> {
  const updatedAt = time.toDb(c.updated_at);
  await trx
    .insertInto('collections')
    .values({ shop_id: shopId, id: c.id, title: c.title, handle: c.handle, updated_at: updatedAt })
    .onConflict((oc) =>
      oc.columns(['shop_id', 'id']).doUpdateSet({ title: c.title, handle: c.handle, updated_at: updatedAt }),
    )
    .execute();
  await trx.deleteFrom('collection_products').where('shop_id', '=', shopId).where('collection_id', '=', c.id).execute();
  const members = c.products.map((p) => ({
    shop_id: shopId,
    collection_id: c.id,
    product_id: p.product_id,
    position: p.position,
  }));
  for (const [at, batch] of chunks(members, 4, MEMBERS_BATCH * 4).entries()) {
    if (at > 0) await nextTurn();
    await trx.insertInto('collection_products').values(batch).execute();
  }
}

export function catalogMethods(
  db: Kysely<Database>,
  sqlite?: SQLite.Database,
  checkpoints?: Checkpoints,
): CatalogStore {
  return {
    async upsertProducts(shopId, products) {
      const write = async (trx: Kysely<Database>, slice: readonly Product[], last: boolean) => {
        await writeProducts(trx, shopId, slice);
        if (last) await bumpDataVersion(trx, shopId);
      };
      await importInSlices(db, checkpoints, products, PRODUCT_SLICE, write, productWeight);
    },

    async deleteProduct(shopId, productId) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('products')
          .where('shop_id', '=', shopId)
          .where('id', '=', productId)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await trx.deleteFrom('variants').where('shop_id', '=', shopId).where('product_id', '=', productId).execute();
        await trx
          .deleteFrom('product_serving')
          .where('shop_id', '=', shopId)
          .where('product_id', '=', productId)
          .execute();
        await trx
          .deleteFrom('collection_products')
          .where('shop_id', '=', shopId)
          .where('product_id', '=', productId)
          .execute();
        await bumpDataVersion(trx, shopId);
        return true;
      });
    },

    listProducts(shopId, options = {}) {
      return readProducts(db, shopId, options);
    },

    async countProducts(shopId) {
      const row = await db
        .selectFrom('products')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('shop_id', '=', shopId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async findVariantProducts(shopId, variantIds) {
      const found = new Map<number, number>();
      await lookUpInBatches(variantIds, async (batch) => {
        const rows = await db
          .selectFrom('variants')
          .select(['id', 'product_id'])
          .where('shop_id', '=', shopId)
          .where('id', 'in', batch)
          .execute();
        for (const row of rows) found.set(Number(row.id), Number(row.product_id));
      });
      return found;
    },

    async findExistingProductIds(shopId, productIds) {
      const found = new Set<number>();
      await lookUpInBatches(productIds, async (batch) => {
        const rows = await db
          .selectFrom('products')
          .select('id')
          .where('shop_id', '=', shopId)
          .where('id', 'in', batch)
          .execute();
        for (const row of rows) found.add(Number(row.id));
      });
      return found;
    },

    async findProductIdsByHandle(shopId, handles) {
      const found = new Map<string, number>();
      await lookUpInBatches(handles, async (batch) => {
        const rows = await db
          .selectFrom('products')
          .select(['id', 'handle'])
          .where('shop_id', '=', shopId)
          .where('handle', 'in', batch)
          .execute();
        for (const row of rows) found.set(row.handle, Number(row.id));
      });
      return found;
    },

    async setInventory(shopId, levels) {
      await importInSlices(db, checkpoints, levels, INVENTORY_SLICE, async (trx, slice, last) => {
        for (const level of slice) {
          await trx
            .updateTable('variants')
            .set((eb) => ({
              old_inventory_quantity: eb.ref('inventory_quantity'),
              inventory_quantity: level.inventory_quantity,
            }))
            .where('shop_id', '=', shopId)
            .where('id', '=', level.variant_id)
            .execute();
        }
        if (!last) return;
        await refreshServing(trx, shopId, { variantIds: levels.map((l) => l.variant_id) });
        await bumpDataVersion(trx, shopId);
      });
    },

    async upsertCollections(shopId, collections) {
      // A collection a slice: 7 collections of 20,000 members were 0.35-0.6 s of the event loop in one go.
      await importInSlices(db, checkpoints, collections, 1, async (trx, slice, last) => {
        for (const collection of slice) await writeCollection(trx, shopId, collection);
        if (last) await bumpDataVersion(trx, shopId);
      });
    },

    listCollections: collectionsReader(db, sqlite),
    async deleteCollection(shopId, collectionId) {
      return db.transaction().execute(async (trx) => {
        const result = await trx
          .deleteFrom('collections')
          .where('shop_id', '=', shopId)
          .where('id', '=', collectionId)
          .executeTakeFirst();
        if (Number(result.numDeletedRows) === 0) return false;
        await trx
          .deleteFrom('collection_products')
          .where('shop_id', '=', shopId)
          .where('collection_id', '=', collectionId)
          .execute();
        await bumpDataVersion(trx, shopId);
        return true;
      });
    },
  };
}
