import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { seedBilling } from '../../helpers/billing.js';
import { storedRows } from '../../helpers/stored-rows.js';
import { PLATFORM_ENV, PLATFORM_WEBHOOK_SECRET, deliver } from '../../helpers/fake-platform/connect.js';

/**
 * How far an erasure reaches beyond the customer's own rows (docs/operations.md, "Privacy"): a
 * session shared with another customer, what the customer wrote into their subscriptions, the
 * bodies of the orders a redact lists, an e-mail the request gives, and the carts they clicked into.
 */
describe.each(backends())('what an erasure reaches, on $name', (backend) => {
  let t: TestApp;
  let keys: { public: string; private: string };
  let shopId: number;
  beforeAll(async () => {
    t = await startApp(backend, PLATFORM_ENV);
    keys = await seedBilling(t, 'priv');
    await t.admin('PATCH', '/admin/v1/shops/priv', { webhook_secret: PLATFORM_WEBHOOK_SECRET });
    shopId = (await t.services.store.getShopByHandle('priv'))!.id;
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
  });

  const stored = <T>(read: Parameters<typeof storedRows<T>>[1]) => storedRows(t.config.databaseUrl, read);

  it("blanks what the customer wrote into subscriptions; a shared session's other customer keeps theirs", async () => {
    const put = async (path: string, body: unknown) =>
      expect((await t.admin('PUT', `/admin/v1/shops/priv/${path}`, body)).statusCode).toBe(200);
    await put('customers', [
      { id: 9800, email: 'zed@example.com' },
      { id: 9900, email: 'yan@example.com' },
    ]);
    await put('billing/customers', [
      { id: 102, email: 'zed@example.com', first_name: 'Zed', shop_customer_id: '9800' },
    ]);
    await put('billing/addresses', [
      { id: 502, customer_id: 102, address1: '9 Quiet Rd', city: 'Ogdenville', zip: '1', country_code: 'US' },
    ]);
    await put('billing/subscriptions', [
      {
        id: 1200,
        customer_id: 102,
        address_id: 502,
        shop_product_id: 1,
        shop_variant_id: 11,
        status: 'CANCELLED',
        price: 10,
        quantity: 1,
        product_title: 'Product 1',
        order_interval_frequency: '1',
        order_interval_unit: 'month',
        cancelled_at: '2026-10-01T10:00:00',
        cancellation_reason: 'other',
        cancellation_reason_comments: 'Zed moved to 44 Secret Lane',
        properties: [
          { name: 'gift_note', value: 'To Zed from Mom' },
          { name: '_rebound_source', value: 'widget:3' },
        ],
        updated_at: '2026-10-01T10:00:00',
      },
    ]);
    // One device, two accounts: Zed's view before signing in, Yan's signed in, and one of nobody's.
    const shared = 'e5e5e5e5-0000-4000-8000-0000000000e5';
    for (const who of ['&subject_email=zed%40example.com', '&shop_customer_id=9900', ''])
      await t.app.inject({
        method: 'POST',
        url:
          `/api/v1/analytics/event?key=${keys.public}&subject=user&verb=viewed&noun=product` +
          `&shop_product_handle=product-1&uuid=${shared}${who}`,
      });
    await deliver(t, 'priv', 'customers/data_request', {
      shop_id: 1,
      customer: { id: 9900, email: 'yan@example.com' },
      data_request: { id: 99 },
    });
    const exportOf = async (id: string) =>
      (await t.admin('GET', '/admin/v1/shops/priv/privacy/requests'))
        .json()
        .data.find((r: { id: string }) => r.id === id).export;
    // Yan's export holds their own view and the session's anonymous one, nothing naming Zed.
    expect((await exportOf('99')).events).toHaveLength(2);
    expect(JSON.stringify(await exportOf('99'))).not.toContain('zed@example.com');

    // An export made before sessions were told apart, holding Zed's event: it loses it at Zed's erasure.
    await t.services.store.putPrivacyRequest({
      shop_id: shopId,
      id: 'older-99',
      kind: 'data_request',
      customer_id: 9900,
      received_at: Date.now(),
      export: JSON.stringify({ events: [{ uuid: shared, subject_email: 'zed@example.com' }] }),
      expires_at: Date.now() + 86_400_000,
    });
    expect((await t.admin('DELETE', '/admin/v1/shops/priv/customers/9800')).statusCode).toBe(200);
    expect(await exportOf('older-99')).toEqual({ events: [] });
    const left = (await t.admin('GET', `/admin/v1/shops/priv/events?uuid=${shared}`)).json().data;
    expect(left.map((e: { customer_id: number | null }) => e.customer_id)).toEqual([9900]);
    const [row] = await stored((db) =>
      db
        .selectFrom('billing_subscriptions')
        .select('document')
        .where('shop_id', '=', shopId)
        .where('id', '=', 1200)
        .execute(),
    );
    expect(row!.document).not.toMatch(/Secret Lane|To Zed/);
    expect(JSON.parse(row!.document).properties).toEqual([
      { name: 'gift_note', value: '' },
      { name: '_rebound_source', value: 'widget:3' },
    ]);
  });

  it('erases by an e-mail the request gives, once the stored one is gone', async () => {
    const session = 'f6f6f6f6-0000-4000-8000-0000000000f6';
    // A visitor never imported as a customer (or deleted since): their view names them by e-mail alone.
    const view = await t.app.inject({
      method: 'POST',
      url:
        `/api/v1/analytics/event?key=${keys.public}&subject=user&verb=viewed&noun=product` +
        `&shop_product_handle=product-1&uuid=${session}&subject_email=gina%40example.com`,
    });
    expect(view.statusCode).toBe(200);
    const left = async () => (await t.admin('GET', `/admin/v1/shops/priv/events?uuid=${session}`)).json().data;
    expect(await left()).toHaveLength(1);
    expect((await t.admin('DELETE', '/admin/v1/shops/priv/customers/9750')).json().erased.events).toBe(0);
    expect(await left()).toHaveLength(1);
    const erased = await t.admin('DELETE', '/admin/v1/shops/priv/customers/9750?email=Gina%40Example.com');
    expect(erased.json().erased.events).toBe(1);
    expect(await left()).toEqual([]);
    expect((await t.admin('DELETE', '/admin/v1/shops/priv/customers/9750?email=not-an-email')).statusCode).toBe(400);
  });

  it("erases the anonymous clicks into the customer's cart from another device", async () => {
    const track = (query: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/analytics/track?key=${keys.public}&type=click&source=list:top_sellers&${query}`,
      });
    const cart = 'cart-of-hal-0001';
    const phone = 'a7a7a7a7-0000-4000-8000-0000000000a7';
    const laptop = 'b8b8b8b8-0000-4000-8000-0000000000b8';
    expect((await track(`product_id=1&uuid=${phone}&shop_customer_id=9850&cart_token=${cart}`)).statusCode).toBe(200);
    expect((await track(`product_id=1&uuid=${laptop}&cart_token=${cart}`)).statusCode).toBe(200);
    // A click counts once a visitor and product: another product, in another cart.
    expect((await track(`product_id=2&uuid=${laptop}&cart_token=cart-of-someone-else`)).statusCode).toBe(200);
    const tokens = async () =>
      (
        await stored((db) => db.selectFrom('track_events').select('cart_token').where('shop_id', '=', shopId).execute())
      ).map((r) => r.cart_token);
    expect((await tokens()).filter((c) => c === cart)).toHaveLength(2);
    expect((await t.admin('DELETE', '/admin/v1/shops/priv/customers/9850')).json().erased.track_events).toBe(2);
    expect(await tokens()).not.toContain(cart);
    expect(await tokens()).toContain('cart-of-someone-else');
  });

  it('erases the anonymous history of a device known only by a click into their cart', async () => {
    const beacon = (kind: 'track' | 'event', query: string) =>
      t.app.inject({
        method: 'POST',
        url:
          kind === 'track'
            ? `/api/v1/analytics/track?key=${keys.public}&type=click&source=list:top_sellers&${query}`
            : `/api/v1/analytics/event?key=${keys.public}&subject=user&verb=viewed&noun=product&${query}`,
      });
    const cart = 'cart-of-ida-0001';
    const phone = 'c9c9c9c9-0000-4000-8000-0000000000c9';
    const tablet = 'd1d1d1d1-0000-4000-8000-0000000000d1';
    const shared = 'e2e2e2e2-0000-4000-8000-0000000000e2';
    await beacon('track', `product_id=1&uuid=${phone}&shop_customer_id=9860&cart_token=${cart}`);
    // Her tablet, never signed in: it clicked into her cart and browsed.
    await beacon('track', `product_id=1&uuid=${tablet}&cart_token=${cart}`);
    await beacon('event', `shop_product_handle=product-1&uuid=${tablet}`);
    // A family laptop that clicked into her cart and into another: only the click into hers is hers.
    await beacon('track', `product_id=1&uuid=${shared}&cart_token=${cart}`);
    await beacon('track', `product_id=2&uuid=${shared}&cart_token=cart-of-another`);
    await beacon('event', `shop_product_handle=product-1&uuid=${shared}`);
    // A device where someone gave another e-mail: hers only by the click into the cart.
    const bea = 'f3f3f3f3-0000-4000-8000-0000000000f3';
    await beacon('track', `product_id=1&uuid=${bea}&cart_token=${cart}`);
    await beacon('event', `shop_product_handle=product-1&uuid=${bea}&subject_email=bea%40example.com`);
    const views = async (uuid: string) =>
      (await t.admin('GET', `/admin/v1/shops/priv/events?uuid=${uuid}`)).json().data.length;
    expect([await views(tablet), await views(shared)]).toEqual([1, 1]);
    const exported = (await t.admin('POST', '/admin/v1/shops/priv/customers/9860/export')).json().request.export;
    expect(exported.events.map((e: { uuid: string }) => e.uuid)).toEqual([tablet]);
    expect((await t.admin('DELETE', '/admin/v1/shops/priv/customers/9860')).statusCode).toBe(200);
    expect([await views(tablet), await views(shared), await views(bea)]).toEqual([0, 1, 1]);
  });
});
