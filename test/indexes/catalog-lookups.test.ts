import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CatalogIndex } from '../../src/indexes/catalog-index.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { BIG, newShop, product, shopKeys } from '../helpers/fixtures.js';

/** The lookups a loaded catalog keeps, as loaded from the store: variants, collections, customers. */
describe.each(backends())('a loaded catalog on $name', (backend) => {
  let store: Store;

  beforeEach(async () => {
    store = await openStore(await backend.url());
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  it('finds a product by any of its variants, in every generation, building the map once per generation', async () => {
    const shop = await store.createShop(
      newShop('lookups'),
      shopKeys().map((k) => k.record),
    );
    await store.upsertProducts(shop.id, [product(BIG + 1), product(BIG + 2)]);
    const index = new CatalogIndex(store);
    const first = (await index.ensure(shop.id))!;
    const byVariant = first.byVariant;
    expect(first.byVariant).toBe(byVariant);
    expect(byVariant.get((BIG + 1) * 10 + 2)?.id).toBe(BIG + 1);
    expect(byVariant.get((BIG + 2) * 10 + 1)?.id).toBe(BIG + 2);
    expect(byVariant.get(1)).toBeUndefined();

    await store.upsertProducts(shop.id, [product(BIG + 3)]);
    await index.apply(shop.id, { products: [BIG + 3] });
    const next = index.get(shop.id)!;
    expect(next.byVariant.get((BIG + 3) * 10 + 1)?.id).toBe(BIG + 3);
    expect(first.byVariant.get((BIG + 3) * 10 + 1)).toBeUndefined(); // the older generation is unchanged
  });

  it("lists each product's collections, and answers for the shop's customers by id", async () => {
    const shop = await store.createShop(
      newShop('members'),
      shopKeys().map((k) => k.record),
    );
    await store.upsertProducts(shop.id, [product(1), product(2)]);
    const collection = (id: number, members: number[]) => ({
      id,
      title: `C${id}`,
      handle: `c-${id}`,
      updated_at: '2026-02-01T00:00:00.000Z',
      products: members.map((product_id, i) => ({ product_id, position: i + 1 })),
    });
    await store.upsertCollections(shop.id, [collection(BIG, [1, 2]), collection(11, [2]), collection(12, [2, 1])]);
    await store.upsertCustomers(shop.id, [
      { id: BIG + 5, email: 'a@example.com', tags: ['VIP'] },
      { id: 7, email: null, tags: [] },
    ]);
    const catalog = (await new CatalogIndex(store).ensure(shop.id))!;
    expect(new Set(catalog.collectionsByProduct.get(1))).toEqual(new Set([BIG, 12]));
    expect(new Set(catalog.collectionsByProduct.get(2))).toEqual(new Set([BIG, 11, 12]));
    expect(catalog.collectionMembers.get(12)!.map((p) => p.id)).toEqual([2, 1]);
    expect(catalog.customers.size).toBe(2);
    expect(catalog.customers.get(BIG + 5)).toEqual({ id: BIG + 5, email: 'a@example.com', tags: ['VIP'] });
    expect(catalog.customers.get(7)).toEqual({ id: 7, email: null, tags: [] });
    expect(catalog.customers.has(8)).toBe(false);
  });

  it('lists the products of a tag once each, whatever the case or repeats of their tags', async () => {
    const shop = await store.createShop(
      newShop('tags'),
      shopKeys().map((k) => k.record),
    );
    await store.upsertProducts(shop.id, [
      product(1, { tags: 'Sale, sale, New, SALE' }),
      product(2, { tags: 'new' }),
      // Many tags, repeats among them: found another way than a product's few.
      product(3, { tags: ['Sale', ...Array.from({ length: 20 }, (_, i) => `T${i}`), 't7', 'SALE'].join(', ') }),
      product(BIG, { tags: 'sale' }),
    ]);
    const catalog = (await new CatalogIndex(store).ensure(shop.id))!;
    expect(catalog.byTag.get('sale')!.map((p) => p.id)).toEqual([1, 3, BIG]);
    expect(catalog.byTag.get('new')!.map((p) => p.id)).toEqual([1, 2]);
    expect(catalog.byTag.get('t7')!.map((p) => p.id)).toEqual([3]);
    expect(catalog.byTag.size).toBe(22);
    expect(catalog.bestSellersTagged('SALE').map((p) => p.id)).toEqual([1, 3, BIG]);
  });
});
