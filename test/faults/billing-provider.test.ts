import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.js';
import { backends } from '../helpers/backends.js';
import { TEST_SECRET_KEY, seedBilling, seedFakeProvider, switchToRemoteProvider } from '../helpers/billing.js';
import { FakeBillingProvider } from '../helpers/fake-billing-provider.js';

const WEBHOOK_SECRET = 'fault-webhook-secret-0123456789';
const UNAVAILABLE = { error: 'The billing provider is unavailable; try again.', code: 'upstream_unavailable' };

/**
 * The remote provider misbehaving: what the caller sees, what the provider received (never a
 * second activation, purchase or charge), and that nothing is half-written on Rebound's side.
 * Calls time out after 1 s here (5 s in production), so the budget for all tries is 2 s.
 */
describe.each(backends())('remote billing provider faults on $name', (backend) => {
  let t: TestApp;
  let fake: FakeBillingProvider;
  let shop: { id: number; private: string };
  let campaignId: number;

  beforeAll(async () => {
    fake = seedFakeProvider(await new FakeBillingProvider().start());
    t = await startApp(backend, {
      REBOUND_SECRET_KEY: TEST_SECRET_KEY,
      REBOUND_ALLOW_PRIVATE_UPSTREAMS: 'true',
      REBOUND_BILLING_TIMEOUT_MS: '1000',
    });
    shop = await seedBilling(t, 'faults');
    await t.admin('PATCH', '/admin/v1/shops/faults', { billing_webhook_secret: WEBHOOK_SECRET });
    await switchToRemoteProvider(t, 'faults', fake);
    // A generous claim limit: these tests reactivate the same customer many times.
    campaignId = (
      await t.admin('POST', '/admin/v1/shops/faults/campaigns', { name: 'Faults', max_claims_per_customer: 100 })
    ).json().campaign.id;
  });
  beforeEach(() => {
    fake.clearFaults();
    fake.received.length = 0;
    // Every test starts from the provider's own answers, not this node's 30-second cache.
    for (const [kind, id] of [
      ['customer', 100],
      ['subscriptions', 100],
      ['address', 500],
      ['charge', 7000],
    ] as const)
      t.services.billingProviders.dropCached(shop.id, kind, id);
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
    await backend.cleanup();
  });

  const context = (query = '') =>
    t.app.inject(`/api/v1/billing/reactivate?key=${shop.private}&billing_customer_id=100${query}`);
  const onetime = (query: string, idempotency?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/v1/billing/onetime?key=${shop.private}&${query}`,
      headers: idempotency ? { 'idempotency-key': idempotency } : {},
    });
  const post = (link: string) => {
    const url = new URL(link);
    return t.app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
  };
  const liveLink = async (sub: number) =>
    (await context(`&billing_subscription_ids=${sub}&request_type=live&campaign_id=${campaignId}`)).json().data
      .service_reactivate_all_link as string;
  const stats = async () => (await t.admin('GET', `/admin/v1/shops/faults/campaigns/${campaignId}/stats`)).json().data;
  /** A webhook of the provider's own dialect, signed as it signs them (a timestamped HMAC). */
  const providerWebhook = (topic: string, body: unknown) => {
    const raw = JSON.stringify(body);
    const t0 = Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', WEBHOOK_SECRET).update(`${t0}.${raw}`).digest('hex');
    return t.app.inject({
      method: 'POST',
      url: '/webhooks/billing/faults',
      payload: raw,
      headers: {
        'content-type': 'application/json',
        'x-recharge-topic': topic,
        'x-recharge-webhook-timestamp': String(t0),
        'x-recharge-webhook-signature': `t=${t0},v1=${signature}`,
      },
    });
  };
  const cancel = (id: number) =>
    Object.assign(fake.subscriptions.get(id)!, { status: 'cancelled', cancelled_at: '2026-10-01T10:00:00+00:00' });

  it('sends the token and version headers on every call', async () => {
    expect((await context()).statusCode).toBe(200);
    expect(fake.received.length).toBeGreaterThan(0);
    expect(fake.received.every((r) => r.token === 'fake-provider-token-0123456789' && r.version === '2021-11')).toBe(
      true,
    );
  });

  it("waits out a 429's Retry-After and succeeds", async () => {
    fake.fail(/^GET \/customers\/100$/, { kind: 'status', status: 429, retryAfter: '1' });
    const res = await context();
    expect(res.statusCode, res.body).toBe(200);
    const calls = fake.calls(/^GET \/customers\/100$/);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.at - calls[0]!.at).toBeGreaterThanOrEqual(1000);
  });

  it("answers 503 with the provider's Retry-After when it points past the budget, and counts nothing", async () => {
    fake.fail(/^GET \/customers\/100$/, { kind: 'status', status: 429, retryAfter: '30' });
    const res = await context(`&campaign_id=${campaignId}&tk=late`);
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('30');
    expect(res.json()).toEqual(UNAVAILABLE);
    expect(fake.calls(/^GET \/customers/)).toHaveLength(1);
    expect((await stats()).by_tk.late).toBeUndefined();
  });

  it('retries 5xx and slow answers at most four times, then answers 503', async () => {
    fake.fail(/^GET \/customers\/100$/, { kind: 'slow', ms: 1500 });
    expect((await context()).statusCode).toBe(200);
    expect(fake.calls(/^GET \/customers\/100$/)).toHaveLength(2);

    t.services.billingProviders.dropCached(shop.id, 'customer', 100);
    fake.received.length = 0;
    fake.fail(/^GET \/customers\/100$/, { kind: 'status', status: 500 }, 10);
    const res = await context();
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual(UNAVAILABLE);
    const tries = fake.calls(/^GET \/customers\/100$/).length;
    expect(tries).toBeGreaterThan(1);
    expect(tries).toBeLessThanOrEqual(4);
  });

  it('activates once when the answer to an activation is lost, and counts one conversion', async () => {
    const link = await liveLink(1000);
    fake.fail(/^POST \/subscriptions\/1000\/activate$/, { kind: 'drop', apply: true });
    const page = await post(link);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('active again');
    expect(fake.calls(/^POST \/subscriptions\/1000\/activate$/)).toHaveLength(1);
    expect(fake.subscriptions.get(1000)!.status).toBe('active');
    expect((await stats()).reactivations).toBe(1);
  });

  it('activates again after a 500 that changed nothing', async () => {
    const link = await liveLink(1001);
    fake.fail(/^POST \/subscriptions\/1001\/activate$/, { kind: 'status', status: 500 });
    expect((await post(link)).body).toContain('active again');
    expect(fake.calls(/^POST \/subscriptions\/1001\/activate$/)).toHaveLength(2);
    expect(fake.subscriptions.get(1001)!.status).toBe('active');
  });

  it('shows a 503 page when the provider stays down, gives the claim back, and works once it is back', async () => {
    cancel(1000);
    const link = await liveLink(1000);
    const before = (await stats()).reactivations;
    const claims = await t.services.store.campaignClaims(shop.id, campaignId, 100);
    fake.fail(/^POST \/subscriptions\/1000\/activate$/, { kind: 'status', status: 503 }, 10);
    const page = await post(link);
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['retry-after']).toBe('5');
    expect(page.body).toContain('try again');
    expect(fake.subscriptions.get(1000)!.status).toBe('cancelled');
    expect((await stats()).reactivations).toBe(before);
    expect(await t.services.store.campaignClaims(shop.id, campaignId, 100)).toBe(claims);

    fake.clearFaults();
    expect((await post(link)).body).toContain('active again');
    expect((await stats()).reactivations).toBe(before + 1);
  });

  it('creates one purchase when the answer to POST /onetimes comes too late', async () => {
    const before = fake.onetimes.size;
    fake.fail(/^POST \/onetimes$/, { kind: 'slow', ms: 1500, apply: true });
    const res = await onetime('address_id=500&shop_variant_id=21&next_charge_scheduled_at=tomorrow');
    expect(res.statusCode, res.body).toBe(201);
    expect(fake.onetimes.size).toBe(before + 1);
    expect(fake.calls(/^POST \/onetimes$/)).toHaveLength(1);
    expect(res.json().data.onetime.id).toBe([...fake.onetimes.keys()].at(-1));
  });

  it('processes a charge once whether its answer is lost or never sent', async () => {
    fake.fail(/^POST \/charges\/\d+\/process$/, { kind: 'drop' });
    const first = await onetime('address_id=500&shop_variant_id=11&charge_now=yes&next_charge_scheduled_at=today');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data.charge.status).toBe('SUCCESS');
    expect(fake.calls(/^POST \/charges\/\d+\/process$/)).toHaveLength(2); // the dropped one was never applied

    fake.received.length = 0;
    fake.fail(/^POST \/charges\/\d+\/process$/, { kind: 'drop', apply: true });
    const second = await onetime(
      'address_id=500&shop_variant_id=12&charge_now=yes&next_charge_scheduled_at=2099-03-01',
    );
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().data).toMatchObject({
      charge: { status: 'SUCCESS' },
      order: { charge_id: second.json().data.charge.id },
    });
    expect(fake.calls(/^POST \/charges\/\d+\/process$/)).toHaveLength(1);
  });

  it('keeps an Idempotency-Key through an outage of unknown outcome, and never buys twice when retried', async () => {
    const before = fake.onetimes.size;
    fake.fail(/^POST \/onetimes$/, { kind: 'drop', apply: true });
    fake.fail(/^GET \/onetimes/, { kind: 'status', status: 500 }, 20);
    const lost = await onetime('address_id=500&shop_variant_id=21&next_charge_scheduled_at=tomorrow', 'outage-1');
    expect(lost.statusCode).toBe(503);
    expect(lost.json()).toEqual(UNAVAILABLE);
    expect(fake.onetimes.size).toBe(before + 1); // it did happen, unknown to Rebound

    fake.clearFaults();
    const retried = await onetime('address_id=500&shop_variant_id=21&next_charge_scheduled_at=tomorrow', 'outage-1');
    expect(retried.statusCode, retried.body).toBe(201);
    expect(fake.onetimes.size).toBe(before + 1);
    expect(fake.calls(/^POST \/onetimes$/)).toHaveLength(1);
    expect(
      (await onetime('address_id=500&shop_variant_id=21&next_charge_scheduled_at=tomorrow', 'outage-1')).body,
    ).toBe(retried.body);
  });

  it('answers 502 naming the settings when the provider refuses the token, and changes nothing', async () => {
    await switchToRemoteProvider(t, 'faults', fake, 'not-the-token');
    const res = await context();
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toContain('billing provider settings');
    expect(fake.calls(/^GET /)).toHaveLength(1); // a refusal is not retried
    await switchToRemoteProvider(t, 'faults', fake);
  });

  it('takes an activation answered with an unreadable body for the activation it was', async () => {
    // A 2xx whose body could not be read was a failure: a 502 page, the claim given back though the
    // subscription was active again (the customer could claim once more), the reactivation never counted.
    cancel(1000);
    const link = await liveLink(1000);
    const before = (await stats()).reactivations;
    const claims = await t.services.store.campaignClaims(shop.id, campaignId, 100);
    fake.fail(/^POST \/subscriptions\/1000\/activate$/, { kind: 'answer', body: {}, apply: true });
    const page = await post(link);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('active again');
    expect(fake.calls(/^POST \/subscriptions\/1000\/activate$/)).toHaveLength(1);
    expect(fake.subscriptions.get(1000)!.status).toBe('active');
    expect(await t.services.store.campaignClaims(shop.id, campaignId, 100)).toBe(claims + 1);
    expect((await stats()).reactivations).toBe(before + 1);
  });

  it('gives the claim back when an unreadable answer to an activation did not activate', async () => {
    cancel(1000);
    const link = await liveLink(1000);
    const claims = await t.services.store.campaignClaims(shop.id, campaignId, 100);
    fake.fail(/^POST \/subscriptions\/1000\/activate$/, { kind: 'answer', body: {} });
    expect((await post(link)).statusCode).toBe(502);
    expect(fake.subscriptions.get(1000)!.status).toBe('cancelled');
    expect(await t.services.store.campaignClaims(shop.id, campaignId, 100)).toBe(claims);
  });

  it('answers 502 upstream_invalid for answers of a shape the provider does not document', async () => {
    const subscription = fake.subscriptions.get(1000)!;
    const subscriptions = (fields: Record<string, unknown>) => ({ subscriptions: [{ ...subscription, ...fields }] });
    const cases: [RegExp, unknown][] = [
      // Read as they were, each threw a TypeError: a 500 naming nothing.
      [/^GET \/customers\/100$/, { customer: null }],
      [/^GET \/customers\/100$/, { customer: [] }],
      [/^GET \/subscriptions/, { subscriptions: [null] }],
      // Fields of the wrong kind, shown as sent before: "lots", [object Object], 1e+308, a product id of 0.
      ...[
        { quantity: 'lots' },
        { quantity: -5 },
        { cancellation_reason: { a: 1 } },
        { sku: { x: 1 } },
        { order_day_of_month: [1, 2] },
        { price: '1e308' },
        { external_product_id: { ecommerce: '12345678901234567890' } },
      ].map((fields): [RegExp, unknown] => [/^GET \/subscriptions/, subscriptions(fields)]),
      // More than the 250 a page asked for.
      [/^GET \/subscriptions/, { subscriptions: Array.from({ length: 251 }, () => subscription) }],
    ];
    for (const [match, body] of cases) {
      t.services.billingProviders.dropCached(shop.id, 'customer', 100);
      t.services.billingProviders.dropCached(shop.id, 'subscriptions', 100);
      fake.fail(match, { kind: 'answer', body });
      const res = await context();
      expect(res.statusCode, JSON.stringify(body)).toBe(502);
      expect(res.json()).toMatchObject({ code: 'upstream_invalid' });
    }
    expect((await context()).statusCode).toBe(200);
  });

  it('lists each subscription once when the provider answers the same cursor again', async () => {
    const cancelled = {
      ...fake.subscriptions.get(1000)!,
      status: 'cancelled',
      cancelled_at: '2026-10-01T10:00:00+00:00',
    };
    const again = { subscriptions: [cancelled], next_cursor: 'the-same-cursor' };
    fake.fail(/^GET \/subscriptions/, { kind: 'answer', body: again }, 4);
    const listed = (await context()).json().data.billing_subscriptions.map((s: { id: number }) => s.id);
    expect(listed).toEqual([1000]);
    expect(fake.calls(/^GET \/subscriptions/)).toHaveLength(2);
  });

  it('refuses a charge webhook whose customer id is not an id, on either database', async () => {
    // Stored as sent on SQLite ("abc"), a 500 on PostgreSQL that the provider kept resending.
    for (const id of ['abc', 1.5, 1e19, { id: 1 }]) {
      const charge = { id: 7001, address_id: 500, customer: { id }, status: 'success' };
      const hook = await providerWebhook('charge/created', { charge });
      expect(hook.statusCode, JSON.stringify(id)).toBe(422);
    }
  });

  it('serves reads from its cache until a provider webhook says the object changed', async () => {
    expect((await context()).json().data.billing_customer.first_name).toBe('Ada');
    fake.customers.get(100)!.first_name = 'Adeline';
    expect((await context()).json().data.billing_customer.first_name).toBe('Ada');
    expect(fake.calls(/^GET \/customers\/100$/)).toHaveLength(1);
    const hook = await providerWebhook('customer/updated', { customer: fake.customers.get(100) });
    expect(hook.json()).toEqual({ data: 'applied' });
    expect((await context()).json().data.billing_customer.first_name).toBe('Adeline');
  });
});
