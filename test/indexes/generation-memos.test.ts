import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CatalogIndex } from '../../src/indexes/catalog-index.js';
import { searchIndex } from '../../src/indexes/search-index.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { newShop, product, shopKeys } from '../helpers/fixtures.js';

/**
 * A write that leaves the products as they were keeps what was made from them: the first search after a
 * ruleset save builds nothing.
 */
describe.each(backends())('catalog generations and their product memos on $name', (backend) => {
  let store: Store;

  beforeEach(async () => {
    store = await openStore(await backend.url());
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  it('keeps the search index across a ruleset write, and builds a new one after a product write', async () => {
    const shop = await store.createShop(
      newShop('memos'),
      shopKeys().map((k) => k.record),
    );
    await store.upsertProducts(shop.id, [product(1), product(2)]);
    const index = new CatalogIndex(store);
    const first = (await index.ensure(shop.id))!;
    const built = await searchIndex(first);

    await store.createRuleset(shop.id, {
      name: 'r',
      enabled: true,
      filter_oos: false,
      filter_input_products: false,
      rules: [],
    });
    await index.apply(shop.id, { rulesets: true });
    const afterRuleset = index.get(shop.id)!;
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
});
