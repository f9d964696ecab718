import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Product } from '../../domain/catalog/product.js';
import { servingRow } from '../../indexes/product-serving.js';
import { chunks, readInIdParts } from '../codec.js';
import type { Database } from '../schema.js';
import { readProducts } from './product-rows.js';
import { rawReader } from './load-reads.js';
import { nextTurn } from '../../indexes/turns.js';

/** A product row as a load reads it: its stored answer bytes and fields, or nulls when none are stored. */
export interface ServedProduct {
  id: number;
  /** null when no serving row was written (the product predates them). */
  version: number | null;
  body: Buffer | null;
  fields: string | null;
}

/** The ready-to-serve parts of products (§23): what a shop's load reads instead of documents. */
export interface ServingStore {
  /** Every product of a shop in id order (a page of it with afterId/limit), with its stored serving row if any. */
  listServedProducts(
    shopId: number,
    options: { afterId?: number; limit?: number; ids?: number[] },
  ): Promise<ServedProduct[]>;
}

export interface ServingTables {
  product_serving: ProductServingRow;
}

/** A product's answer bytes and index fields, written with it (src/indexes/product-serving.ts). */
interface ProductServingRow {
  shop_id: number;
  product_id: number;
  version: number;
  body: Buffer;
  fields: string;
}

/** Products re-serialized per query when serving rows are rebuilt. */
const REBUILD_PAGE = 500;
/** Products re-serialized per page when their stock moved: about 25 ms of the event loop, as an import's slice. */
const REFRESH_PAGE = 100;

/** Writes the serving rows of products just written, in the writer's transaction. */
export async function writeServing(trx: Kysely<Database>, shopId: number, products: readonly Product[]): Promise<void> {
  const rows = products.map((p) => ({ shop_id: shopId, product_id: p.id, ...servingRow(p) }));
  for (const batch of chunks(rows, 5)) {
    await trx
      .insertInto('product_serving')
      .values(batch)
      .onConflict((oc) =>
        oc.columns(['shop_id', 'product_id']).doUpdateSet((eb) => ({
          version: eb.ref('excluded.version'),
          body: eb.ref('excluded.body'),
          fields: eb.ref('excluded.fields'),
        })),
      )
      .execute();
  }
}

/** Rewrites the serving rows of the products owning these variants (their stock moved: the answer bytes show it). */
export async function refreshServing(
  trx: Kysely<Database>,
  shopId: number,
  { variantIds }: { variantIds: number[] },
): Promise<void> {
  const productIds = new Set<number>();
  for (const batch of chunks([...new Set(variantIds)], 1)) {
    const rows = await trx
      .selectFrom('variants')
      .select('product_id')
      .where('shop_id', '=', shopId)
      .where('id', 'in', batch)
      .execute();
    for (const row of rows) productIds.add(Number(row.product_id));
  }
  // A page is serialized and deflated on this thread: a turn of the event loop between pages, as an import's slices.
  for (const [at, ids] of chunks([...productIds], 1, REFRESH_PAGE).entries()) {
    if (at > 0) await nextTurn();
    await writeServing(trx, shopId, await readProducts(trx, shopId, { ids }));
  }
}

/**
 * Writes every product's serving row again, shop by shop and page by page (a serializer change's
 * migration), in the caller's transaction: a migration's.
 */
export async function rebuildServing(db: Kysely<Database>): Promise<number> {
  let written = 0;
  const shops = await db.selectFrom('products').select('shop_id').distinct().orderBy('shop_id').execute();
  for (const { shop_id } of shops) {
    const shopId = Number(shop_id);
    let afterId = 0;
    for (;;) {
      const page = await readProducts(db, shopId, { afterId, limit: REBUILD_PAGE });
      if (page.length === 0) break;
      // Migrations run in a transaction already (Kysely's on PostgreSQL, the write lock's on SQLite).
      await writeServing(db, shopId, page);
      written += page.length;
      afterId = page[page.length - 1]!.id;
    }
  }
  return written;
}

export function servingMethods(db: Kysely<Database>, sqlite?: SQLite.Database): ServingStore {
  const page = sqlite ? sqliteServedPage(db, sqlite) : undefined;
  const list: ServingStore['listServedProducts'] = async (shopId, options) => {
    if (page && options.ids === undefined && options.afterId !== undefined)
      return page(shopId, options.afterId, options.limit ?? -1);
    const inParts = await readInIdParts(options, (ids) => list(shopId, { ...options, ids }));
    if (inParts) return inParts;
    let query = db
      .selectFrom('products as p')
      .leftJoin('product_serving as s', (join) =>
        join.onRef('s.shop_id', '=', 'p.shop_id').onRef('s.product_id', '=', 'p.id'),
      )
      .select(['p.id as id', 's.version as version', 's.body as body', 's.fields as fields'])
      .where('p.shop_id', '=', shopId)
      .orderBy('p.id');
    if (options.ids) {
      if (options.ids.length === 0) return [];
      query = query.where('p.id', 'in', options.ids);
    }
    if (options.afterId !== undefined) query = query.where('p.id', '>', options.afterId);
    if (options.limit !== undefined) query = query.limit(options.limit);
    const rows = await query.execute();
    return rows.map((r) => ({
      id: Number(r.id),
      version: r.version === null ? null : Number(r.version),
      body: r.body,
      fields: r.fields,
    }));
  };
  return { listServedProducts: list };
}

const SERVED_PAGE = `select p.id as id, s.version as version, s.body as body, s.fields as fields
  from products p left join product_serving s on s.shop_id = p.shop_id and s.product_id = p.id
  where p.shop_id = ? and p.id > ? order by p.id limit ?`;

type ServedRow = [id: number, version: number | null, body: Buffer | null, fields: string | null];

/**
 * SQLite: a page of `listServedProducts` (every load reads its products so) as arrays (`rawReads`),
 * about 0.3 ms for 150 products where the Kysely query took 0.55. A limit of -1 is none.
 */
function sqliteServedPage(
  db: Kysely<Database>,
  sqlite: SQLite.Database,
): (shopId: number, afterId: number, limit: number) => Promise<ServedProduct[]> {
  const read = rawReader<[number, number, number], ServedRow>(db, sqlite, SERVED_PAGE);
  return async (shopId, afterId, limit) => {
    const rows = await read(shopId, afterId, limit);
    const products = new Array<ServedProduct>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      products[i] = { id: row[0], version: row[1], body: row[2], fields: row[3] };
    }
    return products;
  };
}

/**
 * SQLite: `listServedProducts`'s page, one statement prepared once on a connection of the
 * assembly thread's own, which reads nothing else and does not load Kysely (src/jobs/assembly-worker.ts).
 */
export function sqliteServedPages(
  database: SQLite.Database,
): (shopId: number, page: { afterId: number; limit: number }) => ServedProduct[] {
  const statement = database.prepare<[number, number, number], ServedProduct>(SERVED_PAGE);
  return (shopId, page) => statement.all(shopId, page.afterId, page.limit);
}
