import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { newShop, product, shopKeys } from '../helpers/fixtures.js';

const UPDATED = '2026-03-01T00:00:00.000Z';

/** Collections read a page at a time (src/store/kysely/collection-pages.ts), on every backend. */
describe.each(backends())('collection pages on $name', (backend) => {
  let store: Store;
  let shopId: number;
  let otherShop: number;

  /** Collection `id` holds products 1..members. */
  const collection = (id: number, members: number) => ({
    id,
    title: `C${id}`,
    handle: `c-${id}`,
    updated_at: UPDATED,
    products: Array.from({ length: members }, (_, i) => ({ product_id: i + 1, position: members - i })),
  });

  beforeAll(async () => {
    store = await backend.open();
    shopId = (
      await store.createShop(
        newShop('pages'),
        shopKeys().map((k) => k.record),
      )
    ).id;
    otherShop = (
      await store.createShop(
        newShop('others'),
        shopKeys().map((k) => k.record),
      )
    ).id;
    for (const shop of [shopId, otherShop])
      await store.upsertProducts(
        shop,
        Array.from({ length: 6 }, (_, i) => product(i + 1)),
      );
    // Members 3, 0, 6, 2, 1: ids not in the order they were written.
    await store.upsertCollections(shopId, [collection(40, 2), collection(10, 3), collection(30, 6), collection(20, 0)]);
    await store.upsertCollections(shopId, [collection(50, 1)]);
    await store.upsertCollections(otherShop, [collection(15, 4)]);
  });
  afterAll(async () => {
    await store.close();
    await backend.cleanup();
  });

  const ids = (page: { collections: { id: number }[] }) => page.collections.map((c) => c.id);

  it('reads collections in id order after an id, and says whether more remain', async () => {
    const first = await store.collectionPage(shopId, { afterId: 0, limit: 2 });
    expect(ids(first)).toEqual([10, 20]);
    expect(first.more).toBe(true);
    const second = await store.collectionPage(shopId, { afterId: 20, limit: 2 });
    expect(ids(second)).toEqual([30, 40]);
    const last = await store.collectionPage(shopId, { afterId: 40, limit: 2 });
    expect(ids(last)).toEqual([50]);
    expect(last.more).toBe(false);
    expect(await store.countCollections(shopId)).toBe(5);
    expect(await store.countCollections(otherShop)).toBe(1);
  });

  it('gives each collection its members in position order, as the whole read does', async () => {
    const page = await store.collectionPage(shopId, { afterId: 0, limit: 10 });
    expect(page.collections).toEqual(await store.listCollections(shopId));
    expect(page.collections[0]!.products).toEqual([
      { product_id: 3, position: 1 },
      { product_id: 2, position: 2 },
      { product_id: 1, position: 3 },
    ]);
  });

  it('ends a page before the collection that would pass the members bound, one collection at least', async () => {
    // 3 + 0 members fit in 4; 30's 6 would not.
    const page = await store.collectionPage(shopId, { afterId: 0, limit: 10, members: 4 });
    expect(ids(page)).toEqual([10, 20]);
    expect(page.more).toBe(true);
    // 30 alone holds more than the bound: it is a page of its own.
    const alone = await store.collectionPage(shopId, { afterId: 20, limit: 10, members: 4 });
    expect(ids(alone)).toEqual([30]);
    expect(alone.collections[0]!.products).toHaveLength(6);
    expect(alone.more).toBe(true);
  });

  it('reads the collections named, of this shop only', async () => {
    const named = await store.collectionPage(shopId, { ids: [50, 15, 20], limit: 10 });
    expect(ids(named)).toEqual([20, 50]);
    expect(named.collections[1]!.products).toEqual([{ product_id: 1, position: 1 }]);
    expect((await store.collectionPage(otherShop, { ids: [15], limit: 1 })).collections[0]!.products).toHaveLength(4);
    expect(await store.collectionPage(shopId, { ids: [], limit: 1 })).toEqual({ collections: [], more: false });
  });
});
