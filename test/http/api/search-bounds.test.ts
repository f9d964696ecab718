import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { product, productInput } from '../../helpers/fixtures.js';

/**
 * What the search index reads of each product is bounded field by field (src/indexes/search-index.ts),
 * whatever was stored before the import's own bounds: a vendor of 600,000 words cost every rebuild of
 * the index 5 s of the thread all shops share.
 */
describe.each(backends())('the text search indexes of a product, on $name', (backend) => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startApp(backend);
    const shop = await t.createShop('search-bounds');
    key = shop.public;
    // Written to the store as an older version took them: past the bounds imports have now.
    const variant = productInput(1).variants[0]!;
    await t.services.store.upsertProducts(shop.id, [
      product(1, { vendor: `Xylophone ${'filler '.repeat(100)}Quokka` }),
      product(2, {
        variants: Array.from({ length: 300 }, (_, i) => ({
          ...variant,
          id: 1000 + i,
          sku: i === 0 ? 'FIRSTSKU' : i === 299 ? 'FINALSKU' : `MID${i}NUMBER`,
        })),
      }),
    ]);
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
  });

  const found = async (query: string) =>
    (await t.app.inject(`/api/v1/products/search?key=${key}&query=${query}&bust_cache=yes`))
      .json()
      .data.map((p: { id: number }) => p.id);

  it("reads a vendor's first 255 characters and a product's SKUs as far as 2,000", async () => {
    expect(await found('xylophone')).toEqual([1]);
    expect(await found('quokka')).toEqual([]);
    expect(await found('FIRSTSKU')).toEqual([2]);
    expect(await found('FINALSKU')).toEqual([]);
  });
});
