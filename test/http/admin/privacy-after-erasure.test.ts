import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERASED_SKIPPED, ERASED_UNLINKED } from '../../../src/services/platform/webhooks.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { backends } from '../../helpers/backends.js';
import { productInput } from '../../helpers/fixtures.js';
import { PLATFORM_ENV, PLATFORM_WEBHOOK_SECRET, deliver } from '../../helpers/fake-platform/connect.js';
import { storedRows } from '../../helpers/stored-rows.js';

const EMAIL = 'late@example.com';
const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();

/**
 * The platform retries a webhook it could not deliver, and a reconciliation reads customers the
 * platform still holds: changes made before an erasure arrive after it. They must not bring the
 * customer back (docs/operations.md, "Privacy").
 */
describe.each(backends())('changes from before an erasure, arriving after it, on $name', (backend) => {
  let t: TestApp;
  let key = '';
  beforeAll(async () => {
    t = await startApp(backend, PLATFORM_ENV);
    key = (await t.createShop('late')).public;
    await t.admin('PATCH', '/admin/v1/shops/late', { webhook_secret: PLATFORM_WEBHOOK_SECRET });
    expect((await t.admin('PUT', '/admin/v1/shops/late/products', [productInput(1)])).statusCode).toBe(200);
    await t.admin('PUT', '/admin/v1/shops/late/customers', [{ id: 77, email: EMAIL, tags: ['vip'] }]);
    expect((await t.admin('DELETE', '/admin/v1/shops/late/customers/77')).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await backend.cleanup();
  });

  const stored = () =>
    storedRows(t.config.databaseUrl, async (db) => ({
      customers: await db.selectFrom('customers').select(['id', 'email']).execute(),
      orders: await db.selectFrom('orders').select(['id', 'customer_id']).orderBy('id').execute(),
      webhooks: await db.selectFrom('shop_webhooks').select(['topic', 'outcome', 'payload']).execute(),
    }));
  const order = (id: number, createdAt: string) => ({
    id,
    email: EMAIL,
    created_at: createdAt,
    // Fulfilled since: a change of the platform's, not of the customer's.
    updated_at: minutes(2),
    customer: { id: 77, email: EMAIL },
    line_items: [{ id: id * 10, product_id: 1, variant_id: 11, quantity: 1, price: '10.00' }],
  });

  it('keeps the customer erased, and orders unlinked, and keeps no body naming them', async () => {
    await deliver(t, 'late', 'customers/update', { id: 77, email: EMAIL, tags: 'vip', updated_at: minutes(-5) });
    await deliver(t, 'late', 'orders/updated', order(701, minutes(-5)));
    const { customers, orders, webhooks } = await stored();
    expect(customers).toEqual([]);
    expect(orders.map((o) => [Number(o.id), o.customer_id])).toEqual([[701, null]]);
    expect(webhooks.map((w) => w.outcome).sort()).toEqual([ERASED_UNLINKED, ERASED_SKIPPED].sort());
    expect(webhooks.filter((w) => w.payload.includes(EMAIL))).toEqual([]);
  });

  it('takes a change made after the erasure as new data', async () => {
    await deliver(t, 'late', 'customers/update', { id: 77, email: EMAIL, tags: 'vip', updated_at: minutes(1) });
    await deliver(t, 'late', 'orders/updated', order(702, minutes(1)));
    const { customers, orders } = await stored();
    expect(customers.map((c) => [Number(c.id), c.email])).toEqual([[77, EMAIL]]);
    expect(orders.map((o) => [Number(o.id), o.customer_id === null ? null : Number(o.customer_id)])).toEqual([
      [701, null],
      [702, 77],
    ]);
  });

  it('writes an import of the customer only when it says the row changed after the erasure', async () => {
    expect((await t.admin('DELETE', '/admin/v1/shops/late/customers/77')).statusCode).toBe(200);
    const put = (row: Record<string, unknown>) => t.admin('PUT', '/admin/v1/shops/late/customers', [row]);
    // No time: it cannot be told from the old export it may come from.
    expect((await put({ id: 77, email: EMAIL })).json()).toEqual({ upserted: 0, erased: 1 });
    expect((await put({ id: 77, email: EMAIL, updated_at: minutes(-1) })).json()).toEqual({ upserted: 0, erased: 1 });
    expect((await stored()).customers).toEqual([]);
    expect((await put({ id: 77, email: EMAIL, updated_at: minutes(1) })).json()).toEqual({ upserted: 1, erased: 0 });
    // Another customer is not held back by the erasure.
    expect((await put({ id: 78, email: 'other@example.com' })).json()).toEqual({ upserted: 1, erased: 0 });
  });

  it('keeps no body about the erased, whether applied, skipped or refused', async () => {
    // Older than what is stored, and refused (a custom line without a product): neither is applied.
    await deliver(t, 'late', 'orders/updated', { ...order(701, minutes(-5)), updated_at: minutes(-30) });
    const refused = { ...order(703, minutes(-5)), line_items: [{ id: 1, product_id: null, quantity: 1 }] };
    await deliver(t, 'late', 'orders/create', refused);
    // A guest order naming the erased customer's e-mail (in another case), retried by the platform.
    const guest = { ...order(901, minutes(-5)), email: EMAIL.toUpperCase(), customer: null };
    await deliver(t, 'late', 'orders/updated', { ...guest, billing_address: { name: 'Lena Late' } });
    const { webhooks } = await stored();
    const outcomes = webhooks.map((w) => w.outcome);
    expect(outcomes).toContain('skipped: older than the stored version');
    expect(outcomes.some((o) => o?.startsWith('error:'))).toBe(true);
    expect(webhooks.filter((w) => w.payload !== '{}')).toEqual([]);
  });

  it("lists the merchant's own erasures with the platform's requests, without personal data", async () => {
    const requests = (await t.admin('GET', '/admin/v1/shops/late/privacy/requests')).json().data;
    expect(requests.filter((r: { kind: string }) => r.kind === 'erasure')).toEqual([
      expect.objectContaining({ kind: 'erasure', customer_id: 77, export: null }),
      expect.objectContaining({ kind: 'erasure', customer_id: 77, export: null }),
    ]);
  });

  it("leaves out behaviour dated before the customer's erasure, sent after it", async () => {
    const UUID = 'b8b8b8b8-0000-4000-8000-0000000000b8';
    const send = async (at: number) => {
      const bulk = await t.app.inject({
        method: 'POST',
        url: '/api/v2/analytics/event/bulk',
        headers: { 'x-rebuy-user-token': key },
        payload: [{ subject: 'user', verb: 'viewed', noun: 'product', uuid: UUID, shopify_product_id: 1 }].map((e) => ({
          ...e,
          shopify_customer_id: 77,
          event_time: at,
        })),
      });
      expect(bulk.statusCode, bulk.body).toBe(200);
      const track = await t.app.inject({
        method: 'POST',
        url: `/api/v1/analytics/track?key=${key}`,
        payload: {
          events: [{ type: 'click', uuid: UUID, shop_customer_id: 77, product_id: 1, at: new Date(at).toISOString() }],
        },
      });
      expect(track.statusCode, track.body).toBe(200);
    };
    const rows = () =>
      storedRows(t.config.databaseUrl, async (db) => ({
        events: (await db.selectFrom('events').select('uuid').where('uuid', '=', UUID).execute()).length,
        tracked: (await db.selectFrom('track_events').select('uuid').where('uuid', '=', UUID).execute()).length,
      }));
    // A beacon sent late: its moment is before the last erasure of customer 77 (in an earlier test).
    await send(Date.now() - 30 * 60_000);
    expect(await rows()).toEqual({ events: 0, tracked: 0 });
    // What they do after it is new.
    await send(Date.now());
    expect(await rows()).toEqual({ events: 1, tracked: 1 });
  });
});
