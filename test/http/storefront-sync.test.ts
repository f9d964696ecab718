import { createHmac } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../helpers/backends.js';
import { startApp, type TestApp } from '../helpers/app.js';
import { productInput } from '../helpers/fixtures.js';

const SECRET = 'storefront-webhook-secret-0123456789';

describe.each(backends())('storefront webhooks on $name', (backend) => {
  let t: TestApp;
  let key: string;
  let n = 0;
  /** What the services logged, one parsed line each. */
  const logged: { msg: string; [field: string]: unknown }[] = [];
  beforeAll(async () => {
    const lines = { write: (line: string) => void logged.push(JSON.parse(line)) };
    t = await startApp(backend, {}, { log: pino({ level: 'warn' }, lines) });
    key = (await t.createShop('sync')).public;
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const send = (topic: string, body: unknown, options: { id?: string; secret?: string } = {}) => {
    const raw = JSON.stringify(body);
    return t.app.inject({
      method: 'POST',
      url: '/webhooks/shop/sync',
      payload: raw,
      headers: {
        'content-type': 'application/json',
        'x-shop-topic': topic,
        'x-shop-webhook-id': options.id ?? `w${++n}`,
        'x-shop-hmac-sha256': createHmac('sha256', options.secret ?? SECRET)
          .update(raw)
          .digest('base64'),
      },
    });
  };
  const deliver = async (topic: string, body: unknown, options: { id?: string } = {}) => {
    const res = await send(topic, body, options);
    await t.services.storefrontSync.applyPending();
    return res;
  };
  const product = async (id: number) =>
    (await t.app.inject(`/api/v1/products/static?key=${key}&ids=${id}&filter_oos=no`)).json().data[0];

  it('refuses webhooks until a secret is set, and bad signatures always', async () => {
    expect((await send('products/create', productInput(1))).statusCode).toBe(401);
    await t.admin('PATCH', '/admin/v1/shops/sync', { webhook_secret: SECRET });
    const forged = await send('products/create', productInput(1), { secret: 'another-secret-0123456789' });
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ error: 'Invalid webhook signature.', code: 'webhook_signature' });
    await t.services.storefrontSync.applyPending();
    expect(await product(1)).toBeUndefined();
  });

  it('queues, answers at once, applies products once per webhook id, never older over newer', async () => {
    const res = await deliver('products/create', productInput(1, { updated_at: '2026-11-01T00:00:00Z' }), { id: 'p1' });
    expect(res.json()).toEqual({ data: 'queued' });
    expect((await product(1)).title).toBe('Product 1');
    expect(
      (
        await deliver('products/update', productInput(1, { title: 'Again', updated_at: '2026-11-05T00:00:00Z' }), {
          id: 'p1',
        })
      ).json(),
    ).toEqual({
      data: 'duplicate',
    });
    expect((await product(1)).title).toBe('Product 1');
    await deliver('products/update', productInput(1, { title: 'Stale', updated_at: '2026-10-01T00:00:00Z' }));
    expect((await product(1)).title).toBe('Product 1');
    await deliver('products/update', productInput(1, { title: 'Newer', updated_at: '2026-11-06T00:00:00Z' }));
    expect((await product(1)).title).toBe('Newer');
  });

  it('applies inventory levels, collections and orders, and deletions', async () => {
    await deliver('products/create', productInput(2));
    await deliver('inventory_levels/update', { inventory_item_id: 21, available: 0 });
    await deliver('inventory_levels/update', { variant_id: 22, inventory_quantity: 0 });
    expect(await t.app.inject(`/api/v1/products/static?key=${key}&ids=2`).then((r) => r.json().data)).toEqual([]);
    await deliver('inventory_levels/update', { variant_id: 21, inventory_quantity: 9 });
    expect((await product(2)).variants[0].inventory_quantity).toBe(9);

    await deliver('collections/create', {
      id: 50,
      title: 'Camp',
      handle: 'camp',
      products: [
        { product_id: 2, position: 1 },
        { product_id: 1, position: 2 },
      ],
    });
    await deliver('collections/update', { id: 50, title: 'Camping', handle: 'camp' });
    const collections = (await t.admin('GET', '/admin/v1/shops/sync/collections')).json().data;
    expect(collections[0]).toMatchObject({
      id: 50,
      title: 'Camping',
      products: [
        { product_id: 2, position: 1 },
        { product_id: 1, position: 2 },
      ],
    });

    const order = { id: 900, created_at: new Date().toISOString(), line_items: [{ product_id: 2, quantity: 5 }] };
    await deliver('orders/create', order);
    const trending = () =>
      t.app
        .inject(`/api/v1/products/trending_products?key=${key}`)
        .then((r) => r.json().data.map((p: { id: number }) => p.id));
    expect(await trending()).toEqual([2]);
    await deliver('orders/cancelled', { ...order, cancelled_at: new Date().toISOString() });
    expect(await trending()).toEqual([]);

    await deliver('collections/delete', { id: 50 });
    expect((await t.admin('GET', '/admin/v1/shops/sync/collections')).json().data).toEqual([]);
    await deliver('products/delete', { id: 2 });
    expect(await product(2)).toBeUndefined();
  });

  it('logs a payload it refuses, with the reason, and keeps the product as it was', async () => {
    // Product 1 has variants 11 and 12; product 9 may not take one of them.
    const taking = productInput(9, { variants: [{ id: 11, price: '1.00' }] });
    expect((await deliver('products/create', taking, { id: 'refused-1' })).json()).toEqual({ data: 'queued' });
    expect(await product(9)).toBeUndefined();
    const refused = logged.filter((line) => line.msg === 'storefront webhook refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ topic: 'products/create', webhook: 'refused-1' });
    expect(refused[0]!.reason).toContain('variant 11 is already a variant of product 1');
  });

  it('refuses a collection update without an id, naming it, as a payload and not a failure of ours', async () => {
    expect((await deliver('collections/update', { title: 'No id' }, { id: 'no-id-1' })).json()).toEqual({
      data: 'queued',
    });
    const refused = logged.filter((line) => line.webhook === 'no-id-1');
    expect(refused.map((line) => line.msg)).toEqual(['storefront webhook refused']);
    expect(refused[0]!.reason).toContain('id');
  });

  it('applies a product whose text holds U+0000, without the character, on either database', async () => {
    const nul = '\u0000';
    await deliver('products/update', {
      ...productInput(5, { title: `Mug${nul} large`, updated_at: '2026-11-07T00:00:00Z' }),
      body_html: `<p>Stone${nul}ware</p>`,
      tags: `gift${nul}, mug`,
    });
    const stored = await product(5);
    expect(stored.title).toBe('Mug large');
    expect(stored.body_html).toBe('<p>Stoneware</p>');
    expect(stored.tags).toBe('gift, mug');
    await deliver('collections/create', { id: 51, title: `Mugs${nul}`, handle: 'mugs', products: [{ product_id: 5 }] });
    const collections = (await t.admin('GET', '/admin/v1/shops/sync/collections')).json().data;
    expect(collections.find((c: { id: number }) => c.id === 51)).toMatchObject({ title: 'Mugs' });
    expect(logged.filter((l) => l.msg === 'storefront webhook failed')).toEqual([]);
  });

  it('refuses unknown topics, missing ids and bodies that are not objects', async () => {
    expect((await send('carts/create', {})).statusCode).toBe(400);
    expect((await send('products/create', productInput(3), { id: '' })).statusCode).toBe(400);
    expect((await send('products/create', [1, 2])).statusCode).toBe(400);
  });

  it('answers a shop that does not exist, or has no secret, as it answers a wrong signature', async () => {
    const signed = (handle: string) =>
      t.app.inject({
        method: 'POST',
        url: `/webhooks/shop/${handle}`,
        payload: '{}',
        headers: {
          'content-type': 'application/json',
          'x-shop-topic': 'products/create',
          'x-shop-webhook-id': `u${++n}`,
          'x-shop-hmac-sha256': createHmac('sha256', 'a-guessed-secret-0123').update('{}').digest('base64'),
        },
      });
    await t.createShop('sync-unset');
    const answers = await Promise.all(['sync', 'nope', 'sync-unset'].map(signed));
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({ error: 'Invalid webhook signature.', code: 'webhook_signature' });
    }
  });
});
