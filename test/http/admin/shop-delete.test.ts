import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.js';
import { compose } from '../../../src/compose.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';
import { storedRows } from '../../helpers/stored-rows.js';

const SESSION = 'c9c9c9c9-0000-4000-8000-0000000000c9';

/**
 * The operator deletes a shop that leaves the node (docs/api.md, "Admin API"): everything stored
 * for it goes, as the platform's shop/redact does, its keys stop at once, and no other shop is touched.
 */
describe.each(backends())('deleting a shop, on $name', (backend) => {
  let t: TestApp;
  const shops: Record<string, { id: number; public: string; private: string }> = {};
  beforeAll(async () => {
    t = await startApp(backend);
    for (const handle of ['leaving', 'staying']) {
      shops[handle] = await t.createShop(handle);
      const put = async (path: string, body: unknown) =>
        expect((await t.admin('PUT', `/admin/v1/shops/${handle}/${path}`, body)).statusCode).toBe(200);
      await put('products', [productInput(1), productInput(2)]);
      await put('customers', [{ id: 40, email: `${handle}@example.com`, tags: [] }]);
      await put('orders', [
        {
          id: 7,
          created_at: new Date().toISOString(),
          customer: { id: 40 },
          line_items: [{ id: 71, product_id: 1, variant_id: 11, quantity: 1, price: '3.00' }],
        },
      ]);
      const event = await t.app.inject({
        method: 'POST',
        url:
          `/api/v1/analytics/event?key=${shops[handle]!.public}&subject=user&verb=viewed&noun=product` +
          `&shop_product_handle=product-1&uuid=${SESSION}`,
      });
      expect(event.statusCode).toBe(200);
    }
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
  });

  const topSellers = (key: string) => t.app.inject(`/api/v1/products/top_sellers?key=${key}`);
  const rowsOf = (shopId: number) =>
    storedRows(t.config.databaseUrl, async (db) => {
      const count = async (table: 'products' | 'orders' | 'order_lines' | 'customers' | 'events' | 'api_keys') =>
        Number(
          (
            await db
              .selectFrom(table)
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('shop_id', '=', shopId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      const tables = ['products', 'orders', 'order_lines', 'customers', 'events', 'api_keys'] as const;
      return Object.fromEntries(await Promise.all(tables.map(async (table) => [table, await count(table)])));
    });

  it("refuses a shop's own key and another shop's, naming no shop", async () => {
    for (const key of [shops.leaving!.private, shops.staying!.private]) {
      const res = await t.admin('DELETE', '/admin/v1/shops/leaving', undefined, key);
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toMatch(/leaving|staying/);
    }
    expect((await t.admin('DELETE', '/admin/v1/shops/nowhere')).statusCode).toBe(404);
    expect((await topSellers(shops.leaving!.public)).statusCode).toBe(200);
  });

  it('deletes everything of the shop, ends its keys, and leaves the other shop as it was', async () => {
    const before = await rowsOf(shops.staying!.id);
    expect(Object.values(await rowsOf(shops.leaving!.id)).every((n) => Number(n) > 0)).toBe(true);
    // A second node on the same database, told by nothing but its poll of the keys' version.
    const other = await compose(
      loadConfig({ DATABASE_URL: t.config.databaseUrl, REBOUND_DEMO: 'false', LOG_LEVEL: 'silent' }),
    );
    let answer: unknown;
    try {
      expect(other.keys.lookup(shops.leaving!.public)).not.toBeNull();
      const res = await t.admin('DELETE', '/admin/v1/shops/leaving');
      expect(res.statusCode, res.body).toBe(200);
      answer = res.json();
      expect(await other.keys.refreshIfStale()).toBe(true);
      expect(other.keys.lookup(shops.leaving!.public)).toBeNull();
      expect(other.keys.lookup(shops.staying!.public)).not.toBeNull();
    } finally {
      await other.close();
    }
    expect(answer).toEqual({ deleted: 'leaving' });

    expect((await topSellers(shops.leaving!.public)).statusCode).toBe(401);
    expect((await t.admin('GET', '/admin/v1/shops/leaving')).statusCode).toBe(404);
    expect((await t.admin('GET', '/admin/v1/shops/leaving', undefined, shops.leaving!.private)).statusCode).toBe(401);
    expect(Object.values(await rowsOf(shops.leaving!.id))).toEqual([0, 0, 0, 0, 0, 0]);
    expect(await rowsOf(shops.staying!.id)).toEqual(before);
    expect((await topSellers(shops.staying!.public)).json().data.map((p: { id: number }) => p.id)).toContain(1);
    // The handle is free again.
    expect((await t.admin('POST', '/admin/v1/shops', { handle: 'leaving', name: 'Back' })).statusCode).toBe(201);
  });
});
