import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { PLATFORM_ENV, PLATFORM_WEBHOOK_SECRET, deliver } from '../../helpers/fake-platform/connect.js';
import { productInput } from '../../helpers/fixtures.js';
import { storedRows } from '../../helpers/stored-rows.js';

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

/**
 * Storefront webhook bodies once applied (docs/operations.md, "Privacy"): none is kept, so none is left
 * for an erasure to find or an export to hold; the orders a request lists are reached through their rows,
 * however many it lists.
 */
describe.each(backends())('webhook bodies and the orders a privacy request lists, on $name', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp(backend, PLATFORM_ENV);
    await t.createShop('bodies');
    await t.admin('PATCH', '/admin/v1/shops/bodies', { webhook_secret: PLATFORM_WEBHOOK_SECRET });
    await t.admin('PUT', '/admin/v1/shops/bodies/products', [productInput(1)]);
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
  });

  const stored = () =>
    storedRows(t.config.databaseUrl, (db) => db.selectFrom('shop_webhooks').select(['topic', 'payload']).execute());
  const order = (id: number, customer: { id: number; email: string } | null, address: Record<string, string>) =>
    deliver(t, 'bodies', 'orders/create', {
      id,
      created_at: hoursAgo(1),
      updated_at: hoursAgo(1),
      customer,
      email: customer?.email ?? `guest-${id}@example.com`,
      note: 'Gift for Cleo <cleo@example.com>, call her on +44 20 7946 0958.',
      shipping_address: address,
      line_items: [{ id: id * 10, product_id: 1, variant_id: 11, quantity: 1, price: '10.00' }],
    });

  it('keeps no body once applied, of any topic, and no export holds one', async () => {
    await t.admin('PUT', '/admin/v1/shops/bodies/customers', [{ id: 6200, email: 'giver@example.com' }]);
    await order(9100, { id: 6200, email: 'giver@example.com' }, { name: 'Recipient', address1: '7 Gift Lane' });
    await order(9101, null, { name: 'A Guest', address1: '8 Guest Row', phone: '+1 415 555 0177' });
    await deliver(t, 'bodies', 'customers/update', { id: 6200, email: 'giver@example.com', note: '9 Note Road' });
    await deliver(t, 'bodies', 'products/update', { ...productInput(1), body_html: '<p>10 Product Street</p>' });
    await t.services.storefrontSync.applyPending();
    const rows = await stored();
    expect(rows.map((row) => row.topic).sort()).toEqual([
      'customers/update',
      'orders/create',
      'orders/create',
      'products/update',
    ]);
    expect(rows.map((row) => row.payload)).toEqual(['{}', '{}', '{}', '{}']);
    // What the bodies held that Rebound uses is in its rows: the orders, with their lines.
    const exported = (await t.admin('POST', '/admin/v1/shops/bodies/customers/6200/export')).json().request.export;
    expect(exported.orders.map((o: { id: number }) => Number(o.id))).toEqual([9100]);
    expect('webhooks' in exported).toBe(false);
    expect(JSON.stringify(exported)).not.toMatch(/Gift Lane|cleo@example\.com|Note Road/);
  });

  it('exports the guest orders a data request lists, a thousand and more of them', async () => {
    await t.admin('PUT', '/admin/v1/shops/bodies/customers', [{ id: 88, email: 'pat@example.com' }]);
    // Placed as a guest under another address: only the request's order list names Pat.
    await order(9500, null, { name: 'Pat Guest', address1: '5 Guest Row' });
    await order(9501, null, { name: 'Someone', address1: '6 Other Row' });
    await t.services.storefrontSync.applyPending();
    // SQLite refuses one expression of a thousand terms: the list is read in slices.
    const listed = [9500, ...Array.from({ length: 1_200 }, (_, i) => 700_000 + i)];
    await deliver(t, 'bodies', 'customers/data_request', {
      customer: { id: 88, email: 'pat@example.com' },
      orders_requested: listed,
      data_request: { id: 950 },
    });
    const requests = (await t.admin('GET', '/admin/v1/shops/bodies/privacy/requests')).json().data;
    const exported = requests.find((request: { id: string }) => request.id === '950').export;
    expect(exported.orders.map((o: { id: number }) => Number(o.id))).toEqual([9500]);
    expect(exported.orders[0].lines).toHaveLength(1);
  });

  it('erases a customer whose redact lists a thousand orders and more', async () => {
    await t.admin('PUT', '/admin/v1/shops/bodies/customers', [{ id: 89, email: 'quinn@example.com' }]);
    await order(9600, { id: 89, email: 'quinn@example.com' }, { name: 'Quinn', address1: '1 Quinn Way' });
    await t.services.storefrontSync.applyPending();
    await deliver(t, 'bodies', 'customers/redact', {
      customer: { id: 89, email: 'quinn@example.com' },
      orders_to_redact: [9600, ...Array.from({ length: 1_200 }, (_, i) => 800_000 + i)],
    });
    await t.services.storefrontSync.applyPending();
    expect(
      (await t.services.store.listCustomers((await t.services.store.getShopByHandle('bodies'))!.id)).map((c) => c.id),
    ).not.toContain(89);
    const outcomes = await storedRows(t.config.databaseUrl, (db) =>
      db.selectFrom('shop_webhooks').select('outcome').where('topic', '=', 'customers/redact').execute(),
    );
    expect(outcomes.map((row) => row.outcome)).toEqual(['applied']);
  });
});
