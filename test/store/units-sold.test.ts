import { afterAll, describe, expect, it } from 'vitest';
import { rankTopSellers } from '../../src/domain/ranking/trending.js';
import { backends } from '../helpers/backends.js';
import { newShop, shopKeys } from '../helpers/fixtures.js';
import { DAY, NOW, someOrders } from '../helpers/sold-orders.js';

/** Units sold by product over a window, summed by the store: what the lines one by one add up to. */
describe.each(backends())('units sold between two times on $name', (backend) => {
  afterAll(() => backend.cleanup());

  it('are the units of the lines in the window, of orders not cancelled, positive quantities only', async () => {
    const store = await backend.open();
    try {
      const shopId = (
        await store.createShop(
          newShop('units'),
          shopKeys().map((k) => k.record),
        )
      ).id;
      const orders = someOrders(240);
      // A refund-like line of no units counts for nothing, as the ranking of lines skips it.
      orders[3]!.lines[0]!.quantity = 0;
      await store.upsertOrders(shopId, orders);
      const cancelled = orders.filter((o) => o.cancelled_at !== null).length;
      expect(cancelled).toBeGreaterThan(5);
      for (const [since, until] of [
        [NOW - 30 * DAY, NOW],
        [NOW - 90 * DAY, NOW - 20 * DAY],
        [0, NOW + DAY],
      ] as const) {
        const lines = await store.listOrderLines(shopId, since);
        const expected = rankTopSellers(
          lines.map((l) => ({ productId: l.product_id, quantity: l.quantity, at: l.created_at })),
          since,
          until,
        ).units;
        const summed = await store.unitsSoldBetween(shopId, since, until);
        expect(new Map(summed.map((r) => [r.productId, r.units]))).toEqual(expected);
        expect(summed.length).toBeGreaterThan(3);
      }
    } finally {
      await store.close();
    }
  });
});
