import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { PLATFORM_ENV, PLATFORM_WEBHOOK_SECRET, deliver } from '../../helpers/fake-platform/connect.js';
import { productInput } from '../../helpers/fixtures.js';
import { storedRows } from '../../helpers/stored-rows.js';

const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

/**
 * The stored webhook bodies an erasure blanks (docs/operations.md, "Privacy"): every one naming the
 * customer, however the phone was written, and none that only holds the id's digits; another
 * customer's export holding a blanked body is made again.
 */
describe.each(backends())('the webhook bodies an erasure reaches, on $name', (backend) => {
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

  const bodies = async () =>
    (await storedRows(t.config.databaseUrl, (db) => db.selectFrom('shop_webhooks').select('payload').execute()))
      .map((row) => row.payload)
      .join('\n');
  const order = (id: number, customer: { id: number; email: string } | null, address: Record<string, string>) =>
    deliver(t, 'bodies', 'orders/create', {
      id,
      created_at: hoursAgo(1),
      updated_at: hoursAgo(1),
      customer,
      email: customer?.email ?? `guest-${id}@example.com`,
      shipping_address: address,
      line_items: [{ id: id * 10, product_id: 1, variant_id: 11, quantity: 1, price: '10.00' }],
    });

  it("keeps another customer's body that holds the erased id's digits only as a date", async () => {
    await t.admin('PUT', '/admin/v1/shops/bodies/customers', [
      { id: 2026, email: 'erased-2026@example.com' },
      { id: 7, email: 'kept-7@example.com' },
    ]);
    // Written in 2026: the digits of customer 2026 are in every date of the body.
    await order(31, { id: 7, email: 'kept-7@example.com' }, { name: 'Kept Seven', address1: '8 Kept Road' });
    await order(32, { id: 2026, email: 'erased-2026@example.com' }, { name: 'Gone', address1: '9 Gone Road' });
    const exported = async () =>
      (await t.admin('POST', '/admin/v1/shops/bodies/customers/7/export')).json().request.export;
    expect((await exported()).webhooks).toHaveLength(1);
    expect((await t.admin('DELETE', '/admin/v1/shops/bodies/customers/2026')).statusCode).toBe(200);
    const left = await bodies();
    expect(left).not.toContain('9 Gone Road');
    expect(left).toContain('8 Kept Road');
    expect((await exported()).webhooks).toHaveLength(1);
  });

  it('blanks a body naming the phone with spaces inside its last four digits', async () => {
    const guest = (id: number, phone: string, address1: string) =>
      order(id, null, { name: 'Amélie Poulain', address1, phone });
    await guest(9030, '+33612345678', '1 Written Whole');
    // In pairs, as written in France: the last four digits are "56 78".
    await guest(9031, '+33 6 12 34 56 78', '2 Rue des Paires');
    await vi.waitFor(async () => expect(await bodies()).toContain('Rue des Paires'));
    await deliver(t, 'bodies', 'customers/redact', {
      customer: { id: 7100, email: 'amelie@example.com', phone: '+33612345678' },
      orders_to_redact: [],
    });
    await t.services.storefrontSync.applyPending();
    const left = await bodies();
    expect(left).not.toContain('1 Written Whole');
    expect(left).not.toContain('Rue des Paires');
  });

  it("takes a blanked body out of another customer's export", async () => {
    await t.admin('PUT', '/admin/v1/shops/bodies/customers', [
      { id: 6100, email: 'recipient@example.com' },
      { id: 6200, email: 'giver@example.com' },
    ]);
    // A gift: the giver's order, shipped to the recipient, names her address and phone.
    await order(
      9100,
      { id: 6200, email: 'giver@example.com' },
      { name: 'Recipient', address1: '7 Gift Lane', phone: '+1 415 555 0123' },
    );
    await deliver(t, 'bodies', 'customers/data_request', {
      customer: { id: 6200, email: 'giver@example.com' },
      data_request: { id: 501 },
    });
    const exportOf = async (id: string) =>
      (await t.admin('GET', '/admin/v1/shops/bodies/privacy/requests'))
        .json()
        .data.find((request: { id: string }) => request.id === id).export;
    expect(JSON.stringify(await exportOf('501'))).toContain('7 Gift Lane');
    await deliver(t, 'bodies', 'customers/redact', {
      customer: { id: 6100, email: 'recipient@example.com', phone: '+14155550123' },
      orders_to_redact: [9100],
    });
    await t.services.storefrontSync.applyPending();
    expect(await bodies()).not.toContain('7 Gift Lane');
    const remade = await exportOf('501');
    expect(JSON.stringify(remade)).not.toContain('7 Gift Lane');
    // Remade from what remains: the giver's own records are still there.
    expect(remade.customer.email).toBe('giver@example.com');
  });

  it('exports the guest orders a data request lists and the bodies naming its phone', async () => {
    await t.admin('PUT', '/admin/v1/shops/bodies/customers', [{ id: 88, email: 'pat@example.com' }]);
    // Placed as a guest under another address: only the request's order list and phone name Pat.
    await order(9500, null, { name: 'Pat Guest', address1: '5 Guest Row', phone: '+1 415 555 0177' });
    await order(9501, null, { name: 'Someone', address1: '6 Other Row', phone: '+1 415 555 0199' });
    await order(9502, null, { name: 'Pat Again', address1: '8 Phone Row', phone: '(415) 555-0177' });
    await deliver(t, 'bodies', 'customers/data_request', {
      customer: { id: 88, email: 'pat@example.com', phone: '+14155550177' },
      orders_requested: [9500],
      data_request: { id: 950 },
    });
    const exported = (await t.admin('GET', '/admin/v1/shops/bodies/privacy/requests'))
      .json()
      .data.find((request: { id: string }) => request.id === '950').export;
    const text = JSON.stringify(exported);
    expect(text).toContain('5 Guest Row');
    expect(text).toContain('8 Phone Row');
    expect(text).not.toContain('6 Other Row');
    expect(exported.orders.map((o: { id: number }) => Number(o.id))).toEqual([9500]);
    expect(exported.orders[0].lines).toHaveLength(1);
  });

  it("exports an order mentioning an address in a note as its customer's, not the address holder's", async () => {
    await t.admin('PUT', '/admin/v1/shops/bodies/customers', [
      { id: 501, email: 'ada@example.com' },
      { id: 502, email: 'ben@example.com' },
    ]);
    await order(7001, { id: 502, email: 'ben@example.com' }, { name: 'Ben', address1: '12 Ben Street' });
    await deliver(t, 'bodies', 'orders/updated', {
      id: 7001,
      updated_at: hoursAgo(0.5),
      customer: { id: 502, email: 'ben@example.com' },
      note_attributes: [{ name: 'notify', value: 'ada@example.com' }],
      shipping_address: { name: 'Ben', address1: '12 Ben Street' },
      line_items: [],
    });
    await t.services.storefrontSync.applyPending();
    const exported = (await t.admin('POST', '/admin/v1/shops/bodies/customers/501/export')).json().request.export;
    expect(JSON.stringify(exported.webhooks)).not.toContain('12 Ben Street');
  });

  it('blanks a body whose text names the erased address or phone, and not one naming a longer address', async () => {
    await t.admin('PUT', '/admin/v1/shops/bodies/customers', [
      { id: 503, email: 'cleo@example.com' },
      { id: 504, email: 'dan@example.com' },
    ]);
    const note = (id: number, text: string, street: string) =>
      deliver(t, 'bodies', 'orders/create', {
        id,
        created_at: hoursAgo(1),
        customer: { id: 504, email: 'dan@example.com' },
        note: text,
        shipping_address: { name: 'Dan', address1: street },
        line_items: [{ id: id * 10, product_id: 1, variant_id: 11, quantity: 1, price: '10.00' }],
      });
    await note(7002, 'Gift for Cleo <cleo@example.com>, call her on +44 20 7946 0958.', '3 Gift Road');
    await note(7003, 'Also tell jimcleo@example.com and cleo@example.com.au', '4 Other Road');
    await vi.waitFor(async () => expect(await bodies()).toContain('4 Other Road'));
    await deliver(t, 'bodies', 'customers/redact', {
      customer: { id: 503, email: 'cleo@example.com', phone: '+44 20 7946 0958' },
      orders_to_redact: [],
    });
    await t.services.storefrontSync.applyPending();
    const left = await bodies();
    expect(left).not.toContain('3 Gift Road');
    expect(left).not.toContain('+44 20 7946 0958');
    expect(left).toContain('4 Other Road');
  });
});
