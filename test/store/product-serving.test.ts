import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CatalogLoader } from '../../src/indexes/catalog-loader.js';
import { AssemblyPool } from '../../src/jobs/assembly-pool.js';
import { indexProduct, SERVING_VERSION } from '../../src/indexes/product-serving.js';
import type { IndexedProduct } from '../../src/indexes/shop-catalog.js';
import { connect } from '../../src/store/connect.js';
import { rebuildServing } from '../../src/store/kysely/product-serving.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { BIG, newShop, product, shopKeys } from '../helpers/fixtures.js';
import { indexFields } from '../helpers/indexed-products.js';

/** What a request can read of a product, its answer pieces included. */
function served(p: IndexedProduct) {
  const json = p.json;
  return {
    ...indexFields(p),
    image: p.image,
    storedLength: p.storedLength,
    plain: json.plain.toString(),
    head: json.head,
    pieces: json.variants,
    tail: json.tail,
    m: json.metafields,
    vm: json.variantMetafields,
  };
}

/** Each product's answer bytes and index fields are stored with it and read back by loads (§23), on every backend. */
describe.each(backends())('stored serving rows on $name', (backend) => {
  let store: Store;
  let url: string;
  let shopId: number;

  beforeEach(async () => {
    url = await backend.url();
    store = await backend.open();
    shopId = (
      await store.createShop(
        newShop('serve'),
        shopKeys().map((k) => k.record),
      )
    ).id;
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  const loadAll = async (s: Store) => [...(await new CatalogLoader(s).products(shopId)).values()].map(served);
  const fromDocuments = async () => (await store.listProducts(shopId)).map((p) => served(indexProduct(p)));
  /** Products 1..count stored in batches; their ids. */
  const storeProducts = async (count: number) => {
    const ids = Array.from({ length: count }, (_, i) => i + 1);
    for (let i = 0; i < ids.length; i += 500)
      await store.upsertProducts(
        shopId,
        ids.slice(i, i + 500).map((id) => product(id)),
      );
    return ids;
  };
  /** A loader that asks the pool's thread past its first `localProducts`, recording the pages the thread read. */
  const threadedLoader = (pool: AssemblyPool, threadPages: number[], localProducts?: number) =>
    new CatalogLoader(
      store,
      undefined,
      (id, page) => {
        const read = pool.readPage(id, page);
        if (read) threadPages.push(page.afterId);
        return read;
      },
      localProducts,
    );

  it(
    'writes the answer bytes with the product, and a load reads ' + 'them to the same product as its document gives',
    async () => {
      const products = [product(1), product(2, { tags: 'Sale, exclude_rebound', metafields: [] }), product(BIG)];
      await store.upsertProducts(shopId, products);
      const rows = await store.listServedProducts(shopId, {});
      expect(rows.map((r) => r.version)).toEqual([SERVING_VERSION, SERVING_VERSION, SERVING_VERSION]);
      const loaded = await loadAll(store);
      expect(JSON.parse(loaded[0]!.plain)).toMatchObject({ id: 1, handle: 'product-1' });
      expect(loaded[0]!.m).toContain('"key":"material"');
      expect(loaded.map((p) => p.listable)).toEqual([true, false, true]);
      expect(loaded).toEqual(await fromDocuments());
      // A product's answer object is made once, on its first read: its inflated bytes are kept by it.
      const [first] = (await new CatalogLoader(store).products(shopId)).values();
      expect(first!.json).toBe(first!.json);
    },
  );

  it('reads products by more ids than a statement takes parameters (an import of 33,000), in id order', async () => {
    await store.upsertProducts(shopId, [product(3), product(40_000), product(1)]);
    // SQLite takes 32,766 parameters a statement: the ids of an import that large are read in parts.
    const ids = [40_000, ...Array.from({ length: 33_000 }, (_, i) => 33_000 - i)];
    expect((await store.listServedProducts(shopId, { ids })).map((r) => r.id)).toEqual([1, 3, 40_000]);
    expect((await store.listServedProducts(shopId, { ids, limit: 2 })).map((r) => r.id)).toEqual([1, 3]);
    // The documents too (what a serving row is rebuilt from after a stock change), by the same parts.
    expect((await store.listProducts(shopId, { ids })).map((p) => p.id)).toEqual([1, 3, 40_000]);
  });

  it('rewrites the bytes when stock moves, and drops them with the product', async () => {
    await store.upsertProducts(shopId, [product(1), product(2)]);
    await store.setInventory(shopId, [{ variant_id: 12, inventory_quantity: 9 }]);
    const [loaded] = await loadAll(store);
    expect(loaded!.variants.map((v) => v.inStock)).toEqual([true, true]);
    expect(JSON.parse(loaded!.plain).variants[1]).toMatchObject({
      id: 12,
      inventory_quantity: 9,
      old_inventory_quantity: 0,
    });
    expect(await loadAll(store)).toEqual(await fromDocuments());

    await store.deleteProduct(shopId, 1);
    expect((await store.listServedProducts(shopId, {})).map((r) => r.id)).toEqual([2]);
  });

  it(
    'reads the first page here and the rest in the assembly ' +
      'thread, to the same catalog, stale and missing rows from their documents',
    async () => {
      const ids = [...Array.from({ length: 299 }, (_, i) => i + 1), BIG];
      await store.upsertProducts(
        shopId,
        ids.map((id) => product(id)),
      );
      const { db } = connect(url);
      const pool = new AssemblyPool(url);
      try {
        await db
          .updateTable('product_serving')
          .set({ version: SERVING_VERSION + 1 })
          .where('product_id', 'in', [2, 280])
          .execute();
        await db.deleteFrom('product_serving').where('product_id', '=', 290).execute();
        const threadPages: number[] = [];
        const loader = threadedLoader(pool, threadPages, 250);
        await pool.warm();
        const loaded = [...(await loader.products(shopId)).values()].map(served);
        expect(threadPages).toEqual([250]);
        expect(loaded.map((p) => p.id)).toEqual(ids);
        expect(loaded).toEqual(await fromDocuments());
      } finally {
        await pool.close();
        await db.destroy();
      }
    },
  );

  it('does not wait for the assembly thread to start: the load reads every page here and starts it', async () => {
    const ids = await storeProducts(600);
    const pool = new AssemblyPool(url);
    try {
      const threadPages: number[] = [];
      const loader = threadedLoader(pool, threadPages, 250);
      const first = [...(await loader.products(shopId)).values()].map(served);
      expect(threadPages).toEqual([]);
      expect(first.map((p) => p.id)).toEqual(ids);
      expect(pool.started).toBe(true);
      await pool.warm();
      const second = [...(await loader.products(shopId)).values()].map(served);
      expect(threadPages).toEqual([250]);
      expect(second).toEqual(first);
    } finally {
      await pool.close();
    }
  });

  it('reads a shop of up to 1,250 products on this thread, 250 at a time, never starting the thread', async () => {
    const ids = await storeProducts(1100);
    const pool = new AssemblyPool(url);
    try {
      const asked: number[] = [];
      const loader = new CatalogLoader(store, undefined, (id, page) => {
        asked.push(page.afterId);
        return pool.readPage(id, page);
      });
      const loaded = [...(await loader.products(shopId)).values()].map(served);
      expect(asked).toEqual([]);
      expect(pool.started).toBe(false);
      expect(loaded.map((p) => p.id)).toEqual(ids);
    } finally {
      await pool.close();
    }
  });

  it('reads every page here, 250 at a time, without a thread; with one, pages past 1,250 are 1,000', async () => {
    const ids = await storeProducts(1600);
    const pages = vi.spyOn(store, 'listServedProducts');
    try {
      const alone = [...(await new CatalogLoader(store).products(shopId)).keys()];
      expect(pages.mock.calls.map(([, page]) => page.limit)).toEqual([250, 250, 250, 250, 250, 250, 250]);
      pages.mockClear();
      // A thread that is not ready yet: the pages it would read are read here, at its size.
      const beside = [...(await new CatalogLoader(store, undefined, () => null).products(shopId)).keys()];
      expect(pages.mock.calls.map(([, page]) => page.limit)).toEqual([250, 250, 250, 250, 250, 1000]);
      expect(alone).toEqual(ids);
      expect(beside).toEqual(ids);
    } finally {
      pages.mockRestore();
    }
  });

  it(
    'serializes from the document a product whose row is missing ' +
      'or of another serializer, and the rebuild writes them again',
    async () => {
      await store.upsertProducts(shopId, [product(1), product(2), product(3)]);
      const { db } = connect(url);
      try {
        await db.deleteFrom('product_serving').where('product_id', '=', 1).execute();
        await db
          .updateTable('product_serving')
          .set({ version: SERVING_VERSION + 1 })
          .where('product_id', '=', 3)
          .execute();
        expect((await store.listServedProducts(shopId, {})).map((r) => r.version)).toEqual([
          null,
          SERVING_VERSION,
          SERVING_VERSION + 1,
        ]);
        expect(await loadAll(store)).toEqual(await fromDocuments());

        // As a migration runs it: inside the migration's transaction, with products stored.
        expect(await db.transaction().execute((trx) => rebuildServing(trx))).toBe(3);
        expect((await store.listServedProducts(shopId, {})).map((r) => r.version)).toEqual([
          SERVING_VERSION,
          SERVING_VERSION,
          SERVING_VERSION,
        ]);
        expect(await loadAll(store)).toEqual(await fromDocuments());
      } finally {
        await db.destroy();
      }
    },
  );
});
