import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const HOUR = 3_600_000;
const SECRET = 'attribution-webhook-secret';

/** Hand-made orders through every attribution path: property, click window, refunds, cancellations, webhooks. */
describe.each(backends())('order attribution on $name', (backend) => {
  let t: TestApp;
  let key: string;
  const now = Date.now();
  const at = (offsetHours: number) => new Date(now + offsetHours * HOUR).toISOString();
  let r1: string;
  let r2: string;

  const track = async (events: Record<string, unknown>[]) => {
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/analytics/track?key=${key}`, payload: { events } });
    expect(res.statusCode, res.body).toBe(200);
  };
  const orders = async (list: unknown[]) => {
    const res = await t.admin('PUT', '/admin/v1/shops/attr/orders', list);
    expect(res.statusCode, res.body).toBe(200);
  };
  const summary = async () => {
    const res = await t.admin('GET', '/admin/v1/shops/attr/attribution?days=7');
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      totals: { orders: number; revenue: number };
      rulesets: { ruleset_id: number; name: string; orders: number; revenue: number; clicks: number }[];
      lists: { list: string; orders: number; revenue: number }[];
    };
  };
  const ruleset = async (id: number) =>
    (await summary()).rulesets.find((r) => r.ruleset_id === id) ?? { orders: 0, revenue: 0, clicks: 0 };
  const line = (product: number, price: string, quantity = 1, extra: Record<string, unknown> = {}) => ({
    product_id: product,
    quantity,
    price,
    ...extra,
  });
  const tagged = (source: string) => ({
    properties: [
      { name: 'gift', value: 'no' },
      { name: '_rebound_source', value: source },
    ],
  });

  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('attr', { currency: 'EUR' })).public;
    await t.admin(
      'PUT',
      '/admin/v1/shops/attr/products',
      [1, 2, 3, 4, 5].map((id) => productInput(id)),
    );
    for (const name of ['Upsell', 'Cross-sell']) {
      await t.admin('POST', '/admin/v1/shops/attr/rulesets', {
        name,
        rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 1 }, { product_id: 2 }] }] }],
      });
    }
    r1 = (await t.app.inject(`/api/v1/custom/id/1?key=${key}`)).json().metadata.source;
    r2 = (await t.app.inject(`/api/v1/custom/id/2?key=${key}`)).json().metadata.source;
    await track([
      { type: 'click', shop_customer_id: 100, source: r1, product_id: 2, at: at(-2) },
      { type: 'click', shop_customer_id: 100, source: 'list:trending_products', product_id: 2, at: at(-1) },
      { type: 'click', shop_customer_id: 101, source: r1, product_id: 3, at: at(-30) },
      { type: 'click', shop_customer_id: 102, source: r1, product_id: 4, at: at(1) },
      { type: 'impression', uuid: '3f1c2a9e-8b7d-4c1e-9f00-2b6d4e8a1c3b', source: r1, product_id: 1 },
    ]);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it('serves each ruleset with its own source', () => {
    expect(r1).toBe('ruleset:1:v1');
    expect(r2).toBe('ruleset:2:v1');
  });

  it(
    'gives a line to its _rebound_source property, over any click, ' +
      'and to the latest click in the window otherwise',
    async () => {
      await orders([
        { id: 1, created_at: at(0), customer: { id: 100 }, line_items: [line(2, '10.00')] },
        { id: 2, created_at: at(0), line_items: [line(1, '5.00', 2, tagged(r1)), line(5, '99.00')] },
        { id: 3, created_at: at(0), customer: { id: 100 }, line_items: [line(2, '7.00', 1, tagged(r2))] },
        { id: 4, created_at: at(0), customer: { id: 101 }, line_items: [line(3, '50.00')] },
        { id: 5, created_at: at(0), customer: { id: 102 }, line_items: [line(4, '60.00')] },
      ]);
      const s = await summary();
      expect(s.lists).toEqual([expect.objectContaining({ list: 'trending_products', orders: 1, revenue: 10 })]);
      expect(await ruleset(1)).toMatchObject({ name: 'Upsell', orders: 1, revenue: 10, clicks: 3 });
      expect(await ruleset(2)).toMatchObject({ name: 'Cross-sell', orders: 1, revenue: 7 });
      expect(s.totals).toMatchObject({ orders: 3, revenue: 27 });
      // The customer's export says what each of their lines was credited to.
      const exported = (await t.admin('POST', '/admin/v1/shops/attr/customers/100/export')).json().request.export;
      const credited = exported.orders.map((o: { id: number; attributions: { via: string }[] }) => [
        Number(o.id),
        o.attributions.map((a) => a.via),
      ]);
      expect(credited).toEqual([
        [1, ['click']],
        [3, ['property']],
      ]);
    },
  );

  it('counts sources naming no ruleset of the shop in other, adding no row', async () => {
    const before = await summary();
    await track([
      { type: 'click', uuid: 'forger', source: 'ruleset:999999:v1:arm:x', product_id: 5 },
      { type: 'click', uuid: 'forger', source: 'ruleset:424242:v1', product_id: 5 },
    ]);
    const after = await t.admin('GET', '/admin/v1/shops/attr/attribution?days=7');
    expect(after.json().rulesets.map((r: { ruleset_id: number }) => r.ruleset_id)).toEqual(
      before.rulesets.map((r) => r.ruleset_id),
    );
    expect(after.json().other.clicks).toBe((before as unknown as { other: { clicks: number } }).other.clicks + 2);
  });

  it('takes refunded quantities back when the order comes again', async () => {
    await orders([
      {
        id: 6,
        created_at: at(0),
        customer: { id: 103 },
        line_items: [line(1, '4.00', 3, { id: 555, ...tagged(r1) }), line(2, '1.00', 1, { id: 556, ...tagged(r1) })],
      },
    ]);
    expect(await ruleset(1)).toMatchObject({ orders: 2, revenue: 23 });
    await orders([
      {
        id: 6,
        created_at: at(0),
        customer: { id: 103 },
        line_items: [line(1, '4.00', 3, { id: 555, ...tagged(r1) }), line(2, '1.00', 1, { id: 556, ...tagged(r1) })],
        refunds: [
          { refund_line_items: [{ line_item_id: 555, quantity: 1 }] },
          { refund_line_items: [{ line_item_id: 556, quantity: 1 }] },
        ],
      },
    ]);
    expect(await ruleset(1)).toMatchObject({ orders: 2, revenue: 18 });
    // Refunded whole: the order no longer counts.
    await orders([
      {
        id: 6,
        created_at: at(0),
        customer: { id: 103 },
        line_items: [line(1, '4.00', 3, { id: 555, ...tagged(r1) })],
        refunds: [{ refund_line_items: [{ line_item_id: 555, quantity: 3 }] }],
      },
    ]);
    expect(await ruleset(1)).toMatchObject({ orders: 1, revenue: 10 });
  });

  it('takes a cancelled order back, and re-importing the same order changes nothing', async () => {
    const order = { id: 7, created_at: at(0), line_items: [line(3, '20.00', 1, tagged(r2))] };
    await orders([order]);
    await orders([order]);
    expect(await ruleset(2)).toMatchObject({ orders: 2, revenue: 27 });
    await orders([{ ...order, cancelled_at: at(0.5) }]);
    expect(await ruleset(2)).toMatchObject({ orders: 1, revenue: 7 });
  });

  it('widens the click window with the shop setting', async () => {
    const res = await t.admin('PATCH', '/admin/v1/shops/attr', { settings: { attribution_window_hours: 48 } });
    expect(res.statusCode, res.body).toBe(200);
    await orders([{ id: 4, created_at: at(0), customer: { id: 101 }, line_items: [line(3, '50.00')] }]);
    expect(await ruleset(1)).toMatchObject({ orders: 2, revenue: 60 });
    expect(
      (await t.admin('PATCH', '/admin/v1/shops/attr', { settings: { attribution_window_hours: 0 } })).statusCode,
    ).toBe(422);
  });

  it('attributes and labels the same when the shop is not in memory (a restart, another worker)', async () => {
    const evict = async () =>
      t.services.catalogIndex.evict((await t.admin('GET', '/admin/v1/shops/attr')).json().shop.id);
    const before = await ruleset(1);
    await evict();
    // The click 30 hours before is inside the shop's 48 hours, not the default 24.
    await orders([{ id: 40, created_at: at(0), customer: { id: 101 }, line_items: [line(3, '5.00')] }]);
    await evict();
    const figures = await summary();
    expect(figures.rulesets.find((r) => r.ruleset_id === 1)).toMatchObject({
      name: 'Upsell',
      orders: before.orders + 1,
      revenue: before.revenue + 5,
    });
    expect(figures).toMatchObject({ currency: 'EUR' });
  });

  it('attributes orders that arrive by webhook the same way', async () => {
    await t.admin('PATCH', '/admin/v1/shops/attr', { webhook_secret: SECRET });
    const raw = JSON.stringify({
      id: 8,
      created_at: at(0),
      updated_at: at(0),
      line_items: [
        { id: 801, product_id: 5, quantity: 1, price: '3.50', properties: [{ name: '_rebound_source', value: r2 }] },
      ],
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/webhooks/shop/attr',
      payload: raw,
      headers: {
        'content-type': 'application/json',
        'x-shop-topic': 'orders/create',
        'x-shop-webhook-id': 'order-8',
        'x-shop-hmac-sha256': createHmac('sha256', SECRET).update(raw).digest('base64'),
      },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
    await t.services.storefrontSync.applyPending();
    expect(await ruleset(2)).toMatchObject({ orders: 2, revenue: 10.5 });
  });

  it('refuses order lines whose properties are not name/value pairs, naming the field', async () => {
    const res = await t.admin('PUT', '/admin/v1/shops/attr/orders', [
      { id: 9, created_at: at(0), line_items: [{ product_id: 1, quantity: 1, properties: 'x' }] },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toContain('line_items[0].properties');
  });
});
