import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { TEST_SECRET_KEY } from '../../helpers/billing.js';
import {
  connectBody,
  deliver,
  PLATFORM_ENV,
  PLATFORM_WEBHOOK_SECRET,
  queueWebhook,
} from '../../helpers/fake-platform/connect.js';
import { productInput } from '../../helpers/fixtures.js';
import { FakePlatform } from '../../helpers/fake-platform/server.js';

describe.each(backends())('connecting the storefront platform on $name', (backend) => {
  let t: TestApp;
  let fake: FakePlatform;
  let keys: { private: string };
  beforeAll(async () => {
    fake = await new FakePlatform({ shape: { products: 20, collections: 4, customers: 10, orders: 40 } }).start();
    t = await startApp(backend, PLATFORM_ENV);
    keys = await t.createShop('acme');
    await t.createShop('other');
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
    await backend.cleanup();
  });

  const product = async (id: number) =>
    (await t.admin('GET', `/admin/v1/shops/acme/products?query=${id}`))
      .json()
      .data.find((p: { id: number }) => p.id === id);

  it('answers 404 before a connection, then connects with the token write-only and pulls everything', async () => {
    expect((await t.admin('GET', '/admin/v1/shops/acme/platform')).statusCode).toBe(404);
    const put = await t.admin('PUT', '/admin/v1/shops/acme/platform', connectBody(fake), keys.private);
    expect(put.statusCode, put.body).toBe(200);
    expect(put.body).not.toContain(fake.token);
    expect(put.json().platform).toMatchObject({
      shop_domain: 'acme.myshopify.com',
      api_version: '2025-10',
      api_url: fake.apiUrl,
      access_token_set: true,
      status: 'connected',
    });
    await t.services.platform.idle();
    const got = await t.admin('GET', '/admin/v1/shops/acme/platform');
    expect(got.body).not.toContain(fake.token);
    const platform = got.json().platform;
    expect(platform.sync).toMatchObject({
      id: 1,
      mode: 'full',
      phase: 'done',
      counts: { products: 20, collections: 4, customers: 10, orders: 40 },
      error: null,
    });
    expect(Object.keys(platform).sort()).toEqual(
      [
        'access_token_set',
        'api_url',
        'api_version',
        'last_reconciled_at',
        'shop_domain',
        'status',
        'sync',
        'webhooks',
      ].sort(),
    );
    expect(Object.keys(platform.sync).sort()).toEqual(
      ['counts', 'error', 'finished_at', 'id', 'mode', 'phase', 'started_at'].sort(),
    );
    expect(platform.webhooks).toContain('PRODUCTS_UPDATE');
    expect(platform.webhooks).toHaveLength(15);
    expect([...fake.webhooks.values()].every((w) => w.uri === 'https://rebound.example/webhooks/shop/acme')).toBe(true);
  });

  it('maps the GraphQL objects to the stored REST shapes', async () => {
    const p = await product(2);
    expect(p).toMatchObject({
      id: 2,
      title: 'Product 2',
      handle: 'product-2',
      vendor: 'Vendor 2',
      product_type: 'Type 2',
      status: 'active',
      admin_graphql_api_id: 'gid://shopify/Product/2',
    });
    expect(p.variants.map((v: { id: number; price: string }) => [v.id, v.price])).toEqual([
      [20, '12.00'],
      [21, '12.10'],
      [22, '12.20'],
    ]);
    expect(p.variants[0]).toMatchObject({
      inventory_policy: 'deny',
      inventory_item_id: 500_020,
      option1: 'S',
      compare_at_price: '22.00',
      admin_graphql_api_id: 'gid://shopify/ProductVariant/20',
    });
    expect(p.images.map((i: { id: number }) => i.id)).toEqual([20, 21]);
    expect(p.metafields.map((m: { key: string; value: string }) => [m.key, m.value])).toEqual([
      ['field_0', 'value 2.0'],
      ['field_1', 'value 2.1'],
    ]);
    const collections = (await t.admin('GET', '/admin/v1/shops/acme/collections')).json().data;
    expect(collections).toHaveLength(4);
    expect(
      collections.find((c: { id: number }) => c.id === 1).products.map((m: { product_id: number }) => m.product_id),
    ).toEqual([1, 5, 9, 13, 17]);
  });

  it('creates no duplicate subscription on a second sync, a full one when asked with no body', async () => {
    const res = await t.admin('POST', '/admin/v1/shops/acme/platform/sync');
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().sync).toMatchObject({ id: 2, mode: 'full', phase: 'queued' });
    await t.services.platform.idle();
    expect((await t.admin('GET', '/admin/v1/shops/acme/platform')).json().platform.sync).toMatchObject({
      id: 2,
      phase: 'done',
    });
    expect(fake.webhooks.size).toBe(15);
  });

  it('reconciles a change made without a webhook, and deletes only what the platform confirms is gone', async () => {
    fake.catalog.editProduct(3, { title: 'Renamed on the platform' });
    fake.catalog.deleteProduct(4);
    expect((await t.admin('POST', '/admin/v1/shops/acme/platform/sync', { mode: 'reconcile' })).statusCode).toBe(202);
    await t.services.platform.idle();
    const platform = (await t.admin('GET', '/admin/v1/shops/acme/platform')).json().platform;
    expect(platform.sync).toMatchObject({ mode: 'reconcile', phase: 'done' });
    expect(platform.last_reconciled_at).not.toBeNull();
    expect((await product(3)).title).toBe('Renamed on the platform');
    expect(await product(4)).toBeUndefined();
  });

  it("takes U+0000 out of the platform's text: stored and served without it on either database", async () => {
    const nul = '\u0000';
    fake.catalog.editProduct(5, {
      title: `Mug${nul} large`,
      descriptionHtml: `<p>Stone${nul}ware</p>`,
      vendor: `V${nul}`,
    });
    expect((await t.admin('POST', '/admin/v1/shops/acme/platform/sync', { mode: 'reconcile' })).statusCode).toBe(202);
    await t.services.platform.idle();
    expect((await t.admin('GET', '/admin/v1/shops/acme/platform')).json().platform.sync.phase).toBe('done');
    expect(await product(5)).toMatchObject({ title: 'Mug large', body_html: '<p>Stoneware</p>', vendor: 'V' });
  });

  it('reconciles every other object when one is refused or odd', async () => {
    // A refused row failed the whole reconciliation, so every later one failed the same way; a null
    // among a product's options did not map (an internal error), and a tag that is an object was kept as text.
    fake.catalog.editProduct(6, { title: '' });
    fake.catalog.editProduct(7, { title: 'Seven, renamed', tags: ['kept', { an: 'object' }, null], options: [null] });
    expect((await t.admin('POST', '/admin/v1/shops/acme/platform/sync', { mode: 'reconcile' })).statusCode).toBe(202);
    await t.services.platform.idle();
    expect((await t.admin('GET', '/admin/v1/shops/acme/platform')).json().platform.sync.phase).toBe('done');
    expect(await product(7)).toMatchObject({ title: 'Seven, renamed', tags: 'kept' });
    expect((await product(6)).title).toBe('Product 6');
  });

  it('refuses a product whose price cannot be read, and reads a stock level written as text', async () => {
    // An unreadable price was stored as 0.00 and shown to shoppers; "5" in stock was stored as 0.
    fake.catalog.editProduct(8, { title: 'Eight, repriced', variantPatch: { price: '1e400' } });
    fake.catalog.editProduct(9, { title: 'Nine, restocked', variantPatch: { inventoryQuantity: '5' } });
    expect((await t.admin('POST', '/admin/v1/shops/acme/platform/sync', { mode: 'reconcile' })).statusCode).toBe(202);
    await t.services.platform.idle();
    expect((await product(8)).title).toBe('Product 8');
    const nine = await product(9);
    expect(nine.title).toBe('Nine, restocked');
    expect(nine.variants.map((v: { inventory_quantity: number }) => v.inventory_quantity)).toEqual([5, 5, 5]);
  });

  it('applies a delete webhook only once the platform confirms the product is gone', async () => {
    expect((await deliver(t, 'acme', 'products/delete', { id: 5 })).statusCode).toBe(200);
    expect(await product(5)).toBeDefined();
    fake.catalog.deleteProduct(6);
    await deliver(t, 'acme', 'products/delete', { id: 6 });
    expect(await product(6)).toBeUndefined();
  });

  it('maps inventory_levels/update through the inventory item, and takes customers from their webhooks', async () => {
    await deliver(t, 'acme', 'inventory_levels/update', {
      inventory_item_id: 500_021,
      location_id: 1,
      available: 77,
      updated_at: new Date().toISOString(),
    });
    expect((await product(2)).variants.find((v: { id: number }) => v.id === 21).inventory_quantity).toBe(77);
    await deliver(t, 'acme', 'customers/create', {
      id: 900,
      email: 'new@example.com',
      tags: 'vip, early',
      updated_at: new Date().toISOString(),
    });
    const shopId = (await t.services.store.getShopByHandle('acme'))!.id;
    expect((await t.services.store.listCustomers(shopId)).find((c) => c.id === 900)).toMatchObject({
      email: 'new@example.com',
    });
  });

  it('takes attribution back when a refund arrives, reading the order again from the platform', async () => {
    const revenue = async () => {
      const body = (await t.admin('GET', '/admin/v1/shops/acme/attribution?days=365')).json();
      return (body.data ?? body).totals.revenue as number;
    };
    const before = await revenue();
    expect(before).toBeGreaterThan(0);
    // Order 11 carries _rebound_source on its lines; the platform refunds all of its first line.
    const { lineItems } = fake.catalog.order(11);
    fake.catalog.refund(11, 0, lineItems[0]!.quantity);
    const refunded = Number(lineItems[0]!.originalUnitPriceSet.shopMoney.amount) * lineItems[0]!.quantity;
    await deliver(t, 'acme', 'refunds/create', {
      id: 1,
      order_id: 11,
      refund_line_items: [{ line_item_id: 110, quantity: lineItems[0]!.quantity }],
    });
    expect(await revenue()).toBeCloseTo(before - refunded, 2);
  });

  it("applies another shop's webhooks while one shop's platform is slow to answer", async () => {
    // Applied one after another, every shop's webhooks waited on the slowest platform's answer.
    let open: () => void = () => undefined;
    fake.orderGate = new Promise<void>((resolve) => {
      open = resolve;
    });
    await t.admin('PATCH', '/admin/v1/shops/other', { webhook_secret: PLATFORM_WEBHOOK_SECRET });
    await queueWebhook(t, 'acme', 'refunds/create', { id: 2, order_id: 12, refund_line_items: [] });
    await queueWebhook(t, 'other', 'products/create', productInput(77));
    const applying = t.services.storefrontSync.applyPending();
    const otherId = (await t.services.store.getShopByHandle('other'))!.id;
    while ((await t.services.store.findExistingProductIds(otherId, [77])).size === 0)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fake.stats.operations.get('order(id')).toBeGreaterThan(0);
    open();
    fake.orderGate = null;
    await applying;
  });

  it('reconciles on schedule, and requeues a sync whose node stopped', async () => {
    const shopId = (await t.services.store.getShopByHandle('acme'))!.id;
    const before = (await t.services.store.getPlatformConnection(shopId))!;
    await t.services.platform.tick(before.last_reconciled_at! + 30 * 60_000);
    expect((await t.services.store.getPlatformConnection(shopId))!.sync!.id).toBe(before.sync!.id);
    await t.services.platform.tick(before.last_reconciled_at! + 61 * 60_000);
    await t.services.platform.idle();
    const after = (await t.services.store.getPlatformConnection(shopId))!;
    expect(after.sync).toMatchObject({ id: before.sync!.id + 1, mode: 'reconcile', phase: 'done' });
    // A sync left mid-way (its node stopped) is queued again once its row has not moved for 10 minutes.
    await t.services.store.updatePlatformConnection(shopId, {
      sync: { ...after.sync!, id: after.sync!.id + 1, mode: 'full', phase: 'importing', finished_at: null },
    });
    await t.services.platform.tick(Date.now() + 11 * 60_000);
    await t.services.platform.idle();
    expect((await t.services.store.getPlatformConnection(shopId))!.sync).toMatchObject({
      id: after.sync!.id + 2,
      mode: 'full',
      phase: 'done',
    });
  });

  it('binds the token to its origin and refuses private addresses without the development switch', async () => {
    const moved = await t.admin('PUT', '/admin/v1/shops/acme/platform', {
      ...connectBody(fake),
      access_token: undefined,
      api_url: 'http://127.0.0.2:9/admin/api/2025-10',
    });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().field).toBe('access_token');
    const bad = await t.admin('PUT', '/admin/v1/shops/acme/platform', {
      ...connectBody(fake),
      api_url: 'http://user:pw@127.0.0.1/admin',
    });
    expect(bad.json().field).toBe('api_url');
    // Without the development switch, and without api_url, the address is the store's domain: it is named.
    const strictBackend = backends()[0]!;
    const strict = await startApp(strictBackend, { REBOUND_SECRET_KEY: TEST_SECRET_KEY });
    try {
      await strict.createShop('strict');
      const connect = (extra: Record<string, string>) =>
        strict.admin('PUT', '/admin/v1/shops/strict/platform', {
          shop_domain: 'localhost',
          access_token: 'shpat_x',
          api_version: '2025-10',
          ...extra,
        });
      expect((await connect({})).json()).toMatchObject({ field: 'shop_domain' });
      // A token no HTTP header can carry.
      expect(
        (await connect({ shop_domain: 'acme.myshopify.com', access_token: 'shpat_\u{1F600}' })).json(),
      ).toMatchObject({
        field: 'access_token',
      });
      // A month the platform releases no version in.
      expect((await connect({ shop_domain: 'acme.myshopify.com', api_version: '2024-13' })).json()).toMatchObject({
        field: 'api_version',
        error: expect.stringContaining('01, 04, 07 or 10'),
      });
      expect((await connect({ api_url: 'https://localhost/admin/api/2025-10' })).json()).toMatchObject({
        field: 'api_url',
      });
    } finally {
      await strict.close();
      await strictBackend.cleanup();
    }
    expect((await t.admin('PUT', '/admin/v1/shops/acme/platform', { ...connectBody(fake), extra: 1 })).statusCode).toBe(
      422,
    );
    expect(
      (await t.admin('GET', '/admin/v1/shops/acme/platform', undefined, (await t.createShop('third')).private))
        .statusCode,
    ).toBe(404);
  });

  it('stops syncing when the app is uninstalled', async () => {
    await t.createShop('gone');
    await t.admin('PUT', '/admin/v1/shops/gone/platform', connectBody(fake));
    await t.services.platform.idle();
    await deliver(t, 'gone', 'app/uninstalled', { id: 1, name: 'Gone', domain: 'gone.myshopify.com' });
    expect((await t.admin('GET', '/admin/v1/shops/gone/platform')).json().platform).toMatchObject({
      status: 'disconnected',
      access_token_set: false,
    });
    expect((await t.admin('POST', '/admin/v1/shops/gone/platform/sync', {})).statusCode).toBe(409);
  });

  it("removes a connected shop's webhook subscriptions when the operator deletes the shop", async () => {
    await t.createShop('doomed');
    expect((await t.admin('PUT', '/admin/v1/shops/doomed/platform', connectBody(fake))).statusCode).toBe(200);
    await t.services.platform.idle();
    const toDoomed = () => [...fake.webhooks.values()].filter((w) => w.uri.endsWith('/webhooks/shop/doomed'));
    expect(toDoomed().length).toBeGreaterThan(0);
    expect((await t.admin('DELETE', '/admin/v1/shops/doomed')).json()).toEqual({ deleted: 'doomed' });
    expect(toDoomed()).toEqual([]);
  });

  it('disconnects: removes the subscriptions it made, keeps the data, refuses a sync', async () => {
    await t.services.platform.idle();
    const res = await t.admin('DELETE', '/admin/v1/shops/acme/platform');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().platform).toMatchObject({ status: 'disconnected', access_token_set: false, webhooks: [] });
    expect([...fake.webhooks.values()].filter((w) => w.uri.endsWith('/webhooks/shop/acme'))).toEqual([]);
    expect(await product(2)).toBeDefined();
    expect((await t.admin('POST', '/admin/v1/shops/acme/platform/sync', {})).statusCode).toBe(409);
  });
});
