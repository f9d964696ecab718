import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingSubscription } from '../../../src/domain/billing/types.js';
import { backends } from '../../helpers/backends.js';
import { startApp, type TestApp } from '../../helpers/app.js';
import { billingHook, seedBilling } from '../../helpers/billing.js';

const SECRET = 'billing-webhook-secret-0123456789';

describe.each(backends())('billing ledger, campaigns and webhooks on $name', (backend) => {
  let t: TestApp;
  let shopId: number;
  beforeAll(async () => {
    t = await startApp(backend);
    shopId = (await seedBilling(t, 'ledger')).id;
  });
  afterAll(() => t.close().then(() => backend.cleanup()));

  const sub = (id: number) => t.services.store.getLedgerDoc<BillingSubscription>(shopId, 'billing_subscriptions', id);
  const hook = (topic: string, id: string, body: unknown, secret = SECRET) =>
    billingHook(t, 'ledger', secret)(topic, id, body);
  const subscription = (updated_at: string, status: string) => ({
    id: 1000,
    customer_id: 100,
    address_id: 500,
    shop_product_id: 1,
    shop_variant_id: 11,
    status,
    price: 12,
    quantity: 2,
    product_title: 'Product 1',
    order_interval_frequency: '1',
    order_interval_unit: 'month',
    updated_at,
  });

  it('rejects a bad ledger row with 422 naming its index and field, writing nothing', async () => {
    const res = await t.admin('PUT', '/admin/v1/shops/ledger/billing/subscriptions', [
      subscription('2026-11-01T00:00:00', 'ACTIVE'),
      { ...subscription('2026-11-01T00:00:00', 'ACTIVE'), id: 1001, order_interval_unit: 'fortnight' },
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ index: 1, field: 'order_interval_unit' });
    expect((await sub(1000))!.status).toBe('CANCELLED');
    expect((await t.admin('PUT', '/admin/v1/shops/ledger/billing/customers', [{ id: 1 }])).json().field).toBe('email');
    // A timestamp of the right shape that names no real instant is refused, not stored as another day.
    for (const stamp of ['2026-02-30T00:00:00', '2026-11-01T24:30:00', '2026-11-31']) {
      const impossible = await t.admin('PUT', '/admin/v1/shops/ledger/billing/subscriptions', [
        subscription(stamp, 'ACTIVE'),
      ]);
      expect(impossible.statusCode, stamp).toBe(422);
      expect(impossible.json(), stamp).toMatchObject({ index: 0, field: 'updated_at' });
    }
    expect(
      (
        await t.admin('PUT', '/admin/v1/shops/ledger/billing/addresses', [
          { id: 1, customer_id: 1, address1: 'a', city: 'b', zip: 'c', country_code: 'USA' },
        ])
      ).json().field,
    ).toBe('country_code');
    expect(
      (
        await t.admin('PUT', '/admin/v1/shops/ledger/billing/charges', [
          { id: 1, address_id: 1, customer_id: 1, status: 'QUEUED', scheduled_at: 'tomorrow' },
        ])
      ).json().field,
    ).toBe('scheduled_at');
  });

  it('refuses what the provider would not hold, naming the field: every stored field is served on a page', async () => {
    // 300,000 properties a subscription were stored, and each reactivation page that read them took a second.
    const cases: [Record<string, unknown>, string][] = [
      [{ properties: Array.from({ length: 101 }, (_, i) => ({ name: `p${i}`, value: 'v' })) }, 'properties'],
      [{ properties: [{ name: 'gift', value: 'x'.repeat(4097) }] }, 'properties[0].value'],
      [{ product_title: 'x'.repeat(256) }, 'product_title'],
      [{ cancellation_reason_comments: 'x'.repeat(4097) }, 'cancellation_reason_comments'],
      [{ status: 'x'.repeat(65) }, 'status'],
      [{ price: 1e308 }, 'price'],
      [{ quantity: 1e20 }, 'quantity'],
    ];
    for (const [change, field] of cases) {
      const res = await t.admin('PUT', '/admin/v1/shops/ledger/billing/subscriptions', [
        { ...subscription('2026-11-01T00:00:00', 'ACTIVE'), ...change },
      ]);
      expect(res.statusCode, field).toBe(422);
      expect(res.json(), field).toMatchObject({ index: 0, field });
    }
    const properties = Array.from({ length: 100 }, (_, i) => ({ name: `p${i}`, value: 'v'.repeat(4096) }));
    const within = await t.admin('PUT', '/admin/v1/shops/ledger/billing/subscriptions', [
      { ...subscription('2026-10-01T00:00:00', 'CANCELLED'), properties },
    ]);
    expect(within.statusCode).toBe(200);
    const customer = await t.admin('PUT', '/admin/v1/shops/ledger/billing/customers', [
      { id: 100, email: 'a@example.com', shop_customer_id: 'x'.repeat(65) },
    ]);
    expect(customer.json()).toMatchObject({ index: 0, field: 'shop_customer_id' });
  });

  it('creates campaigns and reports their stats', async () => {
    const created = await t.admin('POST', '/admin/v1/shops/ledger/campaigns', {
      name: 'Spring',
      discount_code: 'SPRING',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().campaign).toMatchObject({ id: 1, name: 'Spring', discount_code: 'SPRING' });
    expect((await t.admin('GET', '/admin/v1/shops/ledger/campaigns/1/stats')).json()).toEqual({
      data: { links_generated: 0, pages_opened: 0, reactivations: 0, by_tk: {} },
    });
    expect((await t.admin('GET', '/admin/v1/shops/ledger/campaigns/9/stats')).statusCode).toBe(404);
    expect((await t.admin('POST', '/admin/v1/shops/ledger/campaigns', { name: '' })).statusCode).toBe(422);
  });

  it('checks webhook signatures and applies each webhook id once, never older over newer', async () => {
    expect((await hook('subscription/updated', 'w1', subscription('2026-11-02T00:00:00', 'ACTIVE'))).statusCode).toBe(
      401,
    ); // no secret set yet
    await t.admin('PATCH', '/admin/v1/shops/ledger', { billing_webhook_secret: SECRET });
    const forged = await hook(
      'subscription/updated',
      'w1',
      subscription('2026-11-02T00:00:00', 'ACTIVE'),
      'wrong-secret-0123456789',
    );
    expect(forged.statusCode).toBe(401);
    expect((await sub(1000))!.status).toBe('CANCELLED');

    const applied = await hook('subscription/activated', 'w1', {
      subscription: subscription('2026-11-02T00:00:00', 'ACTIVE'),
    });
    expect(applied.json()).toEqual({ data: 'applied' });
    expect(await sub(1000)).toMatchObject({ status: 'ACTIVE', quantity: 2 });
    expect(
      (await hook('subscription/activated', 'w1', subscription('2026-11-05T00:00:00', 'CANCELLED'))).json(),
    ).toEqual({ data: 'duplicate' });
    expect((await sub(1000))!.status).toBe('ACTIVE');
    // An older update that arrives late changes nothing.
    expect(
      (await hook('subscription/cancelled', 'w2', subscription('2026-10-20T00:00:00', 'CANCELLED'))).json(),
    ).toEqual({ data: 'applied' });
    expect((await sub(1000))!.status).toBe('ACTIVE');
    expect(
      (await hook('subscription/cancelled', 'w3', subscription('2026-11-03T00:00:00', 'CANCELLED'))).statusCode,
    ).toBe(200);
    expect((await sub(1000))!.status).toBe('CANCELLED');
  });

  it('refuses unknown topics, missing ids and invalid documents', async () => {
    expect((await hook('order/created', 'w9', {})).statusCode).toBe(400);
    expect((await hook('subscription/updated', '', subscription('2026-11-09T00:00:00', 'ACTIVE'))).statusCode).toBe(
      400,
    );
    expect((await hook('customer/updated', 'w10', { id: 5 })).statusCode).toBe(422);
    expect((await hook('customer/updated', 'w11', { id: 5, email: 'new@example.com' })).json()).toEqual({
      data: 'applied',
    });
    const unknown = await billingHook(t, 'nope', SECRET)('customer/updated', 'w12', { id: 5, email: 'a@example.com' });
    const wrong = await hook('customer/updated', 'w13', { id: 5, email: 'a@example.com' }, 'a-guessed-secret-0123');
    for (const answer of [unknown, wrong]) {
      expect(answer.statusCode).toBe(401);
      expect(answer.json()).toEqual({ error: 'Invalid webhook signature.', code: 'webhook_signature' });
    }
  });
});
