import { afterAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { newShop, shopKeys } from '../helpers/fixtures.js';

describe.each(backends())('the staged children of a page of parents ($name)', (backend) => {
  afterAll(() => backend.cleanup());

  it('are read whole when they pass the engine’s bound on a call’s arguments', async () => {
    const store = await backend.open();
    try {
      const shop = await store.createShop(
        newShop('many-children'),
        shopKeys().map((k) => k.record),
      );
      // 250 products of 600 variants: within the platform's bounds, past what one spread call may pass.
      const parents = Array.from({ length: 250 }, (_, p) => `gid://shopify/Product/${p + 1}`);
      const children = parents.flatMap((parent, p) =>
        Array.from({ length: 600 }, (_, v) => ({
          gid: `gid://shopify/ProductVariant/${p * 600 + v + 1}`,
          parent,
          line: '{}',
        })),
      );
      for (let i = 0; i < children.length; i += 10_000)
        await store.stageLines(
          shop.id,
          children.slice(i, i + 10_000).map((child, j) => ({ seq: i + j + 1, ...child })),
        );
      const read = await store.stagedChildren(shop.id, parents);
      expect(read).toHaveLength(150_000);
      expect(read.at(-1)).toMatchObject({ seq: 150_000, parent: parents.at(-1) });
    } finally {
      await store.close();
    }
  }, 60_000);
});
