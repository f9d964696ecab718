import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';
import { storedRows } from '../../helpers/stored-rows.js';

const SESSION = '5e551011-0000-4000-8000-0000000000a1';
const EMAIL = 'Rita@Example.com';

/**
 * Beacons sent before an erasure and arriving after it, or waiting in a write buffer while it runs,
 * naming the customer only by the session they browsed in, the e-mail they signed up with, or their
 * cart: none may bring back what the erasure deleted (docs/operations.md, "Privacy").
 */
describe.each(backends())('beacons from before an erasure, on $name', (backend) => {
  let t: TestApp;
  let key = '';
  let shopId = 0;
  let erasedAt = 0;
  beforeAll(async () => {
    t = await startApp(backend);
    ({ public: key, id: shopId } = await t.createShop('late-beacons'));
    await t.admin('PUT', '/admin/v1/shops/late-beacons/products', [productInput(1), productInput(2), productInput(3)]);
    await t.admin('PUT', '/admin/v1/shops/late-beacons/customers', [
      { id: 9300, email: EMAIL },
      { id: 9600, email: 'ivy@example.com' },
    ]);
    // Rita browses signed in, so her session is hers; her cart is shared with Ivy's device later.
    const view = `/api/v1/analytics/event?key=${key}&subject=user&verb=viewed&noun=product`;
    await t.app.inject({
      method: 'POST',
      url: `${view}&shop_product_handle=product-1&uuid=${SESSION}&shop_customer_id=9300`,
    });
    const track = `/api/v1/analytics/track?key=${key}&type=click&source=list:top_sellers`;
    await t.app.inject({
      method: 'POST',
      url: `${track}&product_id=1&uuid=${SESSION}&shop_customer_id=9300&cart_token=Cart-R`,
    });
    await t.app.inject({ method: 'POST', url: `${track}&product_id=2&uuid=ivy-device&shop_customer_id=9600` });
    await t.app.inject({ method: 'POST', url: `${track}&product_id=3&uuid=ivy-device&cart_token=Cart-R` });
    const exported = await t.admin('POST', '/admin/v1/shops/late-beacons/customers/9600/export');
    expect(JSON.stringify(exported.json())).toContain('Cart-R');
    expect((await t.admin('DELETE', '/admin/v1/shops/late-beacons/customers/9300')).statusCode).toBe(200);
    erasedAt = Date.now();
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
  });

  const stored = () =>
    storedRows(t.config.databaseUrl, async (db) => ({
      events: await db.selectFrom('events').select(['uuid', 'subject_email', 'created_at']).execute(),
      tracked: await db.selectFrom('track_events').select(['uuid', 'cart_token', 'product_id']).execute(),
      identities: await db.selectFrom('erased_identities').select('digest').execute(),
    }));
  const viewed = async () =>
    (await t.app.inject(`/api/v1/products/viewed?key=${key}&uuid=${SESSION}&filter_oos=no`))
      .json()
      .data.map((p: { id: number }) => p.id);

  it('keeps no e-mail, session or cart token in the erasure record itself', async () => {
    const { identities } = await stored();
    expect(identities.length).toBe(3);
    expect(JSON.stringify(identities)).not.toMatch(/rita|cart-r|5e551011/i);
  });

  it('does not store, nor remember, a late view of the erased session dated before the erasure', async () => {
    const late = await t.app.inject({
      method: 'POST',
      url: '/api/v2/analytics/event/bulk',
      headers: { 'x-rebuy-user-token': key, 'content-type': 'application/json' },
      payload: [
        {
          subject: 'user',
          verb: 'viewed',
          noun: 'product',
          uuid: SESSION,
          shopify_product_id: 2,
          event_time: erasedAt - 60_000,
        },
      ],
    });
    expect(late.statusCode, late.body).toBe(200);
    expect((await stored()).events.filter((e) => e.uuid === SESSION)).toEqual([]);
    expect(await viewed()).toEqual([]);
  });

  it('drops what a write buffer held from before the erasure, by session, e-mail or cart', async () => {
    const before = erasedAt - 1000;
    const event = { shop_id: shopId, customer_id: null, subject: 'user', verb: 'viewed', noun: 'product' } as const;
    const kept = await t.services.store.appendEvents([
      { ...event, uuid: SESSION, handle: 'product-2', subject_email: null, theme_id: null, created_at: before },
      {
        ...event,
        uuid: 'another',
        handle: 'product-2',
        subject_email: 'rita@example.COM',
        theme_id: null,
        created_at: before,
      },
      { ...event, uuid: 'a-stranger', handle: 'product-2', subject_email: null, theme_id: null, created_at: before },
    ]);
    expect(kept).toEqual([false, false, true]);
    const tracked = await t.app.inject({
      method: 'POST',
      url: `/api/v1/analytics/track?key=${key}`,
      headers: { 'content-type': 'application/json' },
      payload: {
        events: [
          {
            type: 'click',
            uuid: 'new-device',
            cart_token: 'Cart-R',
            source: 'list:top_sellers',
            product_id: 2,
            at: before,
          },
          { type: 'click', uuid: SESSION, source: 'list:top_sellers', product_id: 3, at: before },
        ],
      },
    });
    expect(tracked.statusCode, tracked.body).toBe(200);
    const rows = await stored();
    expect(rows.events.map((e) => e.uuid)).toEqual(['a-stranger']);
    expect(rows.tracked.filter((r) => r.uuid === SESSION || r.cart_token === 'Cart-R')).toEqual([]);
  });

  it('takes what the session does after the erasure as new data', async () => {
    const view = `/api/v1/analytics/event?key=${key}&subject=user&verb=viewed&noun=product&uuid=${SESSION}`;
    expect((await t.app.inject({ method: 'POST', url: `${view}&shop_product_handle=product-3` })).statusCode).toBe(200);
    expect((await stored()).events.filter((e) => e.uuid === SESSION).length).toBe(1);
    expect(await viewed()).toEqual([3]);
  });

  it("remakes another customer's export that held a click on the erased customer's cart", async () => {
    const requests = (await t.admin('GET', '/admin/v1/shops/late-beacons/privacy/requests')).json().data;
    const ivy = requests.find((r: { customer_id: number }) => r.customer_id === 9600);
    expect(ivy.export.tracking.map((r: { product_id: number }) => r.product_id)).toEqual([2]);
  });

  it("keeps a late event of another signed-in customer in the erased customer's session", async () => {
    // One device, two accounts: Ivy signed in on it too; her own view, still in a write buffer, is hers.
    const kept = await t.services.store.appendEvents([
      {
        shop_id: shopId,
        customer_id: 9600,
        uuid: SESSION,
        subject: 'user',
        verb: 'viewed',
        noun: 'product',
        handle: 'product-1',
        subject_email: null,
        theme_id: null,
        created_at: erasedAt - 500,
      },
    ]);
    expect(kept).toEqual([true]);
  });

  it('drops a view from before the erasure dated by a clock running an hour fast', async () => {
    const fast = Date.now() + 3_600_000;
    const beacon = { subject: 'user', verb: 'viewed', noun: 'product', uuid: SESSION, shopify_product_id: 2 };
    const late = await t.app.inject({
      method: 'POST',
      url: '/api/v2/analytics/event/bulk',
      headers: { 'x-rebuy-user-token': key, 'content-type': 'application/json' },
      payload: [{ ...beacon, shopify_customer_id: 9300, event_time: fast }],
    });
    expect(late.statusCode, late.body).toBe(200);
    const customers = await storedRows(t.config.databaseUrl, (db) =>
      db.selectFrom('events').select('customer_id').where('customer_id', '=', 9300).execute(),
    );
    expect(customers).toEqual([]);
  });
});
