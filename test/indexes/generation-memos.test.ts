import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CatalogIndex } from '../../src/indexes/catalog-index.js';
import { searchIndex } from '../../src/indexes/search-index.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { newShop, product, shopKeys } from '../helpers/fixtures.js';

/**
 * A write that leaves the products as they were keeps what was made from them: the first search after a
 * ruleset save builds nothing, and the lookups made on first use are the same objects.
 */
describe.each(backends())('catalog generations and their product memos on $name', (backend) => {
  let store: Store;

  beforeEach(async () => {
    store = await openStore(await backend.url());
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  /** The shop's generation after a ruleset is saved: a write that leaves its products as they were. */
  async function afterRulesetSave(index: CatalogIndex, shopId: number) {
    await store.createRuleset(shopId, {
      name: 'r',
      enabled: true,
      filter_oos: false,
      filter_input_products: false,
      rules: [],
    });
    await index.apply(shopId, { rulesets: true });
    return index.get(shopId)!;
  }

  it('keeps the search index across a ruleset write, and builds a new one after a product write', async () => {
    const shop = await store.createShop(
      newShop('memos'),
      shopKeys().map((k) => k.record),
    );
    await store.upsertProducts(shop.id, [product(1), product(2)]);
    const index = new CatalogIndex(store);
    const first = (await index.ensure(shop.id))!;
    const built = await searchIndex(first);

    const afterRuleset = await afterRulesetSave(index, shop.id);
    expect(afterRuleset).not.toBe(first);
    expect(afterRuleset.version).toBe(first.version + 1);
    expect(await searchIndex(afterRuleset)).toBe(built);

    await store.upsertProducts(shop.id, [product(3)]);
    await index.apply(shop.id, { products: [3] });
    const afterProducts = index.get(shop.id)!;
    const rebuilt = await searchIndex(afterProducts);
    expect(rebuilt).not.toBe(built);
    expect(rebuilt.documentCount).toBe(afterProducts.products.size);
  });

  it('carries its lookups over while the products stay, and makes new ones after a product write', async () => {
    const shop = await store.createShop(
      newShop('carried'),
      shopKeys().map((k) => k.record),
    );
    await store.upsertProducts(shop.id, [product(1, { tags: 'Sale' }), product(2)]);
    await store.upsertCollections(shop.id, [
      {
        id: 5,
        title: 'C',
        handle: 'c',
        updated_at: '2026-02-01T00:00:00.000Z',
        products: [{ product_id: 2, position: 1 }],
      },
    ]);
    const index = new CatalogIndex(store);
    const first = (await index.ensure(shop.id))!;
    const lookups = [first.byHandle, first.byTag, first.collectionMembers, first.collectionsByProduct];

    const afterRuleset = await afterRulesetSave(index, shop.id);
    expect(afterRuleset).not.toBe(first);
    const carried = [
      afterRuleset.byHandle,
      afterRuleset.byTag,
      afterRuleset.collectionMembers,
      afterRuleset.collectionsByProduct,
    ];
    for (const [i, lookup] of carried.entries()) expect(lookup).toBe(lookups[i]);

    const added = product(3, { tags: 'sale' });
    await store.upsertProducts(shop.id, [added]);
    await index.apply(shop.id, { products: [3] });
    const afterProduct = index.get(shop.id)!;
    expect(afterProduct.byHandle).not.toBe(first.byHandle);
    expect(afterProduct.byHandle.get(added.handle)?.id).toBe(3);
    expect(afterProduct.byTag.get('sale')!.map((p) => p.id)).toEqual([1, 3]);
    expect(afterProduct.collectionMembers.get(5)!.map((p) => p.id)).toEqual([2]);
    expect(first.byHandle.has(added.handle)).toBe(false); // the older generation is unchanged
    expect(first.byTag.get('sale')!.map((p) => p.id)).toEqual([1]);
  });
});
