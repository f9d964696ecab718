import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';
import { PLATFORM_ENV, PLATFORM_WEBHOOK_SECRET, deliver } from '../../helpers/fake-platform/connect.js';
import { storedRows } from '../../helpers/stored-rows.js';

const BEFORE_SIGN_IN = 'd4d4d4d4-0000-4000-8000-0000000000d4';
const AFTER_CHANGE = 'e5e5e5e5-0000-4000-8000-0000000000e5';
const OTHER_ACCOUNT = 'f6f6f6f6-0000-4000-8000-0000000000f6';
const DELETED_FIRST = 'a7a7a7a7-0000-4000-8000-0000000000a7';
const ACCENTED = 'b8b8b8b8-0000-4000-8000-0000000000b8';
const HANDED_ON = 'c9c9c9c9-0000-4000-8000-0000000000c9';
const DECOMPOSED = 'dadadada-0000-4000-8000-0000000000da';

/**
 * A visitor browsing before they sign in is known by the e-mail they type alone. When the customer
 * later changes their e-mail, those events still name the old one: a data request and an erasure
 * must find them by it (docs/operations.md, "Privacy").
 */
describe.each(backends())('a customer whose e-mail changed, on $name', (backend) => {
  let t: TestApp;
  let publicKey: string;
  beforeAll(async () => {
    t = await startApp(backend, PLATFORM_ENV);
    publicKey = (await t.createShop('moved')).public;
    await t.admin('PATCH', '/admin/v1/shops/moved', { webhook_secret: PLATFORM_WEBHOOK_SECRET });
    await t.admin('PUT', '/admin/v1/shops/moved/products', [productInput(1)]);
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
  });

  const customer = (email: string) =>
    t.admin('PUT', '/admin/v1/shops/moved/customers', [{ id: 55, email, tags: [], updated_at: new Date() }]);
  const view = async (uuid: string, email: string) => {
    const url =
      `/api/v1/analytics/event?key=${publicKey}&subject=user&verb=viewed&noun=product` +
      `&shop_product_handle=product-1&uuid=${uuid}&subject_email=${encodeURIComponent(email)}`;
    expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(200);
  };
  const events = async (uuid: string) =>
    (await t.admin('GET', `/admin/v1/shops/moved/events?uuid=${uuid}`)).json().data as unknown[];

  it('finds the events of every e-mail the customer had, for an export and for an erasure', async () => {
    await customer('Old@Example.com');
    await view(BEFORE_SIGN_IN, 'old@example.com');
    await customer('new@example.com');
    await customer('new@example.com');
    await customer('newest@example.com');
    await view(AFTER_CHANGE, 'new@example.com');
    const [row] = await storedRows(t.config.databaseUrl, (db) =>
      db.selectFrom('customers').select(['email', 'former_emails']).execute(),
    );
    // Each e-mail once, in the order replaced, lower-cased as events are matched.
    expect(row).toEqual({ email: 'newest@example.com', former_emails: 'old@example.com\nnew@example.com' });

    await deliver(t, 'moved', 'customers/update', { id: 55, email: 'newest@example.com', updated_at: new Date() });
    await deliver(t, 'moved', 'customers/data_request', { customer: { id: 55 }, data_request: { id: 1 } });
    const [request] = (await t.admin('GET', '/admin/v1/shops/moved/privacy/requests')).json().data;
    expect(request.export.customer.former_emails).toEqual(['old@example.com', 'new@example.com']);
    const exported = (request.export.events as { uuid: string }[]).map((e) => e.uuid).sort();
    expect(exported).toEqual([BEFORE_SIGN_IN, AFTER_CHANGE].sort());

    expect(await events(BEFORE_SIGN_IN)).toHaveLength(1);
    expect((await t.admin('DELETE', '/admin/v1/shops/moved/customers/55')).statusCode).toBe(200);
    expect(await events(BEFORE_SIGN_IN)).toEqual([]);
    expect(await events(AFTER_CHANGE)).toEqual([]);
  });

  it('matches e-mails in any case of any letter, not only of ASCII ones', async () => {
    await t.admin('PUT', '/admin/v1/shops/moved/customers', [{ id: 71, email: 'ZOË.Ärger@Example.com' }]);
    await view(ACCENTED, 'zoë.ärger@example.com');
    await t.admin('PUT', '/admin/v1/shops/moved/customers', [{ id: 71, email: 'later@example.com' }]);
    const rows = await storedRows(t.config.databaseUrl, (db) =>
      db.selectFrom('customers').select(['id', 'former_emails']).execute(),
    );
    expect(rows.find((r) => Number(r.id) === 71)?.former_emails).toBe('zoë.ärger@example.com');
    // Another customer giving that address in another case is refused, as for an ASCII one.
    const other = await t.admin('POST', '/admin/v1/shops/moved/customers/72/export?email=ZOË.ÄRGER%40example.com');
    expect(other.statusCode).toBe(400);
    expect(await events(ACCENTED)).toHaveLength(1);
    expect((await t.admin('DELETE', '/admin/v1/shops/moved/customers/71')).statusCode).toBe(200);
    expect(await events(ACCENTED)).toEqual([]);
  });

  it('finds an address typed composed and sent decomposed as one, for an export and for an erasure', async () => {
    // `ë` is one code point from one keyboard and `e` with a combining diaeresis from another.
    await t.admin('PUT', '/admin/v1/shops/moved/customers', [{ id: 41, email: 'zo\u00eb@example.com' }]);
    await view(DECOMPOSED, 'zoe\u0308@example.com');
    // A billing customer of the same address, not linked to the shop's customer, decomposed too.
    const billing = {
      id: 4100,
      email: 'zoe\u0308@example.com',
      first_name: 'Zoe',
      last_name: 'Secret',
      billing_country: 'Greece',
    };
    expect((await t.admin('PUT', '/admin/v1/shops/moved/billing/customers', [billing])).statusCode).toBe(200);
    const made = await t.admin('POST', '/admin/v1/shops/moved/customers/41/export');
    expect(made.json().request.export.events).toHaveLength(1);
    expect(made.json().request.export.billing_customers.map((b: { id: number }) => Number(b.id))).toEqual([4100]);
    expect((await t.admin('DELETE', '/admin/v1/shops/moved/customers/41')).statusCode).toBe(200);
    expect(await events(DECOMPOSED)).toEqual([]);
    const [stored] = await storedRows(t.config.databaseUrl, (db) =>
      db.selectFrom('billing_customers').select('document').where('id', '=', 4100).execute(),
    );
    expect(stored!.document).not.toMatch(/Secret|Zoe|Greece/);
  });

  it("leaves another customer's signed-in events alone when they took over an e-mail given up", async () => {
    await t.admin('PUT', '/admin/v1/shops/moved/customers', [{ id: 61, email: 'shared@example.com' }]);
    await t.admin('PUT', '/admin/v1/shops/moved/customers', [{ id: 61, email: 'moved-on@example.com' }]);
    await t.admin('PUT', '/admin/v1/shops/moved/customers', [{ id: 62, email: 'shared@example.com' }]);
    const url =
      `/api/v1/analytics/event?key=${publicKey}&subject=user&verb=viewed&noun=product` +
      `&shop_product_handle=product-1&uuid=${OTHER_ACCOUNT}&shop_customer_id=62&subject_email=shared%40example.com`;
    expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(200);
    expect((await t.admin('DELETE', '/admin/v1/shops/moved/customers/61')).statusCode).toBe(200);
    expect(await events(OTHER_ACCOUNT)).toHaveLength(1);
  });

  it('neither exports nor erases what names an e-mail given up that another customer holds now', async () => {
    await t.admin('PUT', '/admin/v1/shops/moved/customers', [{ id: 64, email: 'handed-on@example.com' }]);
    await t.admin('PUT', '/admin/v1/shops/moved/customers', [{ id: 64, email: 'x-now@example.com' }]);
    await t.admin('PUT', '/admin/v1/shops/moved/customers', [{ id: 65, email: 'handed-on@example.com' }]);
    // The new holder, on their own device: a newsletter click naming them by e-mail alone, then browsing.
    await view(HANDED_ON, 'handed-on@example.com');
    const anonymous =
      `/api/v1/analytics/event?key=${publicKey}&subject=user&verb=viewed&noun=product` +
      `&shop_product_handle=product-1&uuid=${HANDED_ON}`;
    expect((await t.app.inject({ method: 'POST', url: anonymous })).statusCode).toBe(200);
    await deliver(t, 'moved', 'orders/create', {
      id: 6500,
      created_at: new Date(Date.now() - 60_000).toISOString(),
      customer: { id: 65, email: 'handed-on@example.com' },
      email: 'handed-on@example.com',
      shipping_address: { name: 'Yara New', address1: '5 Holder Street' },
      line_items: [{ id: 65001, product_id: 1, variant_id: 11, quantity: 1, price: '10.00' }],
    });
    const exported = (await t.admin('POST', '/admin/v1/shops/moved/customers/64/export')).json().request.export;
    expect(JSON.stringify(exported)).not.toContain(HANDED_ON);
    expect(JSON.stringify(exported)).not.toContain('5 Holder Street');
    expect((await t.admin('DELETE', '/admin/v1/shops/moved/customers/64')).statusCode).toBe(200);
    expect(await events(HANDED_ON)).toHaveLength(2);
    // The order stays the new holder's.
    const orders = await storedRows(t.config.databaseUrl, (db) =>
      db.selectFrom('orders').select(['id', 'customer_id']).where('id', '=', 6500).execute(),
    );
    expect(orders.map((o) => Number(o.customer_id))).toEqual([65]);
  });

  it('finds the events of a customer the platform deleted before it sent their erasure', async () => {
    await t.admin('PUT', '/admin/v1/shops/moved/customers', [{ id: 63, email: 'first@example.com' }]);
    await view(DELETED_FIRST, 'first@example.com');
    await t.admin('PUT', '/admin/v1/shops/moved/customers', [{ id: 63, email: 'second@example.com' }]);
    // The platform's order: the merchant deletes the customer; the erasure comes later, naming the last e-mail.
    await deliver(t, 'moved', 'customers/delete', { id: 63 });
    expect(await events(DELETED_FIRST)).toHaveLength(1);
    await deliver(t, 'moved', 'customers/redact', { customer: { id: 63, email: 'second@example.com' } });
    expect(await events(DELETED_FIRST)).toEqual([]);
  });
});
