import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { productInput } from '../../helpers/fixtures.js';

const HOUR = 3_600_000;

/** An anonymous visitor's clicks, kept with their cart token, attribute the order of the same cart. */
describe.each(backends())('cart-token attribution on $name', (backend) => {
  let t: TestApp;
  let key: string;
  let source: string;
  const now = Date.now();
  const at = (offsetHours: number) => new Date(now + offsetHours * HOUR).toISOString();
  const uuid = '5e2d7c1a-0b9f-4e3d-8a6c-1f2e3d4c5b6a';

  const orders = async (list: unknown[]) => {
    const res = await t.admin('PUT', '/admin/v1/shops/cart/orders', list);
    expect(res.statusCode, res.body).toBe(200);
  };
  const summary = async () => {
    const res = await t.admin('GET', '/admin/v1/shops/cart/attribution?days=7');
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      totals: { orders: number; revenue: number };
      rulesets: { ruleset_id: number; orders: number; revenue: number }[];
      widgets: { widget_id: number; orders: number; revenue: number }[];
    };
  };
  const order = (id: number, product: number, price: string, extra: Record<string, unknown>) => ({
    id,
    created_at: at(0),
    line_items: [{ product_id: product, quantity: 1, price }],
    ...extra,
  });

  beforeAll(async () => {
    t = await startApp(backend);
    key = (await t.createShop('cart', { currency: 'EUR' })).public;
    await t.admin(
      'PUT',
      '/admin/v1/shops/cart/products',
      [1, 2, 3, 4].map((id) => productInput(id)),
    );
    await t.admin('POST', '/admin/v1/shops/cart/rulesets', {
      name: 'Upsell',
      rules: [{ logic: [], output: [{ type: 'product', products: [{ product_id: 1 }, { product_id: 2 }] }] }],
    });
    source = (await t.app.inject(`/api/v1/custom/id/1?key=${key}`)).json().metadata.source;
    // The platform widget's click, by an anonymous visitor in cart "tok-a".
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/api/v2/analytics/event/bulk',
      headers: { 'x-rebuy-user-token': key },
      payload: [
        {
          subject: 'user',
          verb: 'clicked-to-pdp-from',
          noun: 'widget',
          uuid,
          shopify_product_id: 3,
          widget_id: '55',
          cart_token: 'tok-a',
          event_time: now - HOUR,
        },
      ],
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    // The tracking endpoint's click, with the ruleset's source, in the same cart.
    const track = await t.app.inject({
      method: 'POST',
      url: `/api/v1/analytics/track?key=${key}`,
      payload: { events: [{ type: 'click', uuid, source, product_id: 2, cart_token: 'tok-a', at: at(-1) }] },
    });
    expect(track.statusCode, track.body).toBe(200);
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  it('gives an order without a customer to the clicks of its cart', async () => {
    const inCart = { cart_token: 'tok-a' };
    await orders([order(1, 2, '10.00', { ...inCart, customer: null }), order(2, 3, '4.00', inCart)]);
    const figures = await summary();
    expect(figures.rulesets.find((r) => r.ruleset_id === 1)).toMatchObject({ orders: 1, revenue: 10 });
    // The widget's own source is reported per widget, apart from the totals.
    expect(figures.widgets.find((w) => w.widget_id === 55)).toMatchObject({ orders: 1, revenue: 4 });
    expect(figures.totals).toMatchObject({ orders: 1, revenue: 10 });
  });

  it('gives nothing to an order of another cart, or of none', async () => {
    const other = order(3, 2, '20.00', { cart_token: 'tok-b' });
    await orders([other, order(4, 3, '30.00', {}), order(5, 2, '40.00', { cart_token: '' })]);
    const figures = await summary();
    expect(figures.totals).toMatchObject({ orders: 1, revenue: 10 });
    expect(figures.widgets.find((w) => w.widget_id === 55)).toMatchObject({ orders: 1, revenue: 4 });
  });

  it("gives a signed-in customer's order to its cart's clicks as to the customer's own", async () => {
    await orders([order(6, 2, '5.00', { customer: { id: 900 }, cart_token: 'tok-a' })]);
    expect((await summary()).rulesets.find((r) => r.ruleset_id === 1)).toMatchObject({ orders: 2, revenue: 15 });
  });

  it("matches a click sent with the cart cookie's whole value (token and key) to its cart's order", async () => {
    const track = await t.app.inject({
      method: 'POST',
      url: `/api/v1/analytics/track?key=${key}`,
      payload: { events: [{ type: 'click', uuid, source, product_id: 4, cart_token: 'tok-k?key=k9', at: at(-1) }] },
    });
    expect(track.statusCode, track.body).toBe(200);
    await orders([order(7, 4, '8.00', { cart_token: 'tok-k' })]);
    expect((await summary()).rulesets.find((r) => r.ruleset_id === 1)).toMatchObject({ orders: 3, revenue: 23 });
  });

  it('refuses a cart token longer than a cart token can be', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/analytics/track?key=${key}`,
      payload: { events: [{ type: 'click', uuid, source, product_id: 2, cart_token: 'x'.repeat(256) }] },
    });
    expect(res.statusCode).toBe(400);
  });
});
