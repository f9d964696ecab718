import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';

const SESSION = 'd4d4d4d4-0000-4000-8000-0000000000d4';
const EMAIL_ONLY_SESSION = 'e6e6e6e6-0000-4000-8000-0000000000e6';
const orderCreatedAt = Date.parse('2026-11-20T10:00:00.000Z');

/**
 * A customer's data request made to the shop itself (no platform connection to send it): the
 * merchant exports what is stored about them with the admin API, finds it listed with the privacy
 * requests, and the export goes when the customer is erased (docs/operations.md, "Privacy").
 */
describe.each(backends())("the merchant's own data export, on $name", (backend) => {
  let t: TestApp;
  let publicKey: string;
  beforeAll(async () => {
    t = await startApp(backend);
    publicKey = (await t.createShop('own', { name: 'Own shop' })).public;
    const put = async (path: string, body: unknown) =>
      expect((await t.admin('PUT', `/admin/v1/shops/own/${path}`, body)).statusCode).toBe(200);
    await put('customers', [
      { id: 7100, email: 'ines@example.com', tags: ['vip'] },
      { id: 7200, email: 'otto.before@example.com', tags: [] },
    ]);
    // Otto changes his address: the one he had stays on file as his, for his privacy requests.
    await put('customers', [{ id: 7200, email: 'otto@example.com', tags: [] }]);
    await put('orders', [
      {
        id: 31,
        created_at: new Date(orderCreatedAt).toISOString(),
        customer: { id: 7100 },
        line_items: [{ id: 311, product_id: 1, variant_id: 11, quantity: 1, price: '10.00' }],
      },
    ]);
    const view = (who: string, uuid: string) =>
      t.app.inject({
        method: 'POST',
        url:
          `/api/v1/analytics/event?key=${publicKey}&subject=user&verb=viewed&noun=product` +
          `&shop_product_handle=product-1&uuid=${uuid}${who}`,
      });
    expect((await view('&shop_customer_id=7100', SESSION)).statusCode).toBe(200);
    // Before the shop knew her: an e-mail it no longer stores.
    expect((await view('&subject_email=ines.old%40example.com', EMAIL_ONLY_SESSION)).statusCode).toBe(200);
    expect((await view('&shop_customer_id=7200', SESSION.replace('d4d4d4d4', 'f7f7f7f7'))).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
  });

  const requests = async () => (await t.admin('GET', '/admin/v1/shops/own/privacy/requests')).json().data;

  it('refuses an e-mail on file for another customer, exporting or erasing nothing', async () => {
    const before = await requests();
    for (const [method, path, whose] of [
      ['POST', '/admin/v1/shops/own/customers/7200/export?email=INES%40example.com', 7100],
      ['DELETE', '/admin/v1/shops/own/customers/7200?email=ines%40example.com', 7100],
      ['POST', '/admin/v1/shops/own/customers/7100/export?email=otto.before%40example.com', 7200],
      ['DELETE', '/admin/v1/shops/own/customers/7100?email=otto.before%40example.com', 7200],
    ] as const) {
      const res = await t.admin(method, path);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ parameter: 'email' });
      expect(res.json().error).toContain(`is customer ${whose}'s, not customer ${whose === 7100 ? 7200 : 7100}'s`);
    }
    // Nothing listed, and both customers' events are where they were.
    expect(await requests()).toEqual(before);
    for (const customer of [7100, 7200]) {
      const events = (await t.admin('GET', `/admin/v1/shops/own/events?shop_customer_id=${customer}`)).json().data;
      expect(events).toHaveLength(1);
    }
  });

  it('finds events naming the customer only by the e-mail given', async () => {
    const without = (await t.admin('POST', '/admin/v1/shops/own/customers/7100/export')).json().request;
    const withEmail = await t.admin('POST', '/admin/v1/shops/own/customers/7100/export?email=ines.old%40example.com');
    expect(withEmail.statusCode, withEmail.body).toBe(201);
    const sessionsOf = (r: { export: { events: { uuid: string }[] } }) => r.export.events.map((e) => e.uuid);
    expect(sessionsOf(without)).not.toContain(EMAIL_ONLY_SESSION);
    expect(sessionsOf(withEmail.json().request)).toContain(EMAIL_ONLY_SESSION);
    expect((await requests()).map((r: { id: string }) => r.id).sort()).toEqual(
      [without.id, withEmail.json().request.id].sort(),
    );
  });

  it('exports one customer, lists the export, and lets the erasure take it', async () => {
    const made = await t.admin('POST', '/admin/v1/shops/own/customers/7100/export');
    expect(made.statusCode, made.body).toBe(201);
    const { request } = made.json();
    expect(request).toMatchObject({ kind: 'data_request', customer_id: 7100 });
    expect(request.export.customer).toMatchObject({ id: 7100, email: 'ines@example.com' });
    expect(request.export.orders).toHaveLength(1);
    expect(request.export.events).toHaveLength(1);
    // Times as the rest of the API writes them, not as stored: the customer reads this.
    const [order] = request.export.orders;
    expect(order.created_at).toBe(new Date(orderCreatedAt).toISOString());
    expect(order.lines[0]).toMatchObject({ product_id: 1, quantity: 1, created_at: order.created_at });
    expect(request.export.events[0].created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(JSON.stringify(request.export)).not.toContain('otto@example.com');
    expect(await requests()).toContainEqual(request);

    expect((await t.admin('DELETE', '/admin/v1/shops/own/customers/7100')).statusCode).toBe(200);
    const after = await requests();
    // Every export of her went with the erasure, which is listed naming no one.
    expect(after).toEqual([expect.objectContaining({ kind: 'erasure', customer_id: 7100, export: null })]);
    expect(JSON.stringify(after)).not.toContain('ines');
  });

  it("remakes another customer's export that held what the erasure took from a device they shared", async () => {
    const shared = 'a8a8a8a8-0000-4000-8000-0000000000a8';
    await t.admin('PUT', '/admin/v1/shops/own/customers', [
      { id: 7300, email: 'alma@example.com', tags: [] },
      { id: 7400, email: 'bruno@example.com', tags: [] },
    ]);
    const view = (who: string) =>
      t.app.inject({
        method: 'POST',
        url:
          `/api/v1/analytics/event?key=${publicKey}&subject=user&verb=viewed&noun=product` +
          `&shop_product_handle=product-1&uuid=${shared}${who}`,
      });
    // Alma browses the device before she signs in, then signs in; Bruno signs in on it later.
    for (const who of ['', '&shop_customer_id=7300', '&shop_customer_id=7400'])
      expect((await view(who)).statusCode).toBe(200);
    const made = await t.admin('POST', '/admin/v1/shops/own/customers/7400/export');
    const eventsOf = (request: { export: { events: { customer_id: number | null }[] } }) =>
      request.export.events.map((e) => e.customer_id);
    // His export holds the device's anonymous view (his session's) beside his own.
    expect(eventsOf(made.json().request).sort()).toEqual([7400, null]);

    expect((await t.admin('DELETE', '/admin/v1/shops/own/customers/7300')).statusCode).toBe(200);
    const kept = (await requests()).find((r: { id: string }) => r.id === made.json().request.id);
    // The anonymous view went with her (the session is hers too): his export no longer holds it.
    expect(eventsOf(kept)).toEqual([7400]);
  });

  it('refuses an id or e-mail that is not one, naming it, and another shop', async () => {
    const badId = await t.admin('POST', '/admin/v1/shops/own/customers/abc/export');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().parameter).toBe('id');
    const badEmail = await t.admin('POST', '/admin/v1/shops/own/customers/7200/export?email=nobody');
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().parameter).toBe('email');
    const other = await t.createShop('other', { name: 'Other shop' });
    const reach = await t.app.inject({
      method: 'POST',
      url: '/admin/v1/shops/own/customers/7200/export',
      headers: { authorization: `Bearer ${other.private}` },
    });
    expect([403, 404]).toContain(reach.statusCode);
    expect(reach.body).not.toContain('otto@example.com');
  });
});
