import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { PAGE_BYTES_HERE, ProductPages } from '../../src/indexes/product-pages.js';
import type { ServedProduct } from '../../src/store/kysely/product-serving.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { backends } from '../helpers/backends.js';
import { newShop, product, shopKeys } from '../helpers/fixtures.js';

/** 250 tags of 110 characters: the platform's bound of tags, each well within its length. */
const longTags = (id: number) => Array.from({ length: 250 }, (_, t) => `${id}-${t}-`.padEnd(110, 'x'));
const rowBytes = (row: ServedProduct) => (row.body?.length ?? 0) + (row.fields?.length ?? 0);

describe.each(backends())('ProductPages on $name', (backend) => {
  let store: Store;
  let shopId: number;
  /** Every stored row's bytes, by product id. */
  let bytesOf: Map<number, number>;

  beforeEach(async () => {
    store = await openStore(await backend.url());
    shopId = (
      await store.createShop(
        newShop('tagged'),
        shopKeys().map((k) => k.record),
      )
    ).id;
    const products = Array.from({ length: 60 }, (_, i) => product(i + 1, { tags: longTags(i + 1).join(', ') }));
    await store.upsertProducts(shopId, products);
    bytesOf = new Map((await store.listServedProducts(shopId, {})).map((row) => [row.id, rowBytes(row)]));
    return async () => store.close();
  });
  afterAll(() => backend.cleanup());

  /** The store, each page it is asked for recorded. */
  function recording() {
    const asked: { afterId?: number; ids?: number[] }[] = [];
    const recorded: Store = Object.create(store);
    recorded.listServedProducts = (id, options) => {
      asked.push(options);
      return store.listServedProducts(id, options);
    };
    return { recorded, asked };
  }

  /** The bytes of the products in each page: from each page's first product to the next page's. */
  function pageBytes(starts: number[]): number[] {
    const bounds = [...starts, Infinity];
    return starts.map((start, k) =>
      [...bytesOf].filter(([id]) => id >= start && id < bounds[k + 1]!).reduce((n, [, b]) => n + b, 0),
    );
  }

  it('cuts a page of products at the tag bounds at its bytes, and reads every product once', async () => {
    const { recorded, asked } = recording();
    const read = await new ProductPages(recorded).read(shopId, false);
    expect([...read.products.keys()].sort((a, b) => a - b)).toEqual([...bytesOf.keys()]);
    expect(read.products.get(7)!.tags).toEqual(longTags(7));
    // 60 products of about 28 KB each: 1.7 MB, read in pages of at most PAGE_BYTES_HERE and one product.
    expect(asked.length).toBeGreaterThanOrEqual(4);
    const largest = Math.max(...bytesOf.values());
    const starts = asked.map((page) => page.afterId! + 1);
    for (const bytes of pageBytes(starts)) expect(bytes).toBeLessThan(PAGE_BYTES_HERE + largest);
  });

  it("cuts a resident shop's patch at its bytes, and reads every product asked for once", async () => {
    const { recorded, asked } = recording();
    const ids = [...bytesOf.keys()].reverse();
    const read = await new ProductPages(recorded).byId(shopId, ids);
    expect(read.map((p) => p.id).sort((a, b) => a - b)).toEqual([...bytesOf.keys()]);
    expect(asked.length).toBeGreaterThanOrEqual(4);
    const largest = Math.max(...bytesOf.values());
    for (const bytes of pageBytes(asked.map((page) => page.ids![0]!))) {
      expect(bytes).toBeLessThan(PAGE_BYTES_HERE + largest);
    }
  });
});
