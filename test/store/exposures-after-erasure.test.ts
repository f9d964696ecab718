import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/store/connect.js';
import { backends } from '../helpers/backends.js';
import { newShop, shopKeys } from '../helpers/fixtures.js';

/**
 * A node that hears of an erasure only by polling (no Redis) writes what it buffered before it after
 * it: those rows of the shop are dropped (docs/operations.md, "Privacy").
 */
describe.each(backends())('experiment visitors written after an erasure on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('keeps no row made before the shop’s latest erasure, and those made after it', async () => {
    const url = await backend.url();
    const store = await backend.open();
    try {
      const shopId = (
        await store.createShop(
          newShop('exposed'),
          shopKeys().map((k) => k.record),
        )
      ).id;
      const other = (
        await store.createShop(
          newShop('other'),
          shopKeys().map((k) => k.record),
        )
      ).id;
      await store.upsertCustomers(shopId, [{ id: 9, email: 'nine@example.com', tags: [] }]);
      const before = Date.now() - 1000;
      await store.eraseCustomer(shopId, 9);
      const after = Date.now() + 1000;
      const row = (shop: number, visitor: string, created_at: number) => ({
        shop_id: shop,
        experiment_id: 1,
        arm: 0,
        visitor,
        created_at,
      });
      await store.recordExposures([
        row(shopId, 'c:9', before),
        row(shopId, 'u:buffered-before', before),
        row(shopId, 'u:seen-after', after),
        row(other, 'u:another-shop', before),
      ]);
      const { db } = connect(url);
      try {
        const kept = await db.selectFrom('experiment_visitors').select(['shop_id', 'visitor']).execute();
        expect(kept.map((r) => `${Number(r.shop_id) === shopId ? 'exposed' : 'other'} ${r.visitor}`).sort()).toEqual([
          'exposed u:seen-after',
          'other u:another-shop',
        ]);
        const days = await db.selectFrom('experiment_days').select(['shop_id', 'visitors']).execute();
        expect(days.reduce((n, r) => n + Number(r.visitors), 0)).toBe(2);
      } finally {
        await db.destroy();
      }
    } finally {
      await store.close();
    }
  });
});
