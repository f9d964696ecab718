import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const DAY = 86_400_000;
const now = Date.now();
const order = (id: number, daysAgo: number, customer: number, products: number[]) => ({
  id,
  created_at: new Date(now - daysAgo * DAY).toISOString(),
  customer: { id: customer },
  line_items: products.map((product_id) => ({ product_id, quantity: 1 })),
});
const products = Array.from({ length: 12 }, (_, i) => i + 1).map((id) =>
  productInput(id, id <= 2 ? { product_type: 'Lamps', tags: 'light' } : {}),
);

describe.each(backends())('model lists fresh after an import on $name', (backend) => {
  let t: TestApp;
  const ids = async (key: string, path: string, query: string) => {
    const res = await t.app.inject(`/api/v1/products/${path}?key=${key}&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.map((p: { id: number }) => p.id) as number[];
  };

  // The interval is the default (300 s): only the debounce can rebuild within the test.
  beforeAll(async () => {
    t = await startApp(backend, { REBOUND_MODEL_DEBOUNCE_S: '1' });
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it(
    'recommended answers raw co-occurrence at once, the model after ' +
      'the first build, and the rebuilt model after the next import',
    async () => {
      const shop = await t.createShop('fresh');
      await t.admin('PUT', '/admin/v1/shops/fresh/products', products);
      // 1 is in two large baskets with 2 and 4–12 (2 orders each) and in one pair with 3 (1 order): raw
      // counts rank 2 first; the model (a basket counts 1/√size) ranks 3 first. 9 is the best seller.
      const big = [1, 2, 4, 5, 6, 7, 8, 10, 11, 12];
      await t.admin('PUT', '/admin/v1/shops/fresh/orders', [
        order(1, 5, 100, big),
        order(2, 4, 101, big),
        order(3, 3, 102, [1, 3]),
        ...[4, 5, 6, 7].map((id) => order(id, 2, 103 + id, [9])),
      ]);
      expect(await ids(shop.public, 'recommended', 'shop_product_ids=1&limit=3')).toEqual([2, 4, 5]);
      // similar_products waits for the content neighbours built ahead
      // of the model: 2 is the other lamp, not the best seller.
      expect((await ids(shop.public, 'similar_products', 'shop_product_ids=1&limit=1'))[0]).toBe(2);
      await expect
        .poll(() => ids(shop.public, 'recommended', 'shop_product_ids=1&limit=2'), { timeout: 60_000, interval: 100 })
        .toEqual([3, 2]);
      expect(t.services.models.get(shop.id)).toBeDefined();

      // Three more pairs of 1 and 12: the model rebuilt after the burst, long before the interval, ranks 12 first.
      await t.admin('PUT', '/admin/v1/shops/fresh/orders', [order(8, 1, 120, [1, 12]), order(9, 1, 121, [1, 12])]);
      await t.admin('PUT', '/admin/v1/shops/fresh/orders', [order(10, 1, 122, [1, 12])]);
      await expect
        .poll(() => ids(shop.public, 'recommended', 'shop_product_ids=1&limit=1'), { timeout: 60_000, interval: 100 })
        .toEqual([12]);
      await t.services.models.settled(shop.id);
      const status = await t.admin('GET', '/admin/v1/shops/fresh/models/status');
      expect(status.json().data).toMatchObject({ orders: 10, rebuild_pending: false });
    },
  );

  it('builds the same lists from the same orders and events, whatever order they arrive in', async () => {
    // Forty seeded orders of 1–4 products from eight customers over sixty days, and views by four sessions.
    let state = 7;
    const next = (n: number) => {
      state = (state * 48_271) % 2_147_483_647;
      return state % n;
    };
    const orders = Array.from({ length: 40 }, (_, i) =>
      order(i + 1, 60 - i, 200 + next(8), [...new Set(Array.from({ length: 1 + next(4) }, () => 1 + next(12)))]),
    );
    const views = Array.from(
      { length: 30 },
      () => [`5${next(4)}5${next(4)}5555-5555-4555-8555-555555555555`, 1 + next(12)] as const,
    );
    const shops = [];
    for (const [handle, arrival] of [
      ['same-a', orders],
      ['same-b', [...orders].reverse()],
    ] as const) {
      const shop = await t.createShop(handle);
      await t.admin(
        'PUT',
        `/admin/v1/shops/${handle}/products`,
        handle === 'same-a' ? products : [...products].reverse(),
      );
      for (let i = 0; i < arrival.length; i += 7)
        await t.admin('PUT', `/admin/v1/shops/${handle}/orders`, arrival.slice(i, i + 7));
      for (const [uuid, product] of handle === 'same-a' ? views : [...views].reverse())
        await t.app.inject({
          method: 'POST',
          url:
            `/api/v1/analytics/event?key=${shop.public}&subject=user&verb=viewed` +
            `&noun=product&shop_product_handle=product-${product}&uuid=${uuid}`,
        });
      t.services.models.get(shop.id);
      await t.services.models.settled(shop.id);
      shops.push(shop);
    }
    const answers = async (key: string) => {
      const out: number[][] = [];
      for (let c = 200; c < 208; c++) {
        out.push(await ids(key, 'for_you', `shop_customer_id=${c}&limit=12`));
        out.push(await ids(key, 'for_you', `shop_customer_id=${c}&include_purchased=no&limit=12`));
      }
      for (let p = 1; p <= 12; p++)
        for (const list of ['recommended', 'viewed_together', 'similar_products'])
          out.push(await ids(key, list, `shop_product_ids=${p}&limit=12`));
      return out;
    };
    const [a, b] = [await answers(shops[0]!.public), await answers(shops[1]!.public)];
    expect(a.some((list) => list.length > 1)).toBe(true);
    expect(b).toEqual(a);
  });
});
