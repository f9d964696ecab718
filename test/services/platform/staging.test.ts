import { afterAll, describe, expect, it } from 'vitest';
import { assembled, stageExport } from '../../../src/services/platform/staging.js';
import { backends } from '../../helpers/backends.js';
import { turnsDuring } from '../../helpers/turns.js';
import { newShop, shopKeys } from '../../helpers/fixtures.js';

/** Lines of a bulk export as the platform writes them: a product, then its variants (each naming its parent). */
async function* exportOf(products: { id: number; variants: number; metafields?: number }[]): AsyncIterable<string> {
  for (const product of products) {
    const gid = `gid://shopify/Product/${product.id}`;
    yield JSON.stringify({ id: gid, title: `P${product.id}` });
    for (let v = 0; v < product.variants; v++) {
      const variant = `gid://shopify/ProductVariant/${product.id * 1000 + v}`;
      yield JSON.stringify({ id: variant, __parentId: gid });
      for (let m = 0; m < (product.metafields ?? 0); m++)
        yield JSON.stringify({ id: `gid://shopify/Metafield/${product.id * 1e6 + v * 100 + m}`, __parentId: variant });
    }
  }
}

/**
 * A staged export read back object by object (src/services/platform/staging.ts): what one page
 * holds in memory is bounded by its lines, and an object holding more lines than the import would
 * take is skipped unread.
 */
describe.each(backends())('a staged bulk export read back, on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('skips an object past its bound, counting its grandchildren, and splits pages by their lines', async () => {
    const store = await backend.open();
    try {
      const shop = await store.createShop(
        newShop('staging'),
        shopKeys().map((k) => k.record),
      );
      await stageExport(
        store,
        shop.id,
        exportOf([
          { id: 1, variants: 3 },
          // 4 variants of 3 metafields: 16 lines below it, past a bound of 10.
          { id: 2, variants: 4, metafields: 3 },
          { id: 3, variants: 6 },
          { id: 4, variants: 5 },
          { id: 5, variants: 1 },
        ]),
      );
      const skipped: [string, number][] = [];
      const pages: string[][] = [];
      const bounds = { objectLines: 10, pageLines: 10 };
      for await (const nodes of assembled(store, shop.id, 250, (gid, n) => skipped.push([gid, n]), bounds))
        pages.push(nodes.map((n) => `${String(n.title)}:${(n.variants as unknown[]).length}`));
      expect(skipped).toEqual([['gid://shopify/Product/2', 16]]);
      // 3 + 6 lines fit a page of 10; 5 more start the next, where 5 + 1 fit.
      expect(pages).toEqual([
        ['P1:3', 'P3:6'],
        ['P4:5', 'P5:1'],
      ]);
      await store.clearStaging(shop.id);
      const left = [];
      for await (const nodes of assembled(store, shop.id, 250)) left.push(nodes);
      expect(left).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('clears the staged lines in slices, a turn of the event loop between them', async () => {
    const store = await backend.open();
    try {
      const shop = await store.createShop(
        newShop('clearing'),
        shopKeys().map((k) => k.record),
      );
      await stageExport(store, shop.id, exportOf([{ id: 1, variants: 12_000 }]));
      const turns = await turnsDuring(() => store.clearStaging(shop.id));
      // Three slices of 5,000: two turns between them. In one statement, on SQLite, no turn at all.
      expect(turns).toBeGreaterThanOrEqual(2);
      const left = [];
      for await (const nodes of assembled(store, shop.id, 250)) left.push(nodes);
      expect(left).toEqual([]);
    } finally {
      await store.close();
    }
  });
});
